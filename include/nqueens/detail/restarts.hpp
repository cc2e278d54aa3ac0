#pragma once
// The restart loop of a solve that tries fresh boards until one is solved or its limits end it
// (the parallel placement on the CPU and on the GPU): the result being built, the clock the
// time limit reads, and whether a limit has stopped it.

#include "nqueens/detail/stopwatch.hpp"
#include "nqueens/solver.hpp"

namespace nq::detail {

class restarts {
 protected:
  explicit restarts(const search_limits& limits) : limits_(limits) {}

  /// Tries `attempt()` (true when solved) from a fresh board until it solves or a limit stops it.
  template <class Attempt>
  solve_result run_attempts(Attempt&& attempt) {
    for (;; ++result_.restarts) {
      if (attempt() || stopped_) break;
    }
    result_.solved = !stopped_;
    result_.seconds = clock_.seconds();
    return std::move(result_);
  }

  /// Whether the step limit is spent, the time limit past (the clock read only when one is
  /// set) or the stop raised; once true, stays true.
  bool limit_reached() {
    if ((limits_.max_steps && result_.steps >= limits_.max_steps) ||
        (limits_.time_limit > 0 && clock_.seconds() >= limits_.time_limit) ||
        (limits_.stop && limits_.stop->load(std::memory_order_relaxed)))
      stopped_ = true;
    return stopped_;
  }

  const search_limits& limits_;
  stopwatch clock_;  // first: the time limit counts the allocations the solve makes
  bool stopped_ = false;
  solve_result result_;
};

}  // namespace nq::detail
