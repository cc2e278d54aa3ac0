// Block-per-run ga and beam against the CPU reference: run i with seed s ends the same way,
// after the same generations, on the same best board, and traces the same generations, on both
// sides. Skipped without a CUDA device (run by host_kernel_test in the host execution).

#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "board_oracles.hpp"
#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/batch.hpp"
#include "population_checks.hpp"

namespace nq {
namespace {

using A = local_algorithm;
using gpu::population_shape;
using test::beam;
using test::device_or_host;
using test::ga;
using test::population_case;

std::vector<population_case> block_per_run_cases() {
  std::vector<population_case> all;
  all.push_back({"ga_columns_small", ga(16, false)});
  all.push_back({"ga_columns_large", ga(300, false)});
  all.push_back({"ga_permutation_small", ga(16, true)});
  all.push_back({"ga_permutation_large", ga(300, true)});
  auto leaders = ga(64, false);
  leaders.genetic.leaders = true;
  leaders.genetic.elite = 3;
  leaders.genetic.mutation_step = 0.01;
  all.push_back({"ga_leaders_mutation_step", leaders});
  auto odd = ga(33, true);  // an odd number of children: the last pair's second is dropped
  odd.genetic.elite = 0;
  odd.genetic.tournament = 5;
  all.push_back({"ga_permutation_odd_no_elite", odd});
  all.push_back({"beam_small", beam(4, false)});
  all.push_back({"beam_large", beam(40, false)});
  all.push_back({"beam_stochastic_small", beam(4, true)});
  all.push_back({"beam_stochastic_large", beam(40, true)});
  return all;
}

using GpuPopulation = test::gpu_param_fixture<population_case>;

/// Generations the comparison runs at n (the host execution plays every block on one thread).
std::uint64_t generations_at(index_t n) { return n >= 100 ? 4 : n >= 32 ? 25 : 200; }
std::uint64_t runs_at(index_t n) {
  return n >= 100  ? device_or_host(8, 2, 1)
         : n >= 32 ? device_or_host(64, 4, 1)
                   : device_or_host(128, 24, 4);
}

// Every run block-per-run (shape 1, forced), whose global-scratch layout the automatic shape
// would hand to the whole grid (gpu_population_grid_test.cpp).
TEST_P(GpuPopulation, MatchesTheCpuRunForRun) {
  for (const index_t n : {1, 4, 8, 13, 32, 100}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    ASSERT_NO_FATAL_FAILURE(test::expect_runs_match_cpu(population_shape::block_per_run, n,
                                                        GetParam().settings, 91, 500, runs_at(n),
                                                        generations_at(n)));
  }
}

// The automatic shape, which at 8 and 13 queens is block-per-run.
TEST_P(GpuPopulation, TracesTheCpuGenerations) {
  for (const index_t n : {8, 13}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    ASSERT_NO_FATAL_FAILURE(test::expect_trace_matches_cpu(population_shape::automatic, n,
                                                           GetParam().settings, 5, 17, 60));
  }
}

INSTANTIATE_TEST_SUITE_P(Searches, GpuPopulation, ::testing::ValuesIn(block_per_run_cases()),
                         [](const auto& info) { return info.param.name; });

using GpuPopulationControl = test::gpu_fixture;

// Elitism keeps the best: with an elite, the best cost never rises from one generation to the
// next.
TEST_F(GpuPopulationControl, ElitismKeepsTheBest) {
  test::expect_elitism_keeps_the_best(population_shape::automatic);
}

// A stop signal raised before the launch ends every run after its start, cleanly: stopped, no
// generation, a board whose cost is the one reported.
TEST_F(GpuPopulationControl, AStopSignalEndsEveryRun) {
  for (const auto& settings : {ga(32, false), beam(8, true)}) {
    const std::atomic<bool> stop{true};
    std::vector<row_t> boards;
    const index_t n = 12;
    const auto runs = gpu::run_population_runs(n, settings, 1, 0, 6, {.max_steps = 100000}, &boards,
                                               nullptr, &stop);
    for (std::size_t i = 0; i < runs.size(); ++i) {
      EXPECT_TRUE(runs[i].stopped || runs[i].solved) << i;
      EXPECT_EQ(runs[i].steps, 0u) << i;
      EXPECT_EQ(test::brute_force_pairs(
                    std::vector<row_t>(boards.begin() + i * n, boards.begin() + (i + 1) * n)),
                runs[i].cost);
    }
  }
}

// A time limit stops a run that would go on for long, on both sides, within the limit's order.
TEST_F(GpuPopulationControl, ATimeLimitStopsTheRun) {
  auto settings = ga(64, false);
  settings.genetic.crossover = 0.0;
  settings.genetic.mutation = 0.0;  // no new genes: a long unsolved run on n = 40
  settings.genetic.equal_parent_mutation = 0.0;
  const auto runs = gpu::run_population_runs(40, settings, 2, 0, 1,
                                             {.max_steps = 1'000'000'000, .time_limit = 0.05});
  EXPECT_TRUE(runs[0].stopped);
  EXPECT_FALSE(runs[0].solved);
  EXPECT_GT(runs[0].steps, 0u);
}

// The GPU backend's tally and records for ga and beam are the CPU backend's.
TEST_F(GpuPopulationControl, BatchesMatchTheCpuBackend) {
  const auto gpu = gpu::make_gpu_backend();
  const auto cpu = make_cpu_backend(0);
  for (const auto& settings : {ga(0, false), ga(24, true), beam(16, false), beam(8, true)}) {
    const index_t n = 8;
    ASSERT_TRUE(gpu->supports(settings, n));
    batch_settings b;
    b.runs = device_or_host(4000, 200, 20);
    b.seed = 4;
    b.limits.max_steps = 300;
    std::vector<chain_outcome> gpu_records, cpu_records;
    b.on_records = [&](std::uint64_t, const std::vector<chain_outcome>& runs) {
      gpu_records.insert(gpu_records.end(), runs.begin(), runs.end());
    };
    const batch_stats on_gpu = run_batch(n, settings, b, *gpu);
    b.on_records = [&](std::uint64_t, const std::vector<chain_outcome>& runs) {
      cpu_records.insert(cpu_records.end(), runs.begin(), runs.end());
    };
    const batch_stats on_cpu = run_batch(n, settings, b, *cpu);
    EXPECT_EQ(on_gpu.solved, on_cpu.solved);
    ASSERT_EQ(gpu_records.size(), cpu_records.size());
    for (std::size_t i = 0; i < cpu_records.size(); ++i) {
      ASSERT_EQ(gpu_records[i].solved, cpu_records[i].solved) << i;
      ASSERT_EQ(gpu_records[i].steps, cpu_records[i].steps) << i;
      ASSERT_EQ(gpu_records[i].cost, cpu_records[i].cost) << i;
    }
  }
}

// Edges of the layouts, run for run against the CPU: populations of 1 to 5 with an elite up to
// the whole population (no pair, or an odd child), tournaments of 0 to 5, leaders with the
// mutation step, beams wider than the block, and n = 140, whose ga line counters exceed the
// shared budget (global scratch).
TEST_F(GpuPopulationControl, EdgeSizesMatchTheCpu) {
  std::vector<std::pair<std::string, local_search_settings>> all;
  for (std::uint32_t p : {1u, 2u, 3u, 5u}) {
    for (std::uint32_t e : {0u, 1u, 2u, 5u}) {
      for (bool perm : {false, true}) {
        for (bool lead : {false, true}) {
          auto s = ga(p, perm);
          s.genetic.elite = e;
          s.genetic.leaders = lead;
          s.genetic.mutation_step = lead ? 0.05 : 0.0;
          s.genetic.tournament = e;  // 0..5
          all.push_back({"ga p" + std::to_string(p) + " e" + std::to_string(e) +
                             (perm ? " perm" : "") + (lead ? " lead" : ""),
                         s});
        }
      }
    }
  }
  for (std::uint32_t w : {1u, 2u, 3u, 129u}) {
    all.push_back({"beam " + std::to_string(w), beam(w, false)});
    all.push_back({"beam stoch " + std::to_string(w), beam(w, true)});
  }
  auto big = ga(7, true);
  big.genetic.elite = 3;
  big.genetic.mutation_step = 0.3;
  all.push_back({"ga big", big});
  auto wide = ga(300, false);
  wide.genetic.elite = 130;
  wide.genetic.mutation_step = 0.001;
  all.push_back({"ga elite130", wide});
  for (const auto& [name, settings] : all) {
    for (const index_t n : {1, 2, 3, 5, 6, 140}) {
      if (n == 140 && settings.algorithm == A::beam && settings.beam.width > 3) continue;
      SCOPED_TRACE(name + " n=" + std::to_string(n));
      const std::uint64_t runs = 3, max_steps = n >= 100 ? 2 : 30;
      std::vector<row_t> boards;
      const auto got = test::shaped_runs(population_shape::block_per_run, n, settings, 7, 11, runs,
                                         max_steps, &boards);
      local_workspace cpu(n, settings);
      for (std::uint64_t i = 0; i < runs; ++i) {
        const chain_outcome expected = test::cpu_run(cpu, 7, 11 + i, max_steps);
        ASSERT_EQ(got[i].cost, expected.cost) << i;
        ASSERT_EQ(got[i].steps, expected.steps) << i;
        const std::vector<row_t> board(boards.begin() + i * n, boards.begin() + (i + 1) * n);
        ASSERT_EQ(board, std::vector<row_t>(cpu.board(), cpu.board() + n)) << i;
      }
    }
  }
}

}  // namespace
}  // namespace nq
