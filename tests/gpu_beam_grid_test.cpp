// Whole-grid beam (shape 2) against the CPU reference: a beam whose successors the whole grid
// scores and sorts (or draws from) generation by generation ends as the CPU's run of the same
// (seed, run) does, after the same generations, on the same best board, through the same trace.
// Skipped without a CUDA device (run by host_kernel_test in the host execution).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "board_oracles.hpp"
#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "population_checks.hpp"

namespace nq {
namespace {

using gpu::population_shape;
using test::beam;
using test::cpu_run;
using test::device_or_host;
using test::population_case;
using test::whole_grid;

// Widths 1, small, and wider than a block of the grid's kernels (256 threads).
std::vector<population_case> beam_cases() {
  std::vector<population_case> all;
  for (const bool stochastic : {false, true})
    for (const std::uint32_t width : {1u, 5u, 300u})
      all.push_back({std::string(stochastic ? "stochastic_" : "plain_") + std::to_string(width),
                     beam(width, stochastic)});
  return all;
}

using GpuBeamGrid = test::gpu_param_fixture<population_case>;

// n = 2: every board costs 1, so every successor has fitness 0 (the stochastic draw's
// zero-total path takes the last successor, as the CPU does).
TEST_P(GpuBeamGrid, MatchesTheCpuRunForRun) {
  for (const index_t n : {1, 2, 3, 4, 8, 13, 32, 100}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    // 3 million successors a generation: a minute under the sanitizers on one CPU thread.
    if (test::host_sizes() && n == 100 && GetParam().settings.beam.width > 5) continue;
    const std::uint64_t runs = n >= 32 ? 2 : device_or_host(12, 4);
    const std::uint64_t max_steps = n >= 100 ? 3 : n >= 32 ? 12 : 80;
    ASSERT_NO_FATAL_FAILURE(test::expect_runs_match_cpu(
        population_shape::whole_grid, n, GetParam().settings, 29, 1000, runs, max_steps));
  }
}

TEST_P(GpuBeamGrid, TracesTheCpuGenerations) {
  for (const index_t n : {2, 8, 13}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    ASSERT_NO_FATAL_FAILURE(test::expect_trace_matches_cpu(population_shape::whole_grid, n,
                                                           GetParam().settings, 5, 17, 60));
  }
}

INSTANTIATE_TEST_SUITE_P(Searches, GpuBeamGrid, ::testing::ValuesIn(beam_cases()),
                         [](const auto& info) { return info.param.name; });

using GpuBeamGridControl = test::gpu_fixture;

// The automatic shape, as for ga: whole-grid for beams whose block-per-run workspace (the
// successors' keys) does not fit in a block's shared memory, when a launch holds few runs.
TEST_F(GpuBeamGridControl, TheAutomaticShapeFollowsTheRule) {
  EXPECT_EQ(gpu::resolved_population_shape(beam(64, false), 200, 1), population_shape::whole_grid);
  EXPECT_EQ(gpu::resolved_population_shape(beam(64, true), 200, 127), population_shape::whole_grid);
  EXPECT_EQ(gpu::resolved_population_shape(beam(64, false), 200, 128),
            population_shape::block_per_run);
  EXPECT_EQ(gpu::resolved_population_shape(beam(16, false), 8, 1), population_shape::block_per_run);
  EXPECT_EQ(
      gpu::resolved_population_shape(beam(64, false), 200, 1, population_shape::block_per_run),
      population_shape::block_per_run);
  EXPECT_EQ(gpu::resolved_population_shape(beam(16, true), 8, 1, population_shape::whole_grid),
            population_shape::whole_grid);
}

// batch's JSON "layout" for beam, as for ga.
TEST_F(GpuBeamGridControl, TheBackendNamesItsLayout) {
  const auto backend = gpu::make_gpu_backend();
  EXPECT_EQ(backend->layout(beam(64, false), 200, 1), "whole_grid");
  EXPECT_EQ(backend->layout(beam(16, false), 8, 100000), "block_per_run");
}

// The automatic shape gives the records the forced block-per-run shape gives: n = 100 with a
// beam of 64 goes whole-grid for one run.
TEST_F(GpuBeamGridControl, BothShapesGiveTheSameRecords) {
  const index_t n = 100;
  for (const bool stochastic : {false, true}) {
    const auto settings = beam(64, stochastic);
    ASSERT_EQ(gpu::resolved_population_shape(settings, n, 1), population_shape::whole_grid);
    std::vector<row_t> automatic_board, block_board;
    const auto automatic =
        gpu::run_population_runs(n, settings, 3, 9, 1, {.max_steps = 3}, &automatic_board);
    const auto block = gpu::run_population_runs(
        n, settings, 3, 9, 1, {.max_steps = 3, .shape = population_shape::block_per_run},
        &block_board);
    EXPECT_EQ(automatic[0].cost, block[0].cost) << stochastic;
    EXPECT_EQ(automatic[0].steps, block[0].steps) << stochastic;
    EXPECT_EQ(automatic_board, block_board) << stochastic;
  }
}

// A large board, both variants: on a device 2000 queens with the default width (64 million
// successors a generation); scaled down in the host execution.
TEST_F(GpuBeamGridControl, LargeBoardsMatchTheCpu) {
  const index_t n = device_or_host(2000, 1000);
  for (const bool stochastic : {false, true}) {
    SCOPED_TRACE(stochastic ? "stochastic" : "plain");
    const auto settings = beam(device_or_host(16u, 2u), stochastic);
    ASSERT_NO_FATAL_FAILURE(
        test::expect_runs_match_cpu(population_shape::whole_grid, n, settings, 4, 0, 1, 2));
  }
}

// A stop raised before the launch ends every run after its start: stopped, no generation, a
// board whose cost is the one reported.
TEST_F(GpuBeamGridControl, AStopSignalEndsEveryRun) {
  const std::atomic<bool> stop{true};
  const index_t n = 12;
  for (const bool stochastic : {false, true}) {
    std::vector<row_t> boards;
    const auto runs = whole_grid(n, beam(8, stochastic), 1, 0, 3, 100000, &boards, nullptr, &stop);
    for (std::size_t i = 0; i < runs.size(); ++i) {
      EXPECT_TRUE(runs[i].stopped) << i;
      EXPECT_EQ(runs[i].steps, 0u) << i;
      EXPECT_EQ(test::brute_force_pairs(
                    std::vector<row_t>(boards.begin() + i * n, boards.begin() + (i + 1) * n)),
                runs[i].cost)
          << i;
    }
  }
}

// A stop raised while a run goes on (3 queens have no solution: it would never end) ends it at
// its next generation.
TEST_F(GpuBeamGridControl, AStopRaisedDuringARunEndsIt) {
  for (const bool stochastic : {false, true}) {
    std::atomic<bool> stop{false};
    std::thread raise([&stop] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      stop = true;
    });
    std::vector<row_t> board;
    const auto runs =
        whole_grid(3, beam(4, stochastic), 2, 0, 1, 1'000'000'000, &board, nullptr, &stop);
    raise.join();
    EXPECT_TRUE(runs[0].stopped) << stochastic;
    EXPECT_FALSE(runs[0].solved) << stochastic;
    EXPECT_EQ(test::brute_force_pairs(board), runs[0].cost) << stochastic;
  }
}

// A time limit stops a run that would go on for long (n = 3 never ends). The clock starts
// before generation 0, whose launches take long under compute-sanitizer: 0.5 s leaves room.
TEST_F(GpuBeamGridControl, ATimeLimitStopsTheRun) {
  const auto runs =
      whole_grid(3, beam(4, false), 2, 0, 1, 1'000'000'000, nullptr, nullptr, nullptr, 0.5);
  EXPECT_TRUE(runs[0].stopped);
  EXPECT_FALSE(runs[0].solved);
  EXPECT_GT(runs[0].steps, 0u);
}

}  // namespace
}  // namespace nq
