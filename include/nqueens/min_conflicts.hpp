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
  std::uint64_t seed = 1;    ///< Philox key: equal seeds give equal runs
  std::uint64_t stream = 0;  ///< run index within a batch
  search_limits limits{};    ///< steps = candidate rows drawn + swaps tried
  /// Final columns placed on their first candidate without search (QS4's c). Default 0: none,
  /// which measured best (about 3.06 draws per queen, tens to hundreds of queens attacked).
  index_t random_tail = 0;
  /// Candidates a column draws before taking one that is attacked; 0 means 64.
  unsigned max_tries = 0;
  /// Swaps tried without improvement before a restart; 0 means 64 + 4n.
  std::uint64_t stall_limit = 0;
};

/// @brief Peak bytes the solver allocates for an n-queens board (about 4.5 per queen).
std::uint64_t min_conflicts_memory_bytes(index_t n);

/// @brief Solves n queens; n = 2 and 3 return unsolved at once. A run a limit stops while
/// placing returns its board (a permutation) with `unplaced` > 0 and its pairs not counted
/// (`conflicts` 0): callers that need them call verify_board. Throws std::bad_alloc when
/// memory runs out (callers check min_conflicts_memory_bytes first).
solve_result solve_min_conflicts(index_t n, const min_conflicts_settings& settings,
                                 const progress_fn& progress = {});

}  // namespace nq
