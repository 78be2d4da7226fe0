# Fails when a shipped translation misses a string of the current sources: lupdate runs over the
# sources into a copy of the .ts file, and any entry left "unfinished" there is untranslated.
#   cmake -DLUPDATE=... -DTS=berth_de.ts -DWORK=copy.ts -DSOURCE_DIR=<top> -P checktranslations.cmake
file(GLOB_RECURSE sources ${SOURCE_DIR}/ui/*.h ${SOURCE_DIR}/ui/*.cpp)
list(APPEND sources ${SOURCE_DIR}/app/berth/main.cpp)
configure_file(${TS} ${WORK} COPYONLY)
# Includes are named from the top (ui/, app/) and from engine/: lupdate needs both to find the classes.
execute_process(COMMAND ${LUPDATE} -silent -no-obsolete -locations none -I ${SOURCE_DIR} -I ${SOURCE_DIR}/engine
                        ${sources} -ts ${WORK}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "lupdate failed (${status})")
endif()
file(STRINGS ${WORK} unfinished REGEX "type=\"unfinished\"")
list(LENGTH unfinished count)
if(count GREATER 0)
    message(FATAL_ERROR "${TS}: ${count} untranslated strings. Run `cmake --build <dir> --target update_translations` "
                        "and translate the entries marked unfinished.")
endif()
message(STATUS "${TS}: complete")
