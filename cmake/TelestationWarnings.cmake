# telestation_set_warnings(<target>): the warning flags for project code. Third-party headers
# (Qt, Qwt, spdlog) come in as system includes and are not affected.
function(telestation_set_warnings target)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
        return()
    endif()
    target_compile_options(${target} PRIVATE
        $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
            -Wold-style-cast -Wcast-align -Woverloaded-virtual
            -Wformat=2 -Wimplicit-fallthrough>
        $<$<AND:$<CXX_COMPILER_ID:GNU,Clang>,$<BOOL:${TELESTATION_WERROR}>>:-Werror>
        # GCC 12 at -O2 reports impossible overlaps inside std::string's inlined copies
        # (GCC bug 105329, fixed in 13): a false positive that -Werror would make fatal.
        $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>)
endfunction()
