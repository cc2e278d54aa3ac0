#pragma once
/// @file
/// @brief Settings by name, as the command line and the Python module give them ("p" = "0.3",
/// "stochastic" = "true"), read into the engine's requests by one set of rules and messages:
/// the command line's options and Python's keywords are two spellings of the same list. The
/// local searches' table of settings (which algorithm reads which, its help) is here too, for a
/// face to offer each one as an option or a keyword.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nqueens/bench.hpp"
#include "nqueens/engine.hpp"

namespace nq::engine {


/// Given settings, in the order given: each name at most once (option names: "max-steps", "p").
/// A switch given on is "true"; one given off is left out.
class named_settings {
 public:
  void set(std::string name, std::string value) {
    values_.emplace_back(std::move(name), std::move(value));
  }
  bool has(std::string_view name) const { return find(name) != nullptr; }
  /// The value of a setting that has(name).
  const std::string& at(std::string_view name) const { return *find(name); }
  /// The value, or `otherwise` when not given.
  std::string value_or(std::string_view name, std::string otherwise) const {
    const std::string* value = find(name);
    return value ? *value : otherwise;
  }

 private:
  const std::string* find(std::string_view name) const {
    for (const auto& [key, value] : values_)
      if (key == name) return &value;
    return nullptr;
  }
  std::vector<std::pair<std::string, std::string>> values_;
};

/// The local search `name` selects, with --variant: nothing when `name` is no local search.
std::optional<local_algorithm> select_local_algorithm(const std::string& name,
                                                      const named_settings& given);

/// The settings of `algorithm` on n queens from `given` (the numbers and words of the table):
/// a setting the algorithm does not read, or a value out of range, is a usage_error naming it.
local_search_settings local_settings_from(local_algorithm algorithm, index_t n,
                                          const named_settings& given);

/// --generations (beam, ga) as the step limit, an error next to --max-steps; --preset report
/// without a limit: 10,000 generations.
void read_generations(const named_settings& given, search_limits& limits);

/// A solve from its settings (queens, algo, seed, max-steps, time-limit, memory-limit,
/// randomize, max-memory, threads, chains, chain, device and the algorithm's): every check and
/// message of nqueens solve but its output's. `trace`: a trace is asked for (--trace, Python's
/// trace=True), which only the chain searches write. The algorithm is resolved (no algo: lattice
/// from 2^20 queens, min-conflicts below) and `local` holds a local search's settings.
solve_request solve_request_from(const named_settings& given, bool trace);

/// Refuses each algorithm setting given to `algorithm`, which is no local search.
void reject_local_settings(const named_settings& given, const std::string& algorithm);

/// A batch from its settings (queens, algo, runs, seed, threads, max-steps, generations,
/// time-limit, device and the algorithm's): every check and message of nqueens batch. The
/// floors (--t-min under --t0, ...) are checked unless `swept` (each point's are, then).
batch_request batch_request_from(const named_settings& given, bool swept);

/// A count from its settings (queens, unique, threads, checkpoint, checkpoint-interval, device,
/// devices, simd): every check and message of nqueens count.
count_request count_request_from(const named_settings& given);

/// A verify from its settings (file, format, each, memory-limit, threads): every check and
/// message of nqueens verify before it opens the file.
verify_request verify_request_from(const named_settings& given);

/// A benchmark from its settings (quick, suite, workloads, device, time-budget, threads,
/// compare, compare-shared): every check and message of nqueens bench.
bench_request bench_request_from(const named_settings& given);

/// A sweep's grid (--sweep) for `request`, checked whole before the first batch runs: each
/// setting once, none both swept and given, every point's floors.
std::vector<sweep_axis> sweep_from(const std::string& spec, const named_settings& given,
                                   const batch_request& request);


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

/// The local search `algorithm` names, with the variant the request's settings give.
std::optional<local_algorithm> solve_local_algorithm(const solve_request& request,
                                                     const std::string& algorithm);

/// Bytes a solve as `request` holds at its peak, the process included, refused
/// (resource_error) past its memory limit or what is available: for a face to ask before it
/// opens its outputs.
std::uint64_t check_solve_memory(const solve_request& request);

/// The JSON record of a solve (to_json's) without its rows and closing brace, for a face that
/// streams a huge board's rows after it: `,"rows":[...]}` completes it.
std::string solve_json_head(const solve_report& report);

/// Why `report`'s unsolved run of a request with `limits` stopped, in a phrase: "no solution
/// found within the step limit (...)". `why_climbers_stop`: say why a hill climber stopped by
/// itself (a local minimum, the sideways limit), as the shell's --verbose and Python do.
std::string failure_reason(const search_limits& limits, const solve_report& report,
                           bool why_climbers_stop);

}  // namespace nq::engine
