# Writes a program's manual page, and for berthd its bash completion, from the program's own --help texts, so that
# neither can say something --help does not. Run at build time, after the program is linked:
#
#   cmake -DPROGRAM=<path to berthd or berth> -DNAME=berthd -DSUMMARY="..." -DMAN=<out.1>
#         [-DCOMPLETION=<out file>] [-DSEE_ALSO=berth] -P helppages.cmake
#
# berthd's overview (`berthd help`) lists its commands, one or two words each; every command's `--help` becomes a
# section of the page, its options the completion's words. A program without commands (berth) gets its one --help.

cmake_minimum_required(VERSION 3.22)
foreach(required PROGRAM NAME SUMMARY MAN)
    if(NOT ${required})
        message(FATAL_ERROR "helppages.cmake: ${required} is not set")
    endif()
endforeach()

# The output of `PROGRAM args...`, with the program's path in "Usage:" lines replaced by its name.
function(help_of out)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PROGRAM} ${ARGN}
        OUTPUT_VARIABLE text ERROR_VARIABLE errors RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "helppages.cmake: '${NAME} ${ARGN}' failed (${status}): ${errors}")
    endif()
    string(REPLACE "${PROGRAM}" "${NAME}" text "${text}")
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Text made safe for roff: backslashes doubled, hyphens literal, a leading dot or quote escaped.
function(roff_escape text out)
    string(REPLACE "\\" "\\\\" text "${text}")
    string(REPLACE "-" "\\-" text "${text}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

# One --help text as roff: its description as paragraphs, each option as a tagged paragraph, the rest as is.
# Also returns the options it names (for the completion).
function(help_to_roff help out_roff out_options)
    string(REPLACE ";" "\\;" help "${help}")
    string(REPLACE "\n" ";" lines "${help}")
    set(roff "")
    set(options "")
    set(section "") # Options or Arguments: their entries are tagged paragraphs
    set(paragraph ON) # whether the next plain line starts a paragraph
    foreach(line IN LISTS lines)
        if(line MATCHES "^Usage: (.*)$")
            roff_escape("${CMAKE_MATCH_1}" usage)
            string(APPEND roff ".PP\n.B ${usage}\n")
            set(paragraph ON)
        elseif(line STREQUAL "Options:" OR line STREQUAL "Arguments:")
            set(section "${line}")
        elseif(section AND line MATCHES "^  [^ ]")
            # "  --flag <VALUE>  text": the tag ends at the first run of two spaces.
            string(SUBSTRING "${line}" 2 -1 entry)
            string(FIND "${entry}" "  " gap)
            set(text "")
            if(gap GREATER 0)
                string(SUBSTRING "${entry}" ${gap} -1 text)
                string(STRIP "${text}" text)
                string(SUBSTRING "${entry}" 0 ${gap} entry)
            endif()
            if(section STREQUAL "Options:")
                string(REGEX REPLACE "<[^>]*>" "" flags "${entry}") # not the value's name (<FIRST-LAST>)
                string(REGEX MATCHALL "--?[A-Za-z][A-Za-z0-9-]*" names "${flags}")
                list(APPEND options ${names})
            endif()
            roff_escape("${entry}" entry)
            roff_escape("${text}" text)
            string(APPEND roff ".TP\n.B ${entry}\n${text}\n")
        elseif(section AND line MATCHES "^  +(.*)$")
            roff_escape("${CMAKE_MATCH_1}" text) # an entry's text going on
            string(APPEND roff "${text}\n")
        elseif(line STREQUAL "")
            set(section "")
            set(paragraph ON)
        else()
            set(section "")
            roff_escape("${line}" text)
            if(paragraph)
                string(APPEND roff ".PP\n")
                set(paragraph OFF)
            endif()
            string(APPEND roff "${text}\n.br\n")
        endif()
    endforeach()
    list(REMOVE_DUPLICATES options)
    set(${out_roff} "${roff}" PARENT_SCOPE)
    set(${out_options} "${options}" PARENT_SCOPE)
endfunction()

help_of(version --version)
string(STRIP "${version}" version)
roff_escape("${SUMMARY}" summary)
set(page ".TH ${NAME} 1 \"\" \"${version}\" \"User Commands\"\n.SH NAME\n${NAME} \\- ${summary}\n")

set(commands "")
set(environment "")
set(completion_cases "")
if(COMPLETION OR NAME STREQUAL "berthd")
    # The overview: "  name [second]   description" under headings.
    help_of(overview help)
    string(REGEX REPLACE "\n\nUsage:.*$" "" overview "${overview}") # `help` goes on with serve's options
    string(REPLACE "\n" ";" lines "${overview}")
    string(APPEND page ".SH SYNOPSIS\n.B ${NAME}\n[\\fIcommand\\fR] [\\fIoptions\\fR]\n.SH COMMANDS\n")
    foreach(line IN LISTS lines)
        if(line MATCHES "^  ([a-z-]+( [a-z-]+)?)   +(.*)$")
            list(APPEND commands "${CMAKE_MATCH_1}")
            roff_escape("${CMAKE_MATCH_3}" text)
            string(APPEND page ".TP\n.B ${CMAKE_MATCH_1}\n${text}\n")
        elseif(NOT line MATCHES "^(Usage:|Commands:|Run |$)")
            roff_escape("${line}" text)
            string(APPEND page ".PP\n${text}\n")
        endif()
    endforeach()
    foreach(command IN LISTS commands)
        string(REPLACE " " ";" words "${command}")
        help_of(help ${words} --help)
        string(REGEX MATCHALL "\\$BERTH_[A-Z_]+|BERTH_[A-Z_]+" found "${help}")
        list(APPEND environment ${found})
        help_to_roff("${help}" roff options)
        string(APPEND page ".SH \"${NAME} ${command}\"\n${roff}")
        list(JOIN options " " option_words)
        string(APPEND completion_cases "        \"${command}\") options=\"${option_words}\" ;;\n")
    endforeach()
else()
    help_of(help --help)
    string(REGEX MATCHALL "\\$BERTH_[A-Z_]+|BERTH_[A-Z_]+" environment "${help}")
    help_to_roff("${help}" roff options)
    string(APPEND page ".SH SYNOPSIS\n.B ${NAME}\n[\\fIoptions\\fR]\n.SH OPTIONS\n${roff}")
endif()

# Environment variables the help texts name, each once.
list(TRANSFORM environment REPLACE "^\\$" "")
list(REMOVE_DUPLICATES environment)
list(SORT environment)
if(environment)
    string(APPEND page ".SH ENVIRONMENT\nRead where the options above say so:\n")
    foreach(variable IN LISTS environment)
        roff_escape("${variable}" variable)
        string(APPEND page ".TP\n.B ${variable}\n")
    endforeach()
endif()
if(SEE_ALSO)
    string(APPEND page ".SH SEE ALSO\n.BR ${SEE_ALSO} (1)\n")
endif()
file(WRITE "${MAN}" "${page}")

if(COMPLETION)
    # First words of the commands, and the second words of the commands that have one.
    set(first_words "")
    set(second_cases "")
    foreach(command IN LISTS commands)
        string(REPLACE " " ";" words "${command}")
        list(GET words 0 first)
        list(APPEND first_words "${first}")
        list(LENGTH words count)
        if(count EQUAL 2)
            list(GET words 1 second)
            string(APPEND seconds_${first} " ${second}")
            list(APPEND with_second "${first}")
        endif()
    endforeach()
    list(REMOVE_DUPLICATES first_words)
    if(with_second)
        list(REMOVE_DUPLICATES with_second)
    endif()
    foreach(first IN LISTS with_second)
        string(STRIP "${seconds_${first}}" seconds)
        string(APPEND second_cases "        ${first}) words=\"${seconds}\" ;;\n")
    endforeach()
    list(JOIN first_words " " first_list)
    file(WRITE "${COMPLETION}" "# bash completion for ${NAME}, generated from its --help texts (cmake/helppages.cmake)
_${NAME}()
{
    local cur=\"\${COMP_WORDS[COMP_CWORD]}\" command=\"\${COMP_WORDS[1]}\" options=\"\" words=\"\"
    if [ \"\$COMP_CWORD\" -eq 1 ]; then
        COMPREPLY=(\$(compgen -W \"${first_list} --help --version\" -- \"\$cur\"))
        return
    fi
    case \"\$command\" in
${second_cases}    esac
    if [ -n \"\$words\" ]; then
        if [ \"\$COMP_CWORD\" -eq 2 ]; then
            COMPREPLY=(\$(compgen -W \"\$words\" -- \"\$cur\"))
            return
        fi
        command=\"\$command \${COMP_WORDS[2]}\"
    fi
    case \"\$command\" in
${completion_cases}    esac
    if [[ \"\$cur\" == -* ]]; then
        COMPREPLY=(\$(compgen -W \"\$options\" -- \"\$cur\"))
    else
        COMPREPLY=(\$(compgen -f -- \"\$cur\"))
    fi
}
complete -o filenames -F _${NAME} ${NAME}
")
endif()
