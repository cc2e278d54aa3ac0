#pragma once
// What the ga and beam kernel tests share, block-per-run and whole-grid alike: their settings,
// cases that print themselves, and runs of a given shape compared with the CPU reference record
// for record, board for board and trace row for trace row.

#include <gtest/gtest.h>

#include <atomic>
#include <ostream>
#include <string>
#include <vector>

#include "board_oracles.hpp"
#include "kernels/gpu.hpp"

namespace nq::test {

/// One configuration of ga or beam: the settings and a name to print.
struct population_case {
  std::string name;
  local_search_settings settings;
  friend void PrintTo(const population_case& c, std::ostream* os) { *os << c.name; }
};

/// ga with `population` individuals (0: the default), column or permutation encoding.
inline local_search_settings ga(std::uint32_t population, bool permutation) {
  local_search_settings s;
  s.algorithm = local_algorithm::ga;
  s.genetic.population = population;
  s.genetic.permutation = permutation;
  return s;
}

/// beam `width` states wide, the best kept or drawn by fitness.
inline local_search_settings beam(std::uint32_t width, bool stochastic) {
  local_search_settings s;
  s.algorithm = local_algorithm::beam;
  s.beam.width = width;
  s.beam.stochastic = stochastic;
  return s;
}

/// Runs first .. first + runs - 1 in `shape`.
inline std::vector<chain_outcome> shaped_runs(
    gpu::population_shape shape, index_t n, const local_search_settings& settings,
    std::uint64_t seed, std::uint64_t first, std::uint64_t runs, std::uint64_t max_steps,
    std::vector<row_t>* boards, std::vector<trace_row>* trace = nullptr,
    const std::atomic<bool>* stop = nullptr, double time_limit = 0.0) {
  gpu::chain_options options;
  options.max_steps = max_steps;
  options.time_limit = time_limit;
  options.shape = shape;
  return gpu::run_population_runs(n, settings, seed, first, runs, options, boards, trace, stop);
}

/// Runs first .. first + runs - 1 whole-grid (the shape forced).
inline std::vector<chain_outcome> whole_grid(index_t n, const local_search_settings& settings,
                                             std::uint64_t seed, std::uint64_t first,
                                             std::uint64_t runs, std::uint64_t max_steps,
                                             std::vector<row_t>* boards,
                                             std::vector<trace_row>* trace = nullptr,
                                             const std::atomic<bool>* stop = nullptr,
                                             double time_limit = 0.0) {
  return shaped_runs(gpu::population_shape::whole_grid, n, settings, seed, first, runs, max_steps,
                     boards, trace, stop, time_limit);
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

/// Runs first .. first + runs - 1 in `shape` end as the CPU's: solved, cost, steps and best
/// board, none stopped, each board's cost the one reported.
inline void expect_runs_match_cpu(gpu::population_shape shape, index_t n,
                                  const local_search_settings& settings, std::uint64_t seed,
                                  std::uint64_t first, std::uint64_t runs,
                                  std::uint64_t max_steps) {
  std::vector<row_t> boards;
  const auto got = shaped_runs(shape, n, settings, seed, first, runs, max_steps, &boards);
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

/// A run in `shape` traces the CPU's generations, row for row, and only its last may have cost 0
/// (a run stops at its first solution).
inline void expect_trace_matches_cpu(gpu::population_shape shape, index_t n,
                                     const local_search_settings& settings, std::uint64_t seed,
                                     std::uint64_t stream, std::uint64_t max_steps) {
  std::vector<trace_row> gpu_trace, cpu_trace;
  const auto got = shaped_runs(shape, n, settings, seed, stream, 1, max_steps, nullptr, &gpu_trace);
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

/// Under heavy mutation an elite keeps the best: the best cost never rises from one generation
/// to the next in a `shape` run of ga with a population of 40 on 24 queens.
inline void expect_elitism_keeps_the_best(gpu::population_shape shape) {
  auto settings = ga(40, false);
  settings.genetic.mutation = 0.9;  // much disruption, which only the elite survives unchanged
  std::vector<trace_row> trace;
  shaped_runs(shape, 24, settings, 3, 0, 1, 80, nullptr, &trace);
  ASSERT_GT(trace.size(), 2u);
  for (std::size_t g = 1; g < trace.size(); ++g) EXPECT_LE(trace[g].cost, trace[g - 1].cost);
}

}  // namespace nq::test
