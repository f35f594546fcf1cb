# The rule of core/sqlite/sql.hpp — SQL is text written into the program, values go in bound — checked
# two ways (a CTest test, label unit; issue 17):
# 1. The compiler: sql_is_constant.cpp compiles with CASE=0 (literals, compile-time joins) and fails
#    to compile with each of CASE=1..5 (text built or read at run time).
# 2. The sources: nothing outside core/sqlite calls SQLite's C API or Qt SQL, so every statement goes
#    through sqlite::Connection (tests may build or inspect files with the C API directly).
#   cmake -DCXX=<compiler> -DSOURCE_DIR=<checkout> [-DSQLITE_INCLUDE=<dir>] -P sql_is_constant.cmake
foreach(var CXX SOURCE_DIR)
    if(NOT ${var})
        message(FATAL_ERROR "sql_is_constant: -D${var}=... is required")
    endif()
endforeach()
set(flags -std=c++20 -fsyntax-only "-I${SOURCE_DIR}")
if(SQLITE_INCLUDE)
    list(APPEND flags "-I${SQLITE_INCLUDE}")
endif()

foreach(case RANGE 0 5)
    execute_process(COMMAND "${CXX}" ${flags} -DCASE=${case} "${SOURCE_DIR}/tests/checks/sql_is_constant.cpp"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(case EQUAL 0 AND NOT rc EQUAL 0)
        message(FATAL_ERROR "sql_is_constant: SQL written as literals does not compile:\n${err}")
    elseif(case GREATER 0 AND rc EQUAL 0)
        message(FATAL_ERROR "sql_is_constant: case ${case} of sql_is_constant.cpp compiles: run-time text can become SQL")
    elseif(case GREATER 0 AND NOT err MATCHES "Sql")
        message(FATAL_ERROR "sql_is_constant: case ${case} failed for another reason than the Sql type:\n${err}")
    endif()
    message(STATUS "case ${case}: ${rc}")
endforeach()

file(GLOB_RECURSE sources "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/core/*.hpp" "${SOURCE_DIR}/rpc/*.cpp"
    "${SOURCE_DIR}/rpc/*.hpp" "${SOURCE_DIR}/ui/*.cpp" "${SOURCE_DIR}/ui/*.hpp" "${SOURCE_DIR}/app/*.cpp"
    "${SOURCE_DIR}/app/*.hpp" "${SOURCE_DIR}/sim/*.cpp" "${SOURCE_DIR}/sim/*.hpp" "${SOURCE_DIR}/tools/*.cpp"
    "${SOURCE_DIR}/tools/*.hpp")
set(offenders "")
foreach(source ${sources})
    if(source MATCHES "/core/sqlite/")
        continue()
    endif()
    file(STRINGS "${source}" hits REGEX "sqlite3_(exec|prepare|get_table|mprintf)|QSqlQuery|QSqlDatabase")
    if(hits)
        list(APPEND offenders "${source}")
    endif()
endforeach()
if(offenders)
    list(JOIN offenders "\n  " text)
    message(FATAL_ERROR "sql_is_constant: SQL outside core/sqlite's Connection in:\n  ${text}")
endif()
list(LENGTH sources count)
message(STATUS "sql_is_constant: ${count} source files run SQL only through sqlite::Connection")
