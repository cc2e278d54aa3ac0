#pragma once
// Settings by name, as the command line and the Python module give them ("p" = "0.3",
// "stochastic" = "true"), read into the engine's requests by one set of rules and messages: the
// command line's options and Python's keywords are two spellings of the same list.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/sweep.hpp"
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

/// A benchmark from its settings (quick, suite, workloads, device, time-budget, threads,
/// compare, compare-shared): every check and message of nqueens bench.
bench_request bench_request_from(const named_settings& given);

/// A sweep's grid (--sweep) for `request`, checked whole before the first batch runs: each
/// setting once, none both swept and given, every point's floors.
std::vector<sweep_axis> sweep_from(const std::string& spec, const named_settings& given,
                                   const batch_request& request);

}  // namespace nq::engine
