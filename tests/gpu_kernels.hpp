#pragma once
// One-thread kernels that run the shared NQ_HD logic on the device, behind plain C++ calls.

#include <cstdint>
#include <vector>

#include "nqueens/detail/climb.hpp"
#include "nqueens/config.hpp"

namespace nq::test {

/// `count` draws of philox_stream(seed, stream).below(bound), made on the device.
std::vector<std::uint32_t> device_draws(std::uint64_t seed, std::uint64_t stream,
                                        std::uint32_t bound, int count);

/// constructive_row(n, col) for every column, computed on the device.
std::vector<row_t> device_construction(index_t n);

/// A move: column `a` to row `row` when b == a, else a swap of columns a and b.
struct move {
  index_t a, b, row;
};

/// For each move in turn, on the device: its predicted delta (move_delta or swap_delta), then
/// the move applied with remove_queen/add_queen. Counters start from recount(rows).
std::vector<std::int64_t> device_deltas(std::vector<row_t> rows, const std::vector<move>& moves);

/// A walk of `steps` steepest moves (any best move acceptable) from `rows`, on the device: the
/// move chosen at each step, each applied before the next. Philox stream (seed, 0).
std::vector<queen_move> device_steepest_walk(std::vector<row_t> rows, std::uint64_t seed,
                                             int steps);

/// The numbers (indices) of the k least of `keys` by (key, number), ascending, as the grid's
/// radix select (kernels/grid_select.cuh) takes them on the device; `tie_numbers`: passes over
/// the numbers too, for keys that may tie across the k-th.
std::vector<std::uint64_t> device_select_least(const std::vector<std::uint64_t>& keys,
                                               std::uint64_t k, bool tie_numbers);

/// What kernel_clock (kernels/runtime.cuh) measured of two short launches, one by
/// launch_threads and one by launch_blocks, each followed by a wait, with `host_pause` seconds
/// of host sleep before the first, between the two and after the last inside the timing: its
/// seconds, the wall time of the whole, and the reading (and waits) of a clock with nothing
/// launched since.
struct kernel_clock_probe {
  double timed = 0, wall = 0, idle_reading = -1;
  std::uint64_t idle_waits = 0;
};
kernel_clock_probe probe_kernel_clock(double host_pause);

}  // namespace nq::test
