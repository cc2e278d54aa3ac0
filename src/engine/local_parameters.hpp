#pragma once
// The local-search algorithms' settings by name (sideways, p, cooling, ...), as the engine reads
// and checks them (the table itself is public: nqueens/settings.hpp), and what a run of one
// holds in memory, checked before runs start (not public).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nqueens/local_search.hpp"
#include "nqueens/settings.hpp"

namespace nq::engine {

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

/// The parameters `algorithm` reads, with their current values, for reports: the numbers, then
/// the words and switches, each by its option's name and as the option takes it.
std::vector<std::pair<std::string, setting_value>> local_parameters(
    const local_search_settings& settings, index_t n);

/// A record's "parameters": each value a JSON number, true or false, or string.
nlohmann::ordered_json parameters_record(
    const std::vector<std::pair<std::string, setting_value>>& parameters);

/// Bytes one run of a local search holds (boards, lines, move orders, populations).
std::uint64_t local_memory_bytes(const local_search_settings& settings, index_t n);

/// Refuses (resource_error, exit 3) when `copies` concurrent runs would not fit in memory.
void check_local_memory(const local_search_settings& settings, index_t n, unsigned copies);

/// Checks the board size against the algorithm's limit, with a message that says why.
void check_local_size(local_algorithm algorithm, index_t n);

}  // namespace nq::engine
