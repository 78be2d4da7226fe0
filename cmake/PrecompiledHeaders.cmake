# Precompiled headers (GCC and clang; BERTH_PCH=OFF turns them off): cmake/berth_pch.h compiled once per library,
# and once per group of tests in one folder with the same libraries, definitions and options. GCC uses a precompiled
# header only when every definition matches the source's, and clang refuses one built with other definitions or
# language options (an error, not a fallback), which is why tests are grouped that way rather than sharing one, and
# each library (the fuzz build compiles the engine's with flags of their own) has its own. This roughly halves the CPU
# time of a build. The header is included before every source, so a source that forgets an include compiles anyway:
# a build with -DBERTH_PCH=OFF finds it.
include_guard(GLOBAL)

if(CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
    option(BERTH_PCH "Precompile the common Qt and standard headers" ON)
else()
    set(BERTH_PCH OFF)
endif()
set(BERTH_PCH_HEADER ${CMAKE_CURRENT_LIST_DIR}/berth_pch.h)

# clang writes the header's modification time into a precompiled header unless told not to, and ccache caches no
# source that uses such a header; told so, ccache (with the sloppiness CONTRIBUTING.md names) caches them as with GCC.
function(berth_pch_options target)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
    endif()
endfunction()

# A library or program with a precompiled header of its own.
function(berth_precompile_headers)
    if(NOT BERTH_PCH)
        return()
    endif()
    foreach(target IN LISTS ARGN)
        target_precompile_headers(${target} PRIVATE ${BERTH_PCH_HEADER})
        berth_pch_options(${target})
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
        get_target_property(options ${test} COMPILE_OPTIONS)
        string(MD5 key "${CMAKE_CURRENT_SOURCE_DIR}|${libraries}|${definitions}|${includes}|${options}")
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
            if(options)
                target_compile_options(${holder} PRIVATE ${options})
            endif()
            berth_pch_options(${holder})
            set_target_properties(${holder} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
            target_precompile_headers(${holder} PRIVATE ${BERTH_PCH_HEADER})
        endif()
        target_precompile_headers(${test} REUSE_FROM ${holder})
        berth_pch_options(${test})
    endforeach()
endfunction()
