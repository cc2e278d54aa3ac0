#pragma once
// What block-per-run ga and beam share (ga_runs.cuh, beam_runs.cuh): one block of
// population_threads threads per run, its workspace in shared memory or in its slice of global
// scratch; the state its threads read between phases; each generation's summary (best cost, the
// history row, the stop checks the CPU's observer makes); and the run's outcome and best board.
// Included by population.cu alone: the unnamed namespace keeps these names to that one file,
// as they were before it was split.

#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/population.cuh"
#include "nqueens/detail/population.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned population_threads = 128;
using count_t = std::uint16_t;

NQ_HD constexpr std::uint64_t aligned(std::uint64_t bytes) { return (bytes + 15) / 16 * 16; }
NQ_HD constexpr index_t lines_per_board(index_t n) { return 5 * n - 2; }

/// What every thread reads between phases; thread 0 alone writes it.
struct run_state {
  std::uint64_t steps;
  std::uint64_t best;
  std::uint64_t equal_pairs;  // ga: the run's pairs of equal parents
  std::uint64_t start_ns;
  unsigned current;  // which of the two populations is the present one
  bool stopped;
};

/// What both searches share: the run's place, the summaries and the end.
struct run_base {
  population_launch launch;
  unsigned char* scratch;  // null: the workspace is in shared memory
  std::uint64_t bytes;     // of one run's workspace

  template <class Block>
  NQ_HD unsigned char* workspace(Block& block) const {
    return scratch ? scratch + block.index() * bytes : block.shared();
  }

  /// Thread 0, after the start and each generation: whether the run must stop. Every
  /// generation, as the CPU's observer checks.
  NQ_HD bool must_stop(const run_state& s) const {
    if (launch.stop && stop_raised(launch.stop)) return true;
    return launch.job.time_limit_ns != 0 && clock_ns() - s.start_ns >= launch.job.time_limit_ns;
  }

  NQ_HD void start(run_state& s) const {
    s.steps = s.equal_pairs = 0;
    s.current = 0;
    s.stopped = false;
    s.start_ns = launch.job.time_limit_ns ? clock_ns() : 0;
  }

  /// The least key (cost above, index below) of `count` costs: the first best individual.
  template <class Block>
  NQ_HD std::uint64_t least_key(Block& block, const std::uint32_t* cost, std::uint32_t count,
                                std::uint64_t at_least) const {
    return block.min64([&](unsigned t) {
      std::uint64_t least = ~std::uint64_t{0};
      for (std::uint32_t i = t; i < count; i += Block::threads) {
        const std::uint64_t key = (std::uint64_t{cost[i]} << 32) | i;
        if (key >= at_least && key < least) least = key;
      }
      return least;
    });
  }

  /// The summary of `count` costs: best cost into s, and the history when kept; then the stop
  /// checks.
  template <class Block, class Before>
  NQ_HD void summarise(Block& block, run_state& s, const std::uint32_t* cost, std::uint32_t count,
                       Before& before) const {
    const index_t n = launch.job.n;
    const std::uint64_t best = least_key(block, cost, count, 0) >> 32;
    const std::uint64_t sum = block.exclusive_sum(
        [&](unsigned t) {
          std::uint64_t mine = 0;
          for (std::uint32_t i = t; i < count; i += Block::threads) mine += fitness_of(n, cost[i]);
          return mine;
        },
        before);
    block.each([&](unsigned t) {
      if (t != 0) return;
      s.best = best;
      if (launch.history) launch.history[s.steps] = {best, sum};
      s.stopped = must_stop(s);
    });
  }

  /// Stores the outcome and the first best board of the present population.
  template <class Block>
  NQ_HD void finish(Block& block, const run_state& s, const row_t* boards,
                    const std::uint32_t* cost, std::uint32_t count) const {
    const chain_launch& job = launch.job;
    const std::uint64_t i = block.index();
    const std::uint64_t key = least_key(block, cost, count, 0);
    const std::uint64_t at = key & 0xFFFFFFFFu;
    block.each([&](unsigned t) {
      if (t == 0) {
        chain_outcome out;
        out.solved = s.best == 0;
        out.cost = s.best;
        out.steps = s.steps;
        out.stopped = s.stopped;
        job.outcomes[i] = out;
      }
      if (job.boards)
        for (index_t col = t; col < job.n; col += Block::threads)
          job.boards[i * job.n + col] = boards[at * job.n + col];
    });
  }

  NQ_HD bool more(const run_state& s) const {
    const std::uint64_t max_steps = launch.job.max_steps;
    return s.best != 0 && !s.stopped && (max_steps == 0 || s.steps < max_steps);
  }
};

}  // namespace
}  // namespace nq::cuda
