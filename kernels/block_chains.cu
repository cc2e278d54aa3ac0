// Block-per-chain steepest ascent (hc, hc-sideways, hc-restart) for medium boards: the board
// and its lines sit in shared memory, each thread scans a contiguous range of columns, and the
// block reduces to the best delta and numbers the tied moves column by column, rows ascending,
// exactly as steepest_move does on the CPU. Thread 0 owns the Philox stream and makes every
// draw in the CPU's order, so a block's chain is the CPU chain of the same (seed, run).

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "kernels/block_chains.cuh"
#include "kernels/cuda_check.cuh"
#include "nqueens/hill_climbing.hpp"

namespace nq::cuda {
namespace {

constexpr int block_threads = 256;

struct smaller {
  __device__ std::int32_t operator()(std::int32_t a, std::int32_t b) const { return a < b ? a : b; }
};

/// What every thread of the block reads after a __syncthreads.
struct block_state {
  index_t cost;
  std::uint64_t steps;
  std::uint64_t restarts;
  std::uint32_t sideways;
  std::uint64_t pick;  // the chosen tie, numbered over the whole board
  index_t move_col;
  row_t move_row;
  bool done;
};

__global__ void block_hill_climb(int n, std::uint32_t max_sideways, bool restart,
                                 std::uint64_t seed, std::uint64_t first, std::uint64_t max_steps,
                                 chain_outcome* outcomes, row_t* boards) {
  using reduce = cub::BlockReduce<std::int32_t, block_threads>;
  using scan = cub::BlockScan<std::uint64_t, block_threads>;
  __shared__ typename reduce::TempStorage reduce_storage;
  __shared__ typename scan::TempStorage scan_storage;
  __shared__ block_state s;
  __shared__ std::int32_t best_delta;
  extern __shared__ unsigned char shared[];

  const auto size = static_cast<index_t>(n);
  auto* queen_row = reinterpret_cast<row_t*>(shared);
  auto* lines = reinterpret_cast<std::int16_t*>(shared + size * sizeof(row_t));
  const climber_view<std::int16_t> b{queen_row, lines, lines + size, lines + 3 * size - 1, size};
  const std::uint64_t run = first + blockIdx.x;
  const unsigned t = threadIdx.x;
  const index_t per_thread = (size + block_threads - 1) / block_threads;
  const index_t col_begin = min(size, t * per_thread), col_end = min(size, col_begin + per_thread);

  philox_stream rng(seed, run);  // used by thread 0 only
  if (t == 0) {
    s.cost = random_board(b, rng);
    s.steps = s.restarts = 0;
    s.sideways = 0;
    s.done = false;
  }
  __syncthreads();
  while (s.cost != 0 && (max_steps == 0 || s.steps < max_steps)) {
    const std::int32_t acceptable = s.sideways < max_sideways ? 0 : -1;
    // This thread's columns: the least delta and the moves that reach it.
    std::int32_t mine = INT32_MAX;
    std::uint64_t my_ties = 0;
    for (index_t col = col_begin; col < col_end; ++col) {
      const std::int32_t least = detail::least_load(b, col);
      const std::int32_t delta = least - queen_pairs(b, col);
      if (delta > mine) continue;
      if (delta < mine) mine = delta, my_ties = 0;
      my_ties += detail::squares_with_load(b, col, least);
    }
    const std::int32_t best = reduce(reduce_storage).Reduce(mine, smaller{});
    if (t == 0) best_delta = best;
    __syncthreads();
    const std::int32_t global_best = best_delta;
    if (global_best > acceptable) {  // stuck: every thread sees the same
      if (!restart) break;
      if (t == 0) {
        s.cost = random_board(b, rng);
        ++s.restarts;
        s.sideways = 0;
      }
      __syncthreads();
      continue;
    }
    const std::uint64_t counted = mine == global_best ? my_ties : 0;
    std::uint64_t before = 0, total = 0;
    scan(scan_storage).ExclusiveSum(counted, before, total);
    if (t == 0) s.pick = total == 1 ? 0 : rng.below(static_cast<std::uint32_t>(total));
    __syncthreads();
    if (counted != 0 && s.pick >= before && s.pick < before + counted) {
      std::uint64_t pick = s.pick - before;
      for (index_t col = col_begin; col < col_end; ++col) {
        const std::int32_t least = detail::least_load(b, col);
        if (least - queen_pairs(b, col) != global_best) continue;
        const std::uint32_t here = detail::squares_with_load(b, col, least);
        if (pick < here) {
          s.move_col = col;
          s.move_row = static_cast<row_t>(nth_row_with_load(b, col, least, pick));
          break;
        }
        pick -= here;
      }
    }
    __syncthreads();
    if (t == 0) {
      s.sideways = global_best == 0 ? s.sideways + 1 : 0;
      relocate(b, s.move_col, s.move_row);
      s.cost = static_cast<index_t>(static_cast<std::int64_t>(s.cost) + global_best);
      ++s.steps;
    }
    __syncthreads();
  }
  if (t == 0) {
    chain_outcome out;
    out.solved = s.cost == 0;
    out.cost = s.cost;
    out.steps = s.steps;
    out.restarts = s.restarts;
    outcomes[blockIdx.x] = out;
  }
  if (boards)
    for (index_t col = t; col < size; col += block_threads)
      boards[blockIdx.x * size + col] = queen_row[col];
}

std::size_t shared_bytes(index_t n) {
  return n * sizeof(row_t) + (n + 2 * (2 * n - 1)) * sizeof(std::int16_t);
}

}  // namespace

bool has_block_chain(local_algorithm algorithm, index_t n) {
  const bool climber = algorithm == local_algorithm::hc ||
                       algorithm == local_algorithm::hc_sideways ||
                       algorithm == local_algorithm::hc_restart;
  return climber && n > 32 && n <= max_block_chain_n;
}

void launch_block_chains(index_t n, const local_search_settings& settings, std::uint64_t seed,
                         std::uint64_t first, std::uint64_t count, std::uint64_t max_steps,
                         chain_outcome* outcomes, row_t* boards) {
  const local_algorithm a = settings.algorithm;
  const std::uint32_t sideways = a == local_algorithm::hc ? 0 : settings.hill.max_sideways;
  const std::size_t bytes = shared_bytes(n);
  NQ_CUDA_TRY(cudaFuncSetAttribute(block_hill_climb, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(bytes)));
  constexpr std::uint64_t max_grid = 0x7FFFFFFF;
  for (std::uint64_t done = 0; done < count; done += max_grid) {
    const auto blocks = static_cast<unsigned>(std::min(max_grid, count - done));
    block_hill_climb<<<blocks, block_threads, bytes>>>(
        static_cast<int>(n), sideways, a == local_algorithm::hc_restart, seed, first + done,
        max_steps, outcomes + done, boards ? boards + done * n : nullptr);
    NQ_CUDA_TRY(cudaGetLastError());
  }
}

}  // namespace nq::cuda
