# The conventions a command-line user expects (issue 33). Installs BUILD_DIR into
# WORK_DIR/prefix, then with MODE=install checks that the man page and the bash and zsh
# completions are there, and with MODE=complete asks the installed bash completion, in bash as a
# shell would, what it offers: every command of nqueens --help, options, values and file names.
cmake_minimum_required(VERSION 3.25)
foreach(var BUILD_DIR WORK_DIR MODE DATADIR MANDIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_test.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(config_args)
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} ${config_args}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${code}):\n${out}")
endif()
set(nqueens ${prefix}/bin/nqueens)
set(bash_completion ${prefix}/${DATADIR}/bash-completion/completions/nqueens)
set(zsh_completion ${prefix}/${DATADIR}/zsh/site-functions/_nqueens)
set(man_page ${prefix}/${MANDIR}/man1/nqueens.1)

# The commands under "Commands:" in nqueens --help, up to the blank line after them.
execute_process(COMMAND ${nqueens} --help OUTPUT_VARIABLE help RESULT_VARIABLE code)
string(REGEX MATCH "\nCommands:\n(  [^\n]+\n)+" table "${help}")
string(REGEX MATCHALL "\n  [a-z]+ " commands "${table}")
list(TRANSFORM commands STRIP)
if(NOT code EQUAL 0 OR NOT commands)
  message(FATAL_ERROR "no commands in ${nqueens} --help (exit ${code}):\n${help}")
endif()

if(MODE STREQUAL "install")
  foreach(file ${nqueens} ${bash_completion} ${zsh_completion} ${man_page})
    if(NOT EXISTS ${file})
      message(FATAL_ERROR "cmake --install did not install ${file}")
    endif()
  endforeach()
  file(READ ${bash_completion} text)
  if(NOT text MATCHES "\ncomplete -F [_a-z]+ nqueens\n")
    message(FATAL_ERROR "${bash_completion} registers no completion for nqueens")
  endif()
  file(READ ${zsh_completion} text)
  if(NOT text MATCHES "^#compdef nqueens\n" OR NOT text MATCHES "\ncomplete -F [_a-z]+ nqueens\n")
    message(FATAL_ERROR "${zsh_completion} is not a zsh completion carrying the bash one")
  endif()
  # The page has every command's section, and groff, where present, reads it without a warning.
  file(READ ${man_page} page)
  if(NOT page MATCHES "^\\.TH NQUEENS 1 ")
    message(FATAL_ERROR "${man_page} does not start with .TH NQUEENS 1")
  endif()
  foreach(command IN LISTS commands)
    if(NOT page MATCHES "\n\\.SS \"nqueens ${command}\"\n")
      message(FATAL_ERROR "${man_page} has no section for nqueens ${command}")
    endif()
  endforeach()
  find_program(groff groff)
  if(groff)
    execute_process(COMMAND ${groff} -man -Tutf8 -ww -z ${man_page} RESULT_VARIABLE code
                    ERROR_VARIABLE warnings)
    if(NOT code EQUAL 0 OR NOT warnings STREQUAL "")
      message(FATAL_ERROR "groff -man -ww on ${man_page} (exit ${code}):\n${warnings}")
    endif()
  endif()
  message(STATUS "installed: ${man_page}, ${bash_completion}, ${zsh_completion}")
  return()
endif()

# MODE=complete. What the completion offers for LINE, as bash gives it the words (split at
# spaces; a LINE ending in a space completes a new empty word; "--format=" is "--format" "="),
# through the function `complete -p nqueens` names, in any order (file names come in the
# directory's). The installed nqueens comes first on PATH.
set(ENV{PATH} "${prefix}/bin:$ENV{PATH}")
set(scratch ${WORK_DIR}/files)
file(MAKE_DIRECTORY ${scratch})
file(TOUCH ${scratch}/board.txt ${scratch}/boards.jsonl ${scratch}/other.csv)
set(failures "")
function(expect line)
  set(expected ${ARGN})
  execute_process(
    COMMAND bash --norc --noprofile -c [=[
      source "$1" || exit 1
      function=$(complete -p nqueens | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
      [[ -n $function ]] || { echo "no function for nqueens" >&2; exit 1; }
      read -ra COMP_WORDS <<<"$2"
      [[ $2 == *" " ]] && COMP_WORDS+=("")
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$2 COMP_POINT=${#2}
      "$function" nqueens "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
      printf '%s\n' "${COMPREPLY[@]}"
    ]=] completion_test ${bash_completion} "${line}"
    WORKING_DIRECTORY ${scratch} RESULT_VARIABLE code OUTPUT_VARIABLE offered ERROR_VARIABLE err)
  string(REGEX REPLACE "\n$" "" offered "${offered}")
  string(REPLACE "\n" ";" offered "${offered}")
  list(REMOVE_ITEM offered "")
  list(SORT offered)
  list(SORT expected)
  if(NOT code EQUAL 0 OR NOT "${offered}" STREQUAL "${expected}")
    set(failures "${failures}\n  '${line}': offered [${offered}], expected [${expected}] ${err}"
        PARENT_SCOPE)
  else()
    message(STATUS "ok: '${line}' -> ${offered}")
  endif()
endfunction()

expect("nqueens " ${commands})
expect("nqueens s" solve solutions shell)
expect("nqueens bench --qu" --quick --quiet)
expect("nqueens bench --quic" --quick)
# --algo: the names nqueens algorithms lists, first on each of its lines.
execute_process(COMMAND ${nqueens} algorithms OUTPUT_VARIABLE listing)
string(REGEX MATCHALL "(^|\n)[a-z][a-z0-9-]*" algorithms "${listing}")
list(TRANSFORM algorithms STRIP)
if(NOT algorithms)
  message(FATAL_ERROR "no algorithms in ${nqueens} algorithms:\n${listing}")
endif()
expect("nqueens solve --algo " ${algorithms})
expect("nqueens batch -a hc-r" hc-restart hc-random-p)
expect("nqueens solve -f " summary grid matrix positions json npy raw)
expect("nqueens batch --format = " text json)
expect("nqueens count --device " cpu gpu all auto)
expect("nqueens bench --device c" cpu)
expect("nqueens solve -n ")
expect("nqueens verify b" board.txt boards.jsonl)
expect("nqueens count --checkpoint o" other.csv)
expect("nqueens solve --quiet -o b" board.txt boards.jsonl)
if(failures)
  message(FATAL_ERROR "the installed completion (${bash_completion}) offered:${failures}")
endif()
