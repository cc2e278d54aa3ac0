#pragma once
// Block-per-chain steepest ascent for medium boards, for the launchers in chains.cu.

#include "kernels/chains.cuh"

namespace nq::cuda {

/// The largest board a block keeps in shared memory (rows and lines: 14 bytes per queen).
inline constexpr index_t max_block_chain_n = 8192;

/// Whether hc, hc-sideways or hc-restart on n queens runs block-per-chain: 33..8192 queens.
bool has_block_chain(local_algorithm algorithm, index_t n);

/// Bytes of dynamic shared memory a block chain on n queens takes.
std::size_t block_chain_shared_bytes(index_t n);

/// Launches `job` one block per run (on the default stream): outcome i and, when job.boards is
/// not null, board i of run job.first + i, exactly as the CPU's hill_climb; time limits and the
/// race as for the thread-per-run chains.
void launch_block_chains(const chain_launch& job);

}  // namespace nq::cuda
