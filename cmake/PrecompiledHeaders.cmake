# Precompiled headers (GCC builds only; BERTH_PCH=OFF turns them off): cmake/berth_pch.h compiled once per library,
# and once per group of tests in one folder with the same libraries and definitions. GCC uses a precompiled header
# only when every definition matches the source's, which is why tests are grouped that way rather than sharing one.
# This roughly halves the CPU time of a build; clang (the ASan and fuzz build) compiles without them, so a source that
# forgets an include still fails there.
include_guard(GLOBAL)

if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    option(BERTH_PCH "Precompile the common Qt and standard headers" ON)
else()
    set(BERTH_PCH OFF)
endif()
set(BERTH_PCH_HEADER ${CMAKE_CURRENT_LIST_DIR}/berth_pch.h)

# A library or program with a precompiled header of its own.
function(berth_precompile_headers)
    if(NOT BERTH_PCH)
        return()
    endif()
    foreach(target IN LISTS ARGN)
        target_precompile_headers(${target} PRIVATE ${BERTH_PCH_HEADER})
    endforeach()
endfunction()

# Registers a test for berth_share_test_pch, which runs at the end of the test's folder, when every definition and
# library the folder gives it is known.
function(berth_test_pch target)
    if(NOT BERTH_PCH)
        return()
    endif()
    get_property(tests DIRECTORY PROPERTY BERTH_PCH_TESTS)
    if(NOT tests)
        cmake_language(DEFER CALL berth_share_test_pch)
    endif()
    set_property(DIRECTORY APPEND PROPERTY BERTH_PCH_TESTS ${target})
endfunction()

function(berth_share_test_pch)
    get_property(tests DIRECTORY PROPERTY BERTH_PCH_TESTS)
    foreach(test IN LISTS tests)
        get_target_property(libraries ${test} LINK_LIBRARIES)
        get_target_property(definitions ${test} COMPILE_DEFINITIONS)
        get_target_property(includes ${test} INCLUDE_DIRECTORIES)
        string(MD5 key "${CMAKE_CURRENT_SOURCE_DIR}|${libraries}|${definitions}|${includes}")
        string(SUBSTRING ${key} 0 12 key)
        set(holder berth_test_pch_${key})
        if(NOT TARGET ${holder})
            add_library(${holder} OBJECT ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/berth_pch.cpp)
            target_link_libraries(${holder} PRIVATE ${libraries})
            if(definitions)
                target_compile_definitions(${holder} PRIVATE ${definitions})
            endif()
            if(includes)
                target_include_directories(${holder} PRIVATE ${includes})
            endif()
            set_target_properties(${holder} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
            target_precompile_headers(${holder} PRIVATE ${BERTH_PCH_HEADER})
        endif()
        target_precompile_headers(${test} REUSE_FROM ${holder})
    endforeach()
endfunction()
