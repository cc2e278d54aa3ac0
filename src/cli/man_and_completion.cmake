# nqueens(1) and the shell completions, which cmake --install puts where man and the shells look.
# The man page is made from the --help texts after each link of nqueens (src/cli/man), so a
# build of the nqueens target alone has it and it never lags the binary; the completions read the
# help texts when they run (src/cli/completion). Not made when cross-compiling: nqueens cannot
# run here then.
if(NOT CMAKE_CROSSCOMPILING)
  set(nq_man_page ${PROJECT_BINARY_DIR}/man/nqueens.1)
  set(nq_make_man ${PROJECT_SOURCE_DIR}/src/cli/man/make_man.cmake)
  add_custom_command(TARGET nqueens POST_BUILD
                     COMMAND ${CMAKE_COMMAND} -DNQUEENS=$<TARGET_FILE:nqueens>
                             -DOUTPUT=${nq_man_page} -DVERSION=${PROJECT_VERSION} -P ${nq_make_man}
                     BYPRODUCTS ${nq_man_page}
                     COMMENT "Writing the man page nqueens.1 from nqueens --help" VERBATIM)
  # A change to the generator relinks nqueens, which makes the page again.
  set_property(TARGET nqueens APPEND PROPERTY LINK_DEPENDS ${nq_make_man})
  install(FILES ${nq_man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

set(nq_completion ${PROJECT_SOURCE_DIR}/src/cli/completion)
install(FILES ${nq_completion}/nqueens.bash RENAME nqueens
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
# zsh's _nqueens carries the bash completion, copied in here.
file(READ ${nq_completion}/nqueens.bash NQ_BASH_COMPLETION)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${nq_completion}/nqueens.bash)
configure_file(${nq_completion}/_nqueens.in ${PROJECT_BINARY_DIR}/completion/_nqueens @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/completion/_nqueens
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
