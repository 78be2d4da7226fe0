# Checks that every #include in the product's sources respects the layering that engine/CMakeLists.txt describes:
# a folder includes only the folders beneath it, and nobody outside a folder includes the headers it keeps private.
# Run as a build step of berth_engine (a violation fails the build) and by tests/structure, which also proves that
# it refuses a violating tree.
#
#   cmake -DSOURCE_DIR=<top of the tree> -DPRIVATE_HEADERS="storage/sqlhelpers.h;..." -P layering.cmake
#
# Tests are exempt: a unit test may include the internals it tests.

cmake_minimum_required(VERSION 3.22)

if(NOT SOURCE_DIR)
    message(FATAL_ERROR "layering.cmake: SOURCE_DIR is not set")
endif()

# What each folder may include by "folder/header.h", besides itself.
set(allowed_core "")
set(allowed_storage "core")
set(allowed_domain "core;storage")
set(allowed_http "core")
set(allowed_qr "core")
set(allowed_lan "core;domain;storage;http")
set(allowed_web "core;domain;storage;http")
set(allowed_api "core;web;domain;storage;http")
set(allowed_site "core;web;domain;storage;http")
set(allowed_engine "core;api;site;web;domain;storage;http;lan") # Engine and HostDispatcher wire everything
set(allowed_ui "core;domain;storage;qr;lan")                         # the engine's C++ API; never HTTP, api/ or site/
set(allowed_app "core;domain;storage;qr;lan")

set(violations "")
foreach(top engine ui app)
    file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${top}/*.h" "${SOURCE_DIR}/${top}/*.cpp")
    foreach(source IN LISTS sources)
        # The layer a file belongs to: engine/<folder>/x.cpp is <folder>; engine/x.cpp, ui/... and app/... are their top.
        string(REPLACE "/" ";" parts "${source}")
        list(LENGTH parts depth)
        list(GET parts 0 layer)
        if(top STREQUAL "engine" AND depth GREATER 2)
            list(GET parts 1 layer)
        endif()
        if(NOT DEFINED allowed_${layer})
            list(APPEND violations "${source}: folder '${layer}' has no place in the layering (add it to engine/layering.cmake)")
            continue()
        endif()

        file(STRINGS "${SOURCE_DIR}/${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[a-z]+/[^\"]+\"")
        foreach(line IN LISTS includes)
            string(REGEX REPLACE "^[^\"]*\"([a-z]+)/([^\"]+)\".*$" "\\1/\\2" header "${line}")
            string(REGEX REPLACE "/.*$" "" folder "${header}")
            if(folder STREQUAL layer)
                continue()
            endif()
            if(NOT folder IN_LIST allowed_${layer})
                list(APPEND violations "${source}: '${layer}' may not include ${header}")
            elseif(header IN_LIST PRIVATE_HEADERS)
                list(APPEND violations "${source}: ${header} is private to ${folder}/")
            endif()
        endforeach()
    endforeach()
endforeach()

if(violations)
    list(JOIN violations "\n  " text)
    message(FATAL_ERROR "Layering violations:\n  ${text}")
endif()
