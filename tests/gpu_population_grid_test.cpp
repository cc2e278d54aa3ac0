// Whole-grid ga (shape 2) against the CPU reference: a run the whole grid breeds and scores
// generation by generation ends as the CPU's run of the same (seed, run) does, after the same
// generations, on the same best board, through the same trace. Skipped without a CUDA device
// (run by host_kernel_test in the host execution).

#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "board_oracles.hpp"
#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "population_checks.hpp"

namespace nq {
namespace {

using A = local_algorithm;
using gpu::population_shape;
using test::cpu_run;
using test::device_or_host;
using test::ga;
using test::population_case;
using test::whole_grid;

std::vector<population_case> whole_grid_cases() {
  std::vector<population_case> all;
  all.push_back({"columns_small", ga(16, false)});
  all.push_back({"columns_large", ga(300, false)});
  all.push_back({"permutation_small", ga(16, true)});
  all.push_back({"permutation_large", ga(300, true)});
  auto leaders = ga(64, true);
  leaders.genetic.leaders = true;
  leaders.genetic.elite = 3;
  leaders.genetic.mutation_step = 0.01;
  all.push_back({"leaders_mutation_step", leaders});
  auto odd = ga(33, false);  // an odd number of children: the last pair's second is dropped
  odd.genetic.elite = 0;
  odd.genetic.tournament = 5;
  all.push_back({"columns_odd_no_elite", odd});
  auto wide = ga(40, false);
  wide.genetic.elite = 37;  // most of the population ranked, one pair bred
  wide.genetic.mutation_step = 0.2;
  all.push_back({"columns_wide_elite", wide});
  return all;
}

using GpuPopulationGrid = test::gpu_param_fixture<population_case>;

TEST_P(GpuPopulationGrid, MatchesTheCpuRunForRun) {
  for (const index_t n : {1, 4, 8, 13, 32, 100}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const std::uint64_t runs = n >= 32 ? 2 : device_or_host(12, 4);
    const std::uint64_t max_steps = n >= 100 ? 3 : n >= 32 ? 12 : 80;
    ASSERT_NO_FATAL_FAILURE(test::expect_runs_match_cpu(
        population_shape::whole_grid, n, GetParam().settings, 29, 1000, runs, max_steps));
  }
}

TEST_P(GpuPopulationGrid, TracesTheCpuGenerations) {
  for (const index_t n : {8, 13}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    ASSERT_NO_FATAL_FAILURE(test::expect_trace_matches_cpu(population_shape::whole_grid, n,
                                                           GetParam().settings, 5, 17, 60));
  }
}

INSTANTIATE_TEST_SUITE_P(Searches, GpuPopulationGrid, ::testing::ValuesIn(whole_grid_cases()),
                         [](const auto& info) { return info.param.name; });

using GpuPopulationGridControl = test::gpu_fixture;

// The automatic shape: whole-grid for ga runs that do not fit in a block's shared memory, when
// a launch holds few of them; block-per-run otherwise (beam: gpu_beam_grid_test.cpp).
TEST_F(GpuPopulationGridControl, TheAutomaticShapeFollowsTheRule) {
  EXPECT_EQ(gpu::resolved_population_shape(ga(4096, false), 1000, 1), population_shape::whole_grid);
  EXPECT_EQ(gpu::resolved_population_shape(ga(300, true), 100, 127), population_shape::whole_grid);
  EXPECT_EQ(gpu::resolved_population_shape(ga(300, true), 100, 128),
            population_shape::block_per_run);
  EXPECT_EQ(gpu::resolved_population_shape(ga(128, false), 8, 1), population_shape::block_per_run);
  EXPECT_EQ(gpu::resolved_population_shape(ga(0, false), 8, 1), population_shape::block_per_run);
  EXPECT_EQ(
      gpu::resolved_population_shape(ga(4096, false), 1000, 1, population_shape::block_per_run),
      population_shape::block_per_run);
  EXPECT_EQ(gpu::resolved_population_shape(ga(16, false), 8, 1, population_shape::whole_grid),
            population_shape::whole_grid);
}

// The GPU backend says which shape a batch's ga or beam runs take (batch's JSON "layout").
TEST_F(GpuPopulationGridControl, TheBackendNamesItsLayout) {
  const auto backend = gpu::make_gpu_backend();
  EXPECT_EQ(backend->layout(ga(4096, false), 1000, 1), "whole_grid");
  EXPECT_EQ(backend->layout(ga(128, false), 8, 100000), "block_per_run");
  local_search_settings hc;
  hc.algorithm = A::hc;
  EXPECT_EQ(backend->layout(hc, 8, 100), "");
}

// The case on a device, n = 1000 with a population of 4096 for a few generations
// (the device check's memcheck leaves it out by name); scaled down in the host execution.
TEST_F(GpuPopulationGridControl, MatchesTheCpuAtScale) {
  const index_t n = device_or_host(1000, 200);
  const auto settings = ga(device_or_host(4096, 64), false);
  const std::uint64_t max_steps = device_or_host(5, 2);
  ASSERT_EQ(gpu::resolved_population_shape(settings, n, 1), population_shape::whole_grid);
  std::vector<row_t> board;
  std::vector<trace_row> gpu_trace, cpu_trace;
  const auto got =
      gpu::run_population_runs(n, settings, 12, 0, 1, {.max_steps = max_steps}, &board, &gpu_trace);
  local_workspace cpu(n, settings);
  const chain_outcome expected = cpu_run(cpu, 12, 0, max_steps, &cpu_trace);
  EXPECT_EQ(got[0].cost, expected.cost);
  EXPECT_EQ(got[0].steps, expected.steps);
  EXPECT_EQ(board, std::vector<row_t>(cpu.board(), cpu.board() + n));
  ASSERT_EQ(gpu_trace.size(), cpu_trace.size());
  for (std::size_t g = 0; g < cpu_trace.size(); ++g) {
    EXPECT_EQ(gpu_trace[g].cost, cpu_trace[g].cost) << "generation " << g;
    EXPECT_EQ(gpu_trace[g].mean_fitness, cpu_trace[g].mean_fitness) << "generation " << g;
  }
}

// The automatic shape gives the records the forced shapes give: n = 100 with a population of
// 300 goes whole-grid for one run.
TEST_F(GpuPopulationGridControl, BothShapesGiveTheSameRecords) {
  const index_t n = 100;
  const auto settings = ga(300, false);
  ASSERT_EQ(gpu::resolved_population_shape(settings, n, 1), population_shape::whole_grid);
  std::vector<row_t> automatic_board, block_board;
  const auto automatic =
      gpu::run_population_runs(n, settings, 3, 9, 1, {.max_steps = 3}, &automatic_board);
  const auto block = gpu::run_population_runs(
      n, settings, 3, 9, 1, {.max_steps = 3, .shape = population_shape::block_per_run},
      &block_board);
  EXPECT_EQ(automatic[0].cost, block[0].cost);
  EXPECT_EQ(automatic[0].steps, block[0].steps);
  EXPECT_EQ(automatic_board, block_board);
}

// Boards past 8191 queens score with their line counters in global scratch rather than shared
// memory.
TEST_F(GpuPopulationGridControl, LargeBoardsMatchTheCpu) {
  for (const bool permutation : {false, true}) {
    const index_t n = 8200;
    auto settings = ga(6, permutation);
    settings.genetic.elite = 2;
    std::vector<row_t> boards;
    const auto got = whole_grid(n, settings, 4, 0, 1, 2, &boards);
    local_workspace cpu(n, settings);
    const chain_outcome expected = cpu_run(cpu, 4, 0, 2);
    EXPECT_EQ(got[0].cost, expected.cost);
    EXPECT_EQ(got[0].steps, expected.steps);
    EXPECT_EQ(boards, std::vector<row_t>(cpu.board(), cpu.board() + n));
  }
}

// Elitism keeps the best: with an elite, the best cost never rises from one generation to the
// next, even under heavy mutation.
TEST_F(GpuPopulationGridControl, ElitismKeepsTheBest) {
  test::expect_elitism_keeps_the_best(population_shape::whole_grid);
}

// A stop signal raised before the launch ends every run after its start: stopped, no
// generation, a board whose cost is the one reported.
TEST_F(GpuPopulationGridControl, AStopSignalEndsEveryRun) {
  const std::atomic<bool> stop{true};
  std::vector<row_t> boards;
  const index_t n = 12;
  const auto runs = whole_grid(n, ga(32, true), 1, 0, 3, 100000, &boards, nullptr, &stop);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_TRUE(runs[i].stopped) << i;
    EXPECT_EQ(runs[i].steps, 0u) << i;
    EXPECT_EQ(test::brute_force_pairs(
                  std::vector<row_t>(boards.begin() + i * n, boards.begin() + (i + 1) * n)),
              runs[i].cost);
  }
}

// A time limit stops a run that would go on for long. The limit grows from 50 ms until one
// falls after the first generation (on a slow or loaded machine, or under the sanitizers, 50 ms
// can pass while the run is set up); every run on the way must still stop, unsolved.
TEST_F(GpuPopulationGridControl, ATimeLimitStopsTheRun) {
  auto settings = ga(64, false);
  settings.genetic.crossover = 0.0;
  settings.genetic.mutation = 0.0;  // no new genes: a long unsolved run on n = 40
  settings.genetic.equal_parent_mutation = 0.0;
  std::uint64_t steps = 0;
  for (double limit = 0.05; steps == 0 && limit < 20; limit *= 4) {
    const auto runs =
        whole_grid(40, settings, 2, 0, 1, 1'000'000'000, nullptr, nullptr, nullptr, limit);
    EXPECT_TRUE(runs[0].stopped) << limit;
    EXPECT_FALSE(runs[0].solved) << limit;
    steps = runs[0].steps;
  }
  EXPECT_GT(steps, 0u);
}

}  // namespace
}  // namespace nq
