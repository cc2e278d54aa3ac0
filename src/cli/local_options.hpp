#pragma once
// The options of the local-search algorithms (--sideways, --p, --cooling, ...), shared by
// solve, batch and the shell: the engine's table of settings (nqueens/settings.hpp)
// as command-line options.

#include <cxxopts.hpp>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nqueens/settings.hpp"
#include "nqueens/local_search.hpp"

namespace nq::cli {

/// Adds every algorithm option to a command's options, in an "algorithm options" group.
void add_local_options(cxxopts::Options& options);

/// The key an algorithm option is registered under: its name, but "jump-p" and "jump-q" for
/// "p" and "q", which cxxopts would take as short options.
std::string option_key(const char* name);

/// argv with "--p" and "--q" (which cxxopts cannot parse) renamed to the keys they are
/// registered under. Commands with algorithm options parse this instead of argv.
std::vector<std::string> spell_out_options(int argc, char** argv);

/// Help text with those keys shown as "--p" and "--q" again.
std::string local_help(std::string text);

/// parse_command_line for commands with algorithm options.
cxxopts::ParseResult parse_local_command_line(cxxopts::Options& options, int argc, char** argv);

/// The settings the command line gives by name: every algorithm option given, and of `own`
/// (the command's options, e.g. "queens", "max-steps") those given.
engine::named_settings named_from(const cxxopts::ParseResult& args,
                                  std::initializer_list<const char*> own = {});

/// The local-search algorithm `--algo name` and `--variant` select, if it is one.
std::optional<local_algorithm> select_local_algorithm(const std::string& name,
                                                      const cxxopts::ParseResult& args);

/// Reads the algorithm options for `algorithm`. An option it does not read, or a value out of
/// range, is a usage_error naming the option. `n` sizes the GA's default population.
local_search_settings parse_local_options(const cxxopts::ParseResult& args,
                                          local_algorithm algorithm, index_t n);

/// --generations (beam, ga) as the step limit; an error next to --max-steps.
void read_generations(const cxxopts::ParseResult& args, search_limits& limits);

/// Rejects algorithm options given to an algorithm outside the local-search family.
void reject_local_options(const cxxopts::ParseResult& args, const std::string& algorithm);

}  // namespace nq::cli
