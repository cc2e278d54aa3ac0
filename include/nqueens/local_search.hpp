#pragma once
/// @file
/// @brief The local-search family on the CPU: one entry point for every algorithm, reusable
/// workspaces for batches, and per-step traces. Host-side API.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "nqueens/local_settings.hpp"
#include "nqueens/solver.hpp"

namespace nq {

/// @brief The name `--algo` takes ("min-conflicts" for both variants).
std::string_view algorithm_name(local_algorithm algorithm);
/// @brief The algorithm named `name`, if it is a local search ("min-conflicts" gives the
/// permutation variant).
std::optional<local_algorithm> find_local_algorithm(std::string_view name);

/// @brief The step limit used when none is given: 0 (none) for the algorithms that stop by
/// themselves, 50,000 for the iterative ones (the classic annealing schedule's length),
/// 1,000,000 boards for random, 1,000 generations for beam and ga.
std::uint64_t default_max_steps(local_algorithm algorithm);

/// @brief The largest n the algorithm takes (the complete-state climbers: max_climber_n).
index_t max_local_n(local_algorithm algorithm);

/// @brief The GA's population when its setting is 0: min(2 n^2, 4096).
std::uint32_t default_population(index_t n);

/// @brief One row of a convergence trace.
struct trace_row {
  std::uint64_t step = 0;
  std::uint64_t restarts = 0;
  index_t cost = 0;                  ///< attacking pairs (beam and ga: of the best state)
  double temperature = -1.0;         ///< sa: T; hc-anneal-p: p; otherwise negative
  double best_fitness = -1.0;        ///< beam and ga: non-attacking pairs of the best state
  double mean_fitness = -1.0;        ///< beam and ga: mean over the states kept
  const row_t* queen_row = nullptr;  ///< single chains: the board now (n rows), during the call
};
using trace_fn = std::function<void(const trace_row&)>;

/// @brief One run: its random stream, limits, start and trace.
struct local_run {
  std::uint64_t seed = 1;        ///< Philox key
  std::uint64_t stream = 0;      ///< run index within a batch
  search_limits limits;          ///< max_steps 0 means default_max_steps
  const row_t* start = nullptr;  ///< n rows to start from (first state), or null for random
  trace_fn trace;                ///< called once for the start and once per step; may be empty
  /// When set, the lowest-numbered run of the batch known to have solved: this run stops
  /// (unsolved, `stopped`) once a run numbered below it has solved. Checked every 1024 steps.
  const std::atomic<std::uint64_t>* first_solved = nullptr;
};

/// @brief Buffers for runs of one algorithm on one n, reused from run to run.
class local_workspace {
 public:
  local_workspace(index_t n, const local_search_settings& settings);
  ~local_workspace();
  local_workspace(local_workspace&&) noexcept;
  local_workspace& operator=(local_workspace&&) noexcept;

  /// @brief Runs once; the final board stays in board().
  chain_outcome run(const local_run& run);
  /// @brief The final board of the last run (n rows).
  const row_t* board() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// @brief Runs one algorithm once and returns its board. n = 2 and 3 (and any board the
/// algorithm cannot improve) end unsolved; the restarting algorithms do not search n = 2, 3.
solve_result solve_local(index_t n, const local_search_settings& settings, const local_run& run);

}  // namespace nq
