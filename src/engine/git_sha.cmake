# Writes OUT, a header defining NQ_GIT_SHA: the checkout's commit (NQ_GIT_SHA in the
# environment wins, for a copy without .git), "-dirty" when tracked files differ from it, or
# "unknown". Run at every build; file(CONFIGURE) rewrites OUT only when the text changes, so only
# the file that includes it is compiled again.
if(DEFINED ENV{NQ_GIT_SHA} AND NOT "$ENV{NQ_GIT_SHA}" STREQUAL "")
  set(sha "$ENV{NQ_GIT_SHA}")
else()
  execute_process(COMMAND git -C "${SOURCE}" rev-parse --short=12 HEAD RESULT_VARIABLE code
                  OUTPUT_VARIABLE sha ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT code EQUAL 0 OR sha STREQUAL "")
    set(sha "unknown")
  else()
    execute_process(COMMAND git -C "${SOURCE}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT changes STREQUAL "")
      string(APPEND sha "-dirty")
    endif()
  endif()
endif()
file(CONFIGURE OUTPUT "${OUT}" CONTENT "#define NQ_GIT_SHA \"${sha}\"\n")
