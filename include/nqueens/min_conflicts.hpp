#pragma once
/// @file
/// @brief Min-conflicts for huge n, in the style of Sosic and Gu's QS4: a permutation board, a
/// greedy conflict-free placement from random candidates, then random-partner swaps applied
/// to attacked queens and kept only when the attacking pairs fall.

#include <cstdint>

#include "nqueens/solver.hpp"

namespace nq {

/// @brief Settings of the permutation min-conflicts solver.
struct min_conflicts_settings {
  std::uint64_t seed = 1;         ///< Philox key: equal seeds give equal runs
  std::uint64_t stream = 0;       ///< run index within a batch
  search_limits limits{};         ///< steps = candidate rows drawn + swaps tried
  index_t random_tail = 0;        ///< 0: automatic; last columns placed without search (QS4's c)
  unsigned max_tries = 0;         ///< 0: automatic; candidates drawn per column before giving up
  std::uint64_t stall_limit = 0;  ///< 0: automatic; swaps tried without improvement, then restart
};

/// @brief Peak bytes the solver allocates for an n-queens board (about 8 per queen).
std::uint64_t min_conflicts_memory_bytes(index_t n);

/// @brief Solves n queens; n = 2 and 3 return unsolved at once. Throws std::bad_alloc when
/// memory runs out (callers check min_conflicts_memory_bytes first).
solve_result solve_min_conflicts(index_t n, const min_conflicts_settings& settings,
                                 const progress_fn& progress = {});

}  // namespace nq
