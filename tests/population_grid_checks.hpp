#pragma once
// The checks the whole-grid ga and beam tests share: runs forced onto the whole grid, compared
// with the CPU reference record for record, board for board and trace row for trace row.

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "board_oracles.hpp"
#include "kernels/gpu.hpp"

namespace nq::test {

/// Runs first .. first + runs - 1 whole-grid (the shape forced).
inline std::vector<chain_outcome> whole_grid(index_t n, const local_search_settings& settings,
                                             std::uint64_t seed, std::uint64_t first,
                                             std::uint64_t runs, std::uint64_t max_steps,
                                             std::vector<row_t>* boards,
                                             std::vector<trace_row>* trace = nullptr,
                                             const std::atomic<bool>* stop = nullptr,
                                             double time_limit = 0.0) {
  gpu::chain_options options;
  options.max_steps = max_steps;
  options.time_limit = time_limit;
  options.shape = gpu::population_shape::whole_grid;
  return gpu::run_population_runs(n, settings, seed, first, runs, options, boards, trace, stop);
}

/// The CPU reference's run `stream` of `seed`, its trace rows appended to `trace` when given.
inline chain_outcome cpu_run(local_workspace& cpu, std::uint64_t seed, std::uint64_t stream,
                             std::uint64_t max_steps, std::vector<trace_row>* trace = nullptr) {
  local_run run;
  run.seed = seed;
  run.stream = stream;
  run.limits.max_steps = max_steps;
  if (trace) run.trace = [trace](const trace_row& row) { trace->push_back(row); };
  return cpu.run(run);
}

/// Whole-grid runs first .. first + runs - 1 end as the CPU's: solved, cost, steps and best
/// board, none stopped, each board's cost the one reported.
inline void expect_whole_grid_runs_match_cpu(index_t n, const local_search_settings& settings,
                                             std::uint64_t seed, std::uint64_t first,
                                             std::uint64_t runs, std::uint64_t max_steps) {
  std::vector<row_t> boards;
  const auto got = whole_grid(n, settings, seed, first, runs, max_steps, &boards);
  ASSERT_EQ(got.size(), runs);
  local_workspace cpu(n, settings);
  for (std::uint64_t i = 0; i < runs; ++i) {
    const chain_outcome expected = cpu_run(cpu, seed, first + i, max_steps);
    ASSERT_EQ(got[i].solved, expected.solved) << "run " << i;
    ASSERT_EQ(got[i].cost, expected.cost) << "run " << i;
    ASSERT_EQ(got[i].steps, expected.steps) << "run " << i;
    ASSERT_FALSE(got[i].stopped) << "run " << i;
    const std::vector<row_t> board(boards.begin() + i * n, boards.begin() + (i + 1) * n);
    ASSERT_EQ(board, std::vector<row_t>(cpu.board(), cpu.board() + n)) << "run " << i;
    ASSERT_EQ(brute_force_pairs(board), got[i].cost) << "run " << i;
  }
}

/// A whole-grid run's trace is the CPU's, row for row.
inline void expect_whole_grid_trace_matches_cpu(index_t n, const local_search_settings& settings,
                                                std::uint64_t seed, std::uint64_t stream,
                                                std::uint64_t max_steps) {
  std::vector<trace_row> gpu_trace, cpu_trace;
  const auto got = whole_grid(n, settings, seed, stream, 1, max_steps, nullptr, &gpu_trace);
  local_workspace cpu(n, settings);
  const chain_outcome expected = cpu_run(cpu, seed, stream, max_steps, &cpu_trace);
  ASSERT_EQ(got[0].steps, expected.steps);
  ASSERT_EQ(gpu_trace.size(), cpu_trace.size());
  for (std::size_t g = 0; g < cpu_trace.size(); ++g) {
    EXPECT_EQ(gpu_trace[g].step, cpu_trace[g].step) << "generation " << g;
    EXPECT_EQ(gpu_trace[g].cost, cpu_trace[g].cost) << "generation " << g;
    EXPECT_EQ(gpu_trace[g].best_fitness, cpu_trace[g].best_fitness) << "generation " << g;
    EXPECT_EQ(gpu_trace[g].mean_fitness, cpu_trace[g].mean_fitness) << "generation " << g;
  }
  for (std::size_t g = 0; g + 1 < gpu_trace.size(); ++g) EXPECT_NE(gpu_trace[g].cost, 0u);
  EXPECT_EQ(got[0].solved, gpu_trace.back().cost == 0);
}

}  // namespace nq::test
