#pragma once
// The thread-per-run chain kernels, for the kernels that launch them (chains.cu, the backend).

#include "nqueens/local_search.hpp"

namespace nq::cuda {

/// Whether a thread-per-run chain exists for the algorithm on n queens.
bool has_thread_chain(const local_search_settings& settings, index_t n);

/// Runs one launch may hold: all of them up to 32 queens, else as many boards as fit in the
/// scratch budget.
std::uint64_t max_chains_per_launch(index_t n);

/// Launches runs [first, first + count) (on the default stream; above 32 queens it waits): outcome
/// i and, when `boards` is not null, board i (n rows) of run first + i. `max_steps` must be
/// resolved (not 0 unless the algorithm stops by itself). With `first_solved` (device memory,
/// starting at ~0), a run stops once a lower-numbered run has solved, and solving runs lower
/// it; the block-per-chain kernels ignore it and run every chain to its end.
void launch_thread_chains(index_t n, const local_search_settings& settings, std::uint64_t seed,
                          std::uint64_t first, std::uint64_t count, std::uint64_t max_steps,
                          chain_outcome* outcomes, row_t* boards,
                          unsigned long long* first_solved = nullptr);

}  // namespace nq::cuda
