#pragma once
/// @file
/// @brief The parallel placement solver for huge n (see placement.hpp) on CPU threads.

#include <cstdint>

#include "nqueens/solver.hpp"

namespace nq {

/// @brief Settings of the parallel placement solver.
struct placement_settings {
  std::uint64_t seed = 1;  ///< equal seeds give equal boards, whatever the threads or device
  unsigned threads = 0;    ///< worker threads; 0 means every core
  search_limits limits{};  ///< steps = placement rounds + insertion partners drawn
};

/// @brief Peak bytes the solver allocates for n queens (about 5 per queen), on the CPU or GPU.
std::uint64_t placement_memory_bytes(index_t n);

/// @brief Solves n queens with `threads` CPU threads; n = 2 and 3 return unsolved at once. A run
/// a limit stops returns its board as it stands, with `unplaced` queens not yet on free lines
/// (their pairs are not counted). Throws std::bad_alloc when memory runs out.
solve_result solve_placement(index_t n, const placement_settings& settings,
                             const progress_fn& progress = {});

}  // namespace nq
