# Checks that every #include in the product's sources respects the architecture docs/architecture.md describes:
#  - every include of a project header names its folder: "domain/deploy/deployrequest.h" for the engine's headers
#    (named from engine/), "ui/publishing/publishdialog.h" and "app/berthd/client/apiclient.h" for the front ends'
#    (named from the top of the tree); a bare "deployrequest.h" or a relative "../x.h" is refused;
#  - a layer includes only the layers beneath it, and a subject folder of a layer only the subjects it declares;
#  - nobody outside a folder includes the headers it keeps private;
#  - no source lies loose in engine/, engine/domain/ or ui/, where it would belong to no subject.
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

# What each layer may include besides itself: the engine's folders, then the front ends.
set(allowed_core "")
set(allowed_storage "core")
set(allowed_domain "core;storage")
set(allowed_http "core")
set(allowed_qr "core")
set(allowed_lan "core;domain;storage;http")
set(allowed_web "core;domain;storage;http")
set(allowed_api "core;web;domain;storage;http")
set(allowed_site "core;web;domain;storage;http")
set(allowed_instance "core;api;site;web;domain;storage;http;lan") # Engine and HostDispatcher wire everything
set(allowed_ui "core;domain;storage;qr;lan;instance")             # the engine's C++ API; never HTTP, api/ or site/
set(allowed_app "core;domain;storage;qr;lan;instance;ui")

# What each subject folder may include of its siblings. A folder with subjects must declare every one of them.
set(subjects_of_engine/domain "common;plans;siterules;ratelimit;deploy;accounts;visitors;events;analytics;sharing;acme")
set(uses_engine/domain/common "")
set(uses_engine/domain/plans "common")
set(uses_engine/domain/siterules "common")
set(uses_engine/domain/ratelimit "common")
set(uses_engine/domain/deploy "common;plans;siterules")
set(uses_engine/domain/accounts "common;plans;deploy")
set(uses_engine/domain/visitors "common;plans;deploy")
set(uses_engine/domain/events "common;siterules")
set(uses_engine/domain/analytics "common;deploy")
set(uses_engine/domain/acme "common")
set(uses_engine/domain/sharing "common;deploy;siterules")
set(subjects_of_app/berthd "client;server")
set(uses_app/berthd/client "")
set(uses_app/berthd/server "")

# Folders where every source must lie in a subject folder.
set(no_loose_sources "engine;engine/domain;ui")

set(violations "")

# The folder of a file below `parent` that has subjects: "deploy" for engine/domain/deploy/x.cpp; empty when the file
# lies in `parent` itself or `parent` has no subjects.
function(subject_of file parent out)
    set(subject "")
    string(LENGTH "${parent}/" length)
    string(SUBSTRING "${file}" 0 ${length} head)
    if(head STREQUAL "${parent}/")
        string(SUBSTRING "${file}" ${length} -1 rest)
        if(rest MATCHES "^([^/]+)/")
            set(subject "${CMAKE_MATCH_1}")
        endif()
    endif()
    set(${out} "${subject}" PARENT_SCOPE)
endfunction()

# The layer of a project file given from the top: engine/<folder>/... is <folder>; ui/... and app/... are their top.
function(layer_of file out)
    string(REPLACE "/" ";" parts "${file}")
    list(GET parts 0 layer)
    if(layer STREQUAL "engine")
        list(GET parts 1 layer)
    endif()
    set(${out} "${layer}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}"
     "${SOURCE_DIR}/engine/*.h" "${SOURCE_DIR}/engine/*.cpp"
     "${SOURCE_DIR}/ui/*.h" "${SOURCE_DIR}/ui/*.cpp"
     "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp")
foreach(source IN LISTS sources)
    get_filename_component(folder "${source}" DIRECTORY)
    if(folder IN_LIST no_loose_sources)
        list(APPEND violations "${source}: lies loose in ${folder}/ (put it in the folder of its subject)")
        continue()
    endif()
    layer_of("${source}" layer)
    if(NOT DEFINED allowed_${layer})
        list(APPEND violations "${source}: folder '${layer}' has no place in the layering (add it to cmake/layering.cmake)")
        continue()
    endif()

    foreach(parent engine/domain app/berthd)
        subject_of("${source}" "${parent}" subject)
        if(subject AND NOT subject IN_LIST subjects_of_${parent})
            list(APPEND violations "${source}: '${subject}' is no declared subject of ${parent}/ (add it to cmake/layering.cmake)")
        endif()
    endforeach()

    file(STRINGS "${SOURCE_DIR}/${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS includes)
        string(REGEX MATCH "[<\"]([^>\"]+)[>\"]" quoted "${line}")
        set(header "${CMAKE_MATCH_1}")
        set(is_quoted OFF)
        if(quoted MATCHES "^\"")
            set(is_quoted ON)
        endif()

        # Where the header is, from the top of the tree.
        set(target "")
        if(header MATCHES "(^|/)\\.\\.?/")
            list(APPEND violations "${source}: \"${header}\" is relative (name the header's folder from the top)")
            continue()
        elseif(header MATCHES "^engine/")
            list(APPEND violations "${source}: \"${header}\" names an engine header from the top (drop \"engine/\")")
            continue()
        elseif(header MATCHES "^(ui|app)/" AND EXISTS "${SOURCE_DIR}/${header}")
            set(target "${header}")
        elseif(EXISTS "${SOURCE_DIR}/engine/${header}" AND NOT IS_DIRECTORY "${SOURCE_DIR}/engine/${header}")
            set(target "engine/${header}")
        elseif(is_quoted AND NOT header MATCHES "/")
            list(APPEND violations "${source}: \"${header}\" names no folder (write \"folder/${header}\")")
            continue()
        elseif(is_quoted)
            list(APPEND violations "${source}: \"${header}\" is no header of the tree")
            continue()
        else()
            continue() # a system or library header
        endif()

        layer_of("${target}" target_layer)
        get_filename_component(target_folder "${target}" DIRECTORY)
        if(NOT target_layer STREQUAL layer AND NOT target_layer IN_LIST allowed_${layer})
            list(APPEND violations "${source}: '${layer}' may not include ${header}")
        elseif(target IN_LIST PRIVATE_HEADERS OR header IN_LIST PRIVATE_HEADERS)
            if(NOT folder STREQUAL target_folder)
                string(REGEX REPLACE "^engine/" "" owner "${target_folder}")
                list(APPEND violations "${source}: ${header} is private to ${owner}/")
            endif()
        endif()

        # Between the subjects of one folder, only the declared uses.
        foreach(parent engine/domain app/berthd)
            subject_of("${source}" "${parent}" from)
            subject_of("${target}" "${parent}" to)
            if(from AND to AND NOT from STREQUAL to AND NOT to IN_LIST uses_${parent}/${from})
                list(APPEND violations "${source}: subject '${from}' may not include ${header} (see cmake/layering.cmake for what ${parent}/${from} uses)")
            endif()
        endforeach()
    endforeach()
endforeach()

if(violations)
    list(REMOVE_DUPLICATES violations)
    list(JOIN violations "\n  " text)
    message(FATAL_ERROR "Layering violations:\n  ${text}")
endif()
