#pragma once
// The local-search algorithms' settings by name (sideways, p, cooling, ...): one table says
// which algorithm reads which, how a value is checked and how it is read and set; the command
// line, a sweep, the shell and the batch record all go through it. And what a run of one
// holds in memory, checked before runs start.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nqueens/local_search.hpp"

namespace nq::engine {

/// Local algorithms as bits: the readers of a setting.
using algorithm_set = std::uint32_t;
constexpr algorithm_set algorithm_bit(local_algorithm a) { return 1u << static_cast<unsigned>(a); }

enum class parameter_kind {
  count,        // a whole number from `least` up
  probability,  // [0, 1]
  open_unit,    // (0, 1)
  positive,     // > 0
  non_negative  // >= 0
};

/// A numeric setting: its name, who reads it, its check, and how to get and set it.
struct local_parameter {
  const char* name;
  const char* help;
  algorithm_set readers;
  parameter_kind check;
  double least;  // for counts
  double most;   // for counts
  double (*get)(const local_search_settings&, index_t n);
  void (*set)(local_search_settings&, double);
  bool at_most_n = false;  // a count of queens: at most the board's n
};

/// A setting that is a word or a switch, with the algorithms that read it.
struct word_option {
  const char* name;
  algorithm_set readers;
  const char* help;
  bool takes_value;  ///< false: a switch
};

std::span<const local_parameter> local_parameter_table();
std::span<const word_option> local_word_options();

/// The numeric setting `name`, or null.
const local_parameter* find_local_parameter(std::string_view name);

/// `text` read and checked as `p` on a board of n queens; a usage_error names --NAME.
double parse_local_value(const local_parameter& p, const std::string& text, index_t n);

/// A usage_error unless `algorithm` is one of `readers` (--OPTION does not apply to ...).
void check_reader(const std::string& option, algorithm_set readers, local_algorithm algorithm);

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

}  // namespace nq::engine
