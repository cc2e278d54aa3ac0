#pragma once
// The placement's kernels (placement.cu): the board's initialisation, and one pass, all its
// rounds, on one block. Each thread plays every Threads-th block of columns between the block's
// barriers, calling the NQ_HD steps of placement.hpp in the CPU's order (placement.cpp).

#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "nqueens/placement.hpp"

namespace nq::cuda::placement_kernels {

/// Rounds between a pass's reads of the stop flag and the clock (the step limit: every round).
inline constexpr std::uint64_t rounds_per_check = 32;

struct init_board {
  row_t* queen_row;
  std::uint64_t* diag;
  std::uint64_t* anti_diag;
  index_t n, segments, words;
  NQ_HD void operator()(thread_id id) const {
    for (index_t col = id.global(); col < n; col += id.grid_threads())
      queen_row[col] = placement_initial_row(n, segments, col);
    for (index_t w = id.global(); w < words; w += id.grid_threads()) diag[w] = anti_diag[w] = 0;
  }
};

/// The device's counters: the deferred columns (placement_view's), then a pass's report.
enum counter : unsigned { deferred_counter, rounds_counter, stopped_counter, counters };

struct pass_state {
  unsigned long long done;  // blocks of columns done with the pass
  std::uint64_t start_ns;   // when the pass began, for its share of the time limit
  bool stopped;             // the stop flag or the time limit, read by thread 0
};

/// One pass, all its rounds, on one block: the CPU's rounds (placement.cpp, run_pass), the step
/// limit read after every round as there, the stop flag and the clock every rounds_per_check.
struct run_pass {
  using shared_state = pass_state;
  placement_view v;
  std::uint64_t seed, restart;
  unsigned pass;
  std::uint64_t steps_before, max_steps;  // max_steps 0: none
  std::uint64_t time_left_ns;             // 0: none
  const unsigned* stop;                   // mapped, raised by the host on a stop
  unsigned long long* counter;            // enum counter

  template <class Block>
  NQ_HD void operator()(Block& block, pass_state& s) const {
    per_thread<unsigned long long, Block::copies> finished;
    block.each([&](unsigned t) {
      if (t != 0) return;
      s.done = 0;
      s.stopped = false;
      s.start_ns = time_left_ns ? clock_ns() : 0;
    });
    block.each([&](unsigned t) {
      unsigned long long mine = 0;
      for (index_t j = t; j < v.blocks; j += Block::threads)
        mine += placement_start(v, j, seed, restart, pass);
      if (mine) atomic_add(&s.done, mine);
    });
    std::uint64_t rounds = 0;
    bool stopped = false;
    // Uniform: s.done changes only in the resolve phase and is read between barriers.
    while (s.done < v.blocks) {
      block.each([&](unsigned t) {
        unsigned long long mine = 0;
        for (index_t j = t; j < v.blocks; j += Block::threads) mine += placement_claim(v, j);
        finished[t] = mine;
      });
      block.each([&](unsigned t) {
        unsigned long long mine = finished[t];
        for (index_t j = t; j < v.blocks; j += Block::threads) mine += placement_resolve(v, j);
        if (mine) atomic_add(&s.done, mine);
      });
      ++rounds;
      if (s.done == v.blocks) break;
      if (max_steps != 0 && steps_before + rounds >= max_steps) {
        stopped = true;
        break;
      }
      if (rounds % rounds_per_check != 0) continue;
      block.each([&](unsigned t) {
        if (t == 0)
          s.stopped = (stop && stop_raised(stop)) ||
                      (time_left_ns != 0 && clock_ns() - s.start_ns >= time_left_ns);
      });
      if (s.stopped) {
        stopped = true;
        break;
      }
    }
    block.each([&](unsigned t) {
      if (t != 0) return;
      counter[rounds_counter] = rounds;
      counter[stopped_counter] = stopped ? 1 : 0;
    });
  }
};

}  // namespace nq::cuda::placement_kernels
