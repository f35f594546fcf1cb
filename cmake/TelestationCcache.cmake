# Compiles through ccache (Debian's ccache package, installed by scripts/bootstrap) when it is there.
# The cache is the user's (~/.cache/ccache) and is keyed on paths relative to the source tree
# (CCACHE_BASEDIR) without the build directory (CCACHE_NOHASHDIR), so a fresh clone on the same
# machine, a git worktree and every preset's build directory reuse what another already compiled.
option(TELESTATION_CCACHE "Compile through ccache when it is installed" ON)
if(TELESTATION_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    find_program(TELESTATION_CCACHE_PROGRAM ccache)
    if(TELESTATION_CCACHE_PROGRAM)
        set(CMAKE_CXX_COMPILER_LAUNCHER
            "${CMAKE_COMMAND}" -E env "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_NOHASHDIR=1
            "${TELESTATION_CCACHE_PROGRAM}")
        message(STATUS "Compiling through ${TELESTATION_CCACHE_PROGRAM}")
    endif()
endif()
