#pragma once
/// @file
/// @brief What every solver returns, and how it reports progress. Host-side API.

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "nqueens/config.hpp"

namespace nq {

/// @brief Outcome of one solver run.
struct solve_result {
  bool solved = false;    ///< the board has no attacking pair
  index_t conflicts = 0;  ///< attacking pairs on the final board; 0 when not counted
  /// Placement (parallel, min-conflicts): queens a run stopped mid-placement left off the
  /// board's lines; their attacking pairs are not counted.
  index_t unplaced = 0;
  /// False when a stopped run did not count its board's attacking pairs (`conflicts` is then
  /// 0): the lattice on the GPU, whose count would take the CPU seconds on a huge board.
  bool pairs_counted = true;
  std::uint64_t steps = 0;     ///< the algorithm's unit of work (see `nqueens algorithms`)
  std::uint64_t restarts = 0;  ///< fresh starts after getting stuck
  double seconds = 0.0;        ///< wall time of the search itself
  /// Final board (row per column); empty when none exists, or when a stopped lattice run was
  /// told that no one shows it (solve_lattice's `board_wanted`).
  std::vector<row_t> queen_row;
};

/// @brief A snapshot for progress displays.
struct solve_progress {
  const char* phase = "";  ///< e.g. "placing", "repairing"
  double fraction = 0.0;   ///< of the phase, in [0, 1]; 0 when unknown
  std::uint64_t steps = 0;
  std::uint64_t restarts = 0;
  double seconds = 0.0;
};

/// @brief Called from the solver's thread about every few million steps.
using progress_fn = std::function<void(const solve_progress&)>;

/// @brief Limits shared by every algorithm; zero means no limit.
struct search_limits {
  std::uint64_t max_steps = 0;  ///< stop unsolved after this many steps
  double time_limit = 0.0;      ///< seconds; stop unsolved after this long
  /// When set, stop unsolved soon after it is raised (read where the clock is read): how `solve`
  /// stops its run on Ctrl-C and the Python module a call. The CPU paths read it; GPU kernels
  /// do not (the GPU placement's host loop does).
  const std::atomic<bool>* stop = nullptr;
};

}  // namespace nq
