# The package test: installs BUILD_DIR into WORK_DIR/prefix, then configures, builds and runs the
# consumer project SOURCE_DIR against that prefix alone. Any failing step fails the test.
foreach(var BUILD_DIR SOURCE_DIR EXAMPLE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_test.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "failed (${code}): ${ARGN}\n${out}")
  endif()
  message(STATUS "ok: ${ARGN}")
endfunction()

set(config_args)
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} ${config_args})
foreach(path include/nqueens/solver.hpp bin/nqueens)
  if(NOT EXISTS ${prefix}/${path})
    message(FATAL_ERROR "the install lacks ${path}")
  endif()
endforeach()
# Only the install prefix: the consumer must not find the build tree or the sources.
step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_CXX_COMPILER=${CXX}
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix}
     -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${WORK_DIR}/build/consumer)
step(${prefix}/bin/nqueens solve -n 8 -f positions)
# The C++ example a user copies (examples/cpp), built the same way: a batch and a count on
# `auto`, each record printed.
step(${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${WORK_DIR}/example -DCMAKE_CXX_COMPILER=${CXX}
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix}
     -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
step(${CMAKE_COMMAND} --build ${WORK_DIR}/example)
execute_process(COMMAND ${WORK_DIR}/example/engine_requests RESULT_VARIABLE code
                OUTPUT_VARIABLE records ERROR_VARIABLE notes)
if(NOT code EQUAL 0 OR NOT records MATCHES "\"workload\":\"batch\"[^\n]*\"runs\":1000"
   OR NOT records MATCHES "\"solutions\":724,\"unique\":92")
  message(FATAL_ERROR "examples/cpp/engine_requests (exit ${code}) printed:\n${records}${notes}")
endif()
message(STATUS "ok: examples/cpp/engine_requests\n${records}")
