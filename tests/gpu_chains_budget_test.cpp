// What thread-per-run chains and the GPU batch backend pay the host (gpu::costs), held to
// bounds that follow from their design: no per-run record crosses back unless the caller asks
// for it, a batch is one launch whatever its runs, and a launch's global scratch is per
// resident thread, not per run.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/chains.cuh"
#include "kernels/gpu.hpp"
#include "nqueens/batch.hpp"

namespace nq {
namespace {

using A = local_algorithm;

using GpuChainsBudget = test::gpu_fixture;

/// Runs `runs` of `a` on n queens on the GPU backend as the CLI does: with a stop to raise (never
/// raised here), which once kept every run's record. Returns what the batch cost the host.
gpu::gpu_costs stoppable_batch_costs(A a, index_t n, std::uint64_t runs, batch_tally& tally) {
  local_search_settings settings;
  settings.algorithm = a;
  std::atomic<bool> stop{false};
  batch_settings b;
  b.runs = runs;
  b.seed = 3;
  b.limits.stop = &stop;
  b.tally = &tally;
  const auto backend = gpu::make_gpu_backend();
  const gpu::gpu_costs before = gpu::costs();
  const batch_stats stats = run_batch(n, settings, b, *backend);
  EXPECT_EQ(stats.runs, runs);
  return gpu::costs() - before;
}

// Issue 44: a batch of hc at n = 8 with a stop armed (as the command line runs it) is one
// persistent launch, its statistics reduced on the device: launches, waits, allocations, copies
// and the bytes they bring back are the same for 2^16 runs and for 2^22, and there is no Thrust
// call. At a666a80 the batch was cut into slices of 2^20 runs, each with its allocations, four
// Thrust calls and a copy of its distinct step counts: four times the launches at 2^22.
TEST_F(GpuChainsBudget, AStoppableBatchCostsTheSameWhateverItsRuns) {
  const std::uint64_t small = std::uint64_t{1} << 16;
  const std::uint64_t large = test::device_or_host(std::uint64_t{1} << 22,
                                                   std::uint64_t{1} << 22, std::uint64_t{1} << 18);
  batch_tally small_tally, large_tally;
  const gpu::gpu_costs few = stoppable_batch_costs(A::hc, 8, small, small_tally);
  const gpu::gpu_costs many = stoppable_batch_costs(A::hc, 8, large, large_tally);
  EXPECT_LE(many.launches, 2u);
  EXPECT_EQ(many.launches, few.launches);
  EXPECT_EQ(many.syncs, few.syncs);
  EXPECT_EQ(many.allocations, few.allocations);
  EXPECT_EQ(many.allocated_bytes, few.allocated_bytes);
  EXPECT_EQ(many.to_host_copies, few.to_host_copies);
  EXPECT_EQ(many.to_host_bytes, few.to_host_bytes);
  EXPECT_EQ(many.to_device_copies, few.to_device_copies);
  EXPECT_EQ(many.thrust_calls, 0u);
  EXPECT_EQ(few.thrust_calls, 0u);
  // A few kilobytes (the tally's head: 4,128 bytes), where a record is 40 bytes a run.
  EXPECT_LE(many.to_host_bytes, 8u * 1024);
  EXPECT_EQ(large_tally.success.runs() + large_tally.failure.runs(), large);
  // The figures, for a record (--gtest_output=json): the same for both sizes.
  RecordProperty("launches", static_cast<int>(many.launches));
  RecordProperty("syncs", static_cast<int>(many.syncs));
  RecordProperty("allocations", static_cast<int>(many.allocations));
  RecordProperty("to_host_copies", static_cast<int>(many.to_host_copies));
  RecordProperty("to_host_bytes", static_cast<int>(many.to_host_bytes));
}

// A stoppable batch is one launch of the backend, whatever the runs in it.
TEST_F(GpuChainsBudget, AStoppableBatchIsOneLaunch) {
  const std::uint64_t runs = test::device_or_host(std::uint64_t{1} << 20, std::uint64_t{5000});
  batch_tally tally;
  const gpu::gpu_costs spent = stoppable_batch_costs(A::hc, 4, runs, tally);
  EXPECT_EQ(spent.launches, 1u);
  EXPECT_LE(spent.to_host_copies, 2u);
}

// A stop drops the launch it reaches, so above 32 queens, where runs are long, a launch holds
// no more runs than a board each would fit in 2 GiB of scratch (at 1,000 queens, 153,391).
TEST_F(GpuChainsBudget, ALaunchAboveThirtyTwoQueensHoldsWhatAStopMayDrop) {
  for (const index_t n : {33, 1000, 10'000}) {
    const std::uint64_t most = cuda::max_chains_per_launch(n);
    EXPECT_GE(most, 1u);
    EXPECT_LE(most * cuda::scratch_per_chain(n), std::uint64_t{2} << 30) << "n=" << n;
  }
  EXPECT_EQ(cuda::max_chains_per_launch(32), std::uint64_t{1} << 24);
}

// Persistent threads reuse their scratch for each run they take: a launch above 32 queens
// allocates its outcomes, its run counter and at most one board a resident thread (2,048 an
// SM), however many runs it holds; it once took one board a run.
TEST_F(GpuChainsBudget, ScratchIsPerResidentThreadNotPerRun) {
  constexpr index_t n = 40;
  // More runs than resident threads, on a device (2,048 an SM) and in the host execution.
  const std::uint64_t runs = test::device_or_host(std::uint64_t{1} << 20, std::uint64_t{8192});
  local_search_settings settings;
  settings.algorithm = A::sa;
  const std::uint64_t resident = std::uint64_t{gpu::make_gpu_backend()->workers()} * 2048;
  const gpu::gpu_costs before = gpu::costs();
  const auto outcomes = gpu::run_thread_chains(n, settings, 5, 0, runs, {.max_steps = 1});
  const gpu::gpu_costs spent = gpu::costs() - before;
  ASSERT_EQ(outcomes.size(), runs);
  const std::uint64_t bound = runs * sizeof(chain_outcome) + sizeof(unsigned long long) +
                              std::min(runs, resident) * cuda::scratch_per_chain(n);
  EXPECT_LE(spent.allocated_bytes, bound);
}

}  // namespace
}  // namespace nq
