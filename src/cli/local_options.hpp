#pragma once
// The options of the local-search algorithms (--sideways, --p, --cooling, ...), shared by
// solve, batch and the shell: the engine's table of settings (nqueens/settings.hpp)
// as command-line options.

#include <cxxopts.hpp>
#include <initializer_list>
#include <string>

#include "nqueens/settings.hpp"
#include "nqueens/local_search.hpp"

namespace nq::cli {

/// Adds every algorithm option to a command's options, in an "algorithm options" group.
void add_local_options(cxxopts::Options& options);

/// Help text in which the keys --p and --q are registered under (jump-p, jump-q: cxxopts takes
/// a one-letter name for a short option) read as --p and --q again.
std::string local_help(std::string text);

/// parse_command_line for commands with algorithm options.
cxxopts::ParseResult parse_local_command_line(cxxopts::Options& options, int argc, char** argv);

/// The settings the command line gives by name: every algorithm option given, and of `own`
/// (the command's options, e.g. "queens", "max-steps") those given.
engine::named_settings named_from(const cxxopts::ParseResult& args,
                                  std::initializer_list<const char*> own = {});

}  // namespace nq::cli
