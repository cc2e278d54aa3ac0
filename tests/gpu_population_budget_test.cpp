// Budgets of ga and beam (gpu::costs): a run of 2G generations against one of G,
// so that what the run pays once cancels and what is left is G generations' worth. Every
// run here is one that cannot be solved in 2G generations (checked), so both run to max_steps.
// Skipped without a CUDA device (run by host_kernel_test in the host execution).

#include <gtest/gtest.h>

#include <bit>

#include "gpu_fixture.hpp"
#include "kernels/gpu.hpp"
#include "population_checks.hpp"

namespace nq {
namespace {

constexpr std::uint64_t generations = 64;  // G; a batch holds at most 32 (grid_control.cuh)

/// What G more generations cost: a run of 2G less a run of G.
gpu::gpu_costs cost_of_g_generations(index_t n, const local_search_settings& settings) {
  const auto spend = [&](std::uint64_t max_steps) {
    const gpu::gpu_costs before = gpu::costs();
    const auto runs = test::whole_grid(n, settings, 7, 0, 1, max_steps, nullptr);
    const gpu::gpu_costs spent = gpu::costs() - before;
    EXPECT_EQ(runs[0].steps, max_steps) << "the run must not end early";
    return spent;
  };
  const gpu::gpu_costs once = spend(generations), twice = spend(2 * generations);
  return twice - once;
}

/// A ga that cannot improve (no crossover, no mutation: children copy their parents) on
/// n = 40 with a population of 64, 16 of them ranked as the elite (the select path).
local_search_settings stuck_ga() {
  local_search_settings s;
  s.algorithm = local_algorithm::ga;
  s.genetic.population = 64;
  s.genetic.elite = 16;
  s.genetic.crossover = 0.0;
  s.genetic.mutation = 0.0;
  s.genetic.equal_parent_mutation = 0.0;
  return s;
}

/// A beam of 4, run on 3 queens, which have no solution.
local_search_settings stuck_beam(bool stochastic) { return test::beam(4, stochastic); }

using GpuPopulationGridBudget = test::gpu_fixture;

// Thrust's temporaries (the elite's sort) are taken by the run's first generation and reused.
TEST_F(GpuPopulationGridBudget, AGenerationAllocatesNothingAfterTheFirst) {
  const gpu::gpu_costs spent = cost_of_g_generations(40, stuck_ga());
  EXPECT_EQ(spent.allocations, 0u);
  EXPECT_EQ(spent.allocated_bytes, 0u);
}

// The device decides when the run ends; the host waits once per batch of 32 generations (the
// batches grow 1, 2, 4, ..., 32, the same in both runs up to generation 63): at most G/32 + 1
// waits for G generations, no copy. Launches of a generation, elite 16 on n = 40: the select
// (begin, 4 passes over 42 key bits, take), the elite's copy, the parents, the children, and
// the scoring (reset, score, the generation's end): 12.
TEST_F(GpuPopulationGridBudget, AGenerationNeedsNoBlockingCopy) {
  const gpu::gpu_costs spent = cost_of_g_generations(40, stuck_ga());
  EXPECT_EQ(spent.to_host_copies, 0u);
  EXPECT_EQ(spent.to_device_copies, 0u);
  EXPECT_LE(spent.syncs, generations / 32 + 1);
  EXPECT_LE(spent.launches, 12 * generations);
}

using GpuBeamBudget = test::gpu_fixture;

TEST_F(GpuBeamBudget, AGenerationAllocatesNothingAfterTheFirst) {
  for (const bool stochastic : {false, true}) {
    const gpu::gpu_costs spent = cost_of_g_generations(3, stuck_beam(stochastic));
    EXPECT_EQ(spent.allocations, 0u) << stochastic;
    EXPECT_EQ(spent.allocated_bytes, 0u) << stochastic;
  }
}

// As for ga. Launches of a generation: plain, the scoring, two cuts, the select (begin, 4
// passes over 34 key bits, 1 over the 5 bits of 24 successors' numbers, take), the take and
// the generation's end: 12; stochastic, the scoring, two cuts, the targets, the take and the
// end: 6 (the scan and the search are Thrust's, in stream order).
TEST_F(GpuBeamBudget, AGenerationNeedsNoBlockingCopy) {
  for (const bool stochastic : {false, true}) {
    const gpu::gpu_costs spent = cost_of_g_generations(3, stuck_beam(stochastic));
    EXPECT_EQ(spent.to_host_copies, 0u) << stochastic;
    EXPECT_EQ(spent.to_device_copies, 0u) << stochastic;
    EXPECT_LE(spent.syncs, generations / 32 + 1) << stochastic;
    EXPECT_LE(spent.launches, (stochastic ? 6 : 12) * generations) << stochastic;
  }
}

// Keeping 16 of 16 n(n-1) successors on n = 200 takes no memory per successor beyond its key
// (8 bytes): the run's buffers (two beams of 16 states with their line counters, the keys)
// and the selection's state and sort, O(width), and no more. A full sort of every successor
// carries each one's number and takes temporaries for all of them (16 bytes or more each).
TEST_F(GpuBeamBudget, KeepingKTakesNoMemoryPerSuccessorBeyondItsKey) {
  const index_t n = 200;
  const std::uint64_t width = 16, successors = width * n * (n - 1);
  auto settings = stuck_beam(false);
  settings.beam.width = width;
  const gpu::gpu_costs before = gpu::costs();
  test::whole_grid(n, settings, 7, 0, 1, 2, nullptr);
  const gpu::gpu_costs spent = gpu::costs() - before;
  const std::uint64_t beams = 2 * width * (n * sizeof(row_t) + (5 * n - 2) * 2 + 4);
  const std::uint64_t per_width = 64 * 1024 + 64 * width;  // select state, sort temporaries
  EXPECT_LE(spent.allocated_bytes, 8 * successors + beams + per_width);
}

/// Block phases (barriers) G more generations of one block-per-run beam take (as above).
std::uint64_t block_phases_of_g_generations(index_t n, std::uint32_t width) {
  auto settings = stuck_beam(false);
  settings.beam.width = width;
  const auto spend = [&](std::uint64_t max_steps) {
    const gpu::gpu_costs before = gpu::costs();
    const auto runs = gpu::run_population_runs(
        n, settings, 7, 0, 1,
        {.max_steps = max_steps, .shape = gpu::population_shape::block_per_run}, nullptr);
    const gpu::gpu_costs spent = gpu::costs() - before;
    EXPECT_EQ(runs.at(0).steps, max_steps) << "the run must not end early";
    return spent.block_phases;
  };
  return spend(2 * generations) - spend(generations);
}

/// Radix passes over `bits` bits, 8 a pass.
std::uint64_t passes(unsigned bits) { return (bits + 7) / 8; }

// A block beam keeps its k best of k n(n-1) successors by a radix select: per generation the
// keys (1 phase), the select's start (1) and 4 a pass (clear, histogram, scan, find) over the
// key's bits then the successor numbers' bits, the compaction (scan, place, rank: 3), the take
// (1) and the summary (least, sum, record: 3): 9 + 4 passes, with passes <= ceil(64 / 8) +
// ceil(log2(k n(n-1)) / 8): from k = 4 to k = 64 one more pass at most. Taking the k least by k
// block-wide minima (58aadf2) took at least 2k phases: 128 at k = 64.
TEST_F(GpuBeamBudget, KeepingKTakesBlockPhasesThatDoNotGrowWithK) {
  if (!gpu::counts_phases()) GTEST_SKIP() << "block phases are counted by the host execution";
  const index_t n = 3;  // no solution: every run goes to max_steps
  std::uint64_t per_generation[2] = {};
  const std::uint32_t widths[2] = {4, 64};
  for (int i = 0; i < 2; ++i) {
    const std::uint64_t successors = std::uint64_t{widths[i]} * n * (n - 1);
    const std::uint64_t phases = block_phases_of_g_generations(n, widths[i]);
    per_generation[i] = (phases + generations - 1) / generations;  // the select may settle early
    EXPECT_LE(per_generation[i], 9 + 4 * (passes(64) + passes(std::bit_width(successors))))
        << "k = " << widths[i];
  }
  EXPECT_LE(per_generation[1], per_generation[0] + 4)
      << per_generation[0] << " phases a generation at k = 4";
}

}  // namespace
}  // namespace nq
