# berth_help_pages(<target> SUMMARY <text> [SEE_ALSO <page>] [COMPLETION])
# After <target> is linked, writes its manual page <target>.1 (and with COMPLETION its bash completion) from its
# own --help texts (cmake/helppages.cmake), and installs them where man and bash-completion look.
function(berth_help_pages target)
    cmake_parse_arguments(ARG "COMPLETION" "SUMMARY;SEE_ALSO" "" ${ARGN})
    set(man ${CMAKE_CURRENT_BINARY_DIR}/${target}.1)
    set(outputs ${man})
    set(arguments -DPROGRAM=$<TARGET_FILE:${target}> -DNAME=${target} "-DSUMMARY=${ARG_SUMMARY}" -DMAN=${man})
    if(ARG_SEE_ALSO)
        list(APPEND arguments -DSEE_ALSO=${ARG_SEE_ALSO})
    endif()
    if(ARG_COMPLETION)
        set(completion ${CMAKE_CURRENT_BINARY_DIR}/${target}.bash-completion)
        list(APPEND outputs ${completion})
        list(APPEND arguments -DCOMPLETION=${completion})
    endif()
    add_custom_command(OUTPUT ${outputs}
        COMMAND ${CMAKE_COMMAND} ${arguments} -P ${PROJECT_SOURCE_DIR}/cmake/helppages.cmake
        DEPENDS ${target} ${PROJECT_SOURCE_DIR}/cmake/helppages.cmake
        COMMENT "Writing ${target}'s manual page from its --help"
        VERBATIM)
    add_custom_target(${target}_help_pages ALL DEPENDS ${outputs})
    install(FILES ${man} DESTINATION share/man/man1)
    if(ARG_COMPLETION)
        install(FILES ${completion} DESTINATION share/bash-completion/completions RENAME ${target})
    endif()
endfunction()
