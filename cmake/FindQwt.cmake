# FindQwt: Qwt built for Qt 6.
#
# Looks, in order, in the project's cache prefix (.deps/qwt-<version>, where scripts/bootstrap builds
# it, or $TELESTATION_DEPS_DIR), in Qwt_ROOT / CMAKE_PREFIX_PATH, and in the system locations
# distributions use for their Qt 6 builds of Qwt (pkg-config module Qt6Qwt6, /usr/include/qwt-qt6, ...).
# A Qwt built for Qt 5 is rejected: mixing Qt 5 and Qt 6 in one process crashes.
#
# Result: imported target Qwt::Qwt, Qwt_FOUND, Qwt_VERSION, Qwt_INCLUDE_DIR, Qwt_LIBRARY.

set(_qwt_hints "${PROJECT_SOURCE_DIR}/.deps")
if(DEFINED ENV{TELESTATION_DEPS_DIR})
    list(PREPEND _qwt_hints "$ENV{TELESTATION_DEPS_DIR}")
endif()
set(_qwt_prefixes)
foreach(dir ${_qwt_hints})
    file(GLOB _found LIST_DIRECTORIES true "${dir}/qwt-*")
    list(APPEND _qwt_prefixes ${_found})
endforeach()

find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
    pkg_check_modules(PC_QWT QUIET Qt6Qwt6)
endif()

find_path(Qwt_INCLUDE_DIR qwt_plot.h
    HINTS ${_qwt_prefixes} ${PC_QWT_INCLUDEDIRS}
    PATH_SUFFIXES include qwt-qt6 qt6/qwt qwt6-qt6 include/qwt-qt6 include/qt6/qwt)
find_library(Qwt_LIBRARY NAMES qwt-qt6 qwt6-qt6 qwt
    HINTS ${_qwt_prefixes} ${PC_QWT_LIBRARY_DIRS}
    PATH_SUFFIXES lib lib64)

if(Qwt_INCLUDE_DIR AND EXISTS "${Qwt_INCLUDE_DIR}/qwt_global.h")
    file(STRINGS "${Qwt_INCLUDE_DIR}/qwt_global.h" _qwt_version_line
        REGEX "^#define[ \t]+QWT_VERSION_STR[ \t]+\"[0-9.]+\"")
    string(REGEX REPLACE ".*\"([0-9.]+)\".*" "\\1" Qwt_VERSION "${_qwt_version_line}")
endif()

# Refuse a library linked against Qt 5 (Debian's libqwt-qt5 installs libqwt-qt5.so, but a plain
# libqwt.so may be either): ask the dynamic section which Qt it needs.
if(Qwt_LIBRARY AND CMAKE_HOST_UNIX)
    find_program(_qwt_readelf readelf)
    if(_qwt_readelf)
        execute_process(COMMAND "${_qwt_readelf}" -d "${Qwt_LIBRARY}"
            OUTPUT_VARIABLE _qwt_dynamic ERROR_QUIET)
        if(_qwt_dynamic MATCHES "libQt5")
            message(STATUS "Qwt: ${Qwt_LIBRARY} is built for Qt 5; ignoring it")
            set(Qwt_LIBRARY "Qwt_LIBRARY-NOTFOUND" CACHE FILEPATH "" FORCE)
        endif()
    endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Qwt
    REQUIRED_VARS Qwt_LIBRARY Qwt_INCLUDE_DIR
    VERSION_VAR Qwt_VERSION
    REASON_FAILURE_MESSAGE "run scripts/bootstrap, which installs or builds Qwt for Qt 6")

if(Qwt_FOUND AND NOT TARGET Qwt::Qwt)
    add_library(Qwt::Qwt SHARED IMPORTED)
    set_target_properties(Qwt::Qwt PROPERTIES
        IMPORTED_LOCATION "${Qwt_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${Qwt_INCLUDE_DIR}"
        INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${Qwt_INCLUDE_DIR}")
    # Qwt's headers include QtWidgets, QtSvg, QtPrintSupport, QtOpenGLWidgets ones.
    find_package(Qt6 REQUIRED COMPONENTS Widgets)
    target_link_libraries(Qwt::Qwt INTERFACE Qt6::Widgets)
endif()
mark_as_advanced(Qwt_INCLUDE_DIR Qwt_LIBRARY)
