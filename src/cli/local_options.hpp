#pragma once
// The options of the local-search algorithms (--sideways, --p, --cooling, ...), shared by
// solve, batch and the shell: one table says which algorithm reads which option, how it is
// validated, and how a sweep or the shell sets it by name.

#include <cxxopts.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

/// Whether `name` is an algorithm option that is a switch (--reject-equal, --stochastic, ...).
bool is_local_switch(std::string_view name);

/// Help text with those keys shown as "--p" and "--q" again.
std::string local_help(std::string text);

/// parse_command_line for commands with algorithm options.
cxxopts::ParseResult parse_local_command_line(cxxopts::Options& options, int argc, char** argv);

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

/// Sets one numeric parameter by its option name ("p", "q", "sideways", ...), validated as
/// the option is on a board of n queens; used by --sweep.
void set_local_parameter(local_search_settings& settings, index_t n, const std::string& name,
                         const std::string& value);

/// Refuses a floor above its start: --t-min above --t0 (sa), --p-min above --p (hc-anneal-p).
/// Asked once the settings are whole: after parse_local_options, or at every point of a sweep.
void check_local_floors(const local_search_settings& settings, index_t n);

/// The parameters `algorithm` reads, with their current values, for reports.
std::vector<std::pair<std::string, double>> local_parameters(const local_search_settings& settings,
                                                             index_t n);

/// Bytes one run of a local search holds (boards, lines, move orders, populations).
std::uint64_t local_memory_bytes(const local_search_settings& settings, index_t n);

/// Refuses (resource_error, exit 3) when `copies` concurrent runs would not fit in memory.
void check_local_memory(const local_search_settings& settings, index_t n, unsigned copies);

/// Checks the board size against the algorithm's limit, with a message that says why.
void check_local_size(local_algorithm algorithm, index_t n);

}  // namespace nq::cli
