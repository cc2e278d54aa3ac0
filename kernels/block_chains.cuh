#pragma once
// Block-per-chain steepest ascent for medium boards, for the launchers in chains.cu.

#include "nqueens/local_search.hpp"

namespace nq::cuda {

/// The largest board a block keeps in shared memory (rows and lines: 14 bytes per queen).
inline constexpr index_t max_block_chain_n = 8192;

/// Whether hc, hc-sideways or hc-restart on n queens runs block-per-chain: 33..8192 queens.
bool has_block_chain(local_algorithm algorithm, index_t n);

/// Launches runs [first, first + count), one block each (on the default stream): outcome i and,
/// when `boards` is not null, board i of run first + i, exactly as the CPU's hill_climb.
void launch_block_chains(index_t n, const local_search_settings& settings, std::uint64_t seed,
                         std::uint64_t first, std::uint64_t count, std::uint64_t max_steps,
                         chain_outcome* outcomes, row_t* boards);

}  // namespace nq::cuda
