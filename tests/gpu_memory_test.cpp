// A device out of memory is reported as one (a cuda_error: exit 3, "GPU out of memory") where
// Thrust runs out as well as where we allocate: every Thrust call takes its temporaries from
// our allocator. In the host execution the played devices' memory is capped
// (gpu::set_host_device_memory); a real device's is not, so the tests skip there.

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "gpu_fixture.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/error.hpp"
#include "nqueens/placement_solver.hpp"

namespace nq {
namespace {

using operation = std::function<void()>;

class GpuMemory : public test::gpu_fixture {
 protected:
  void SetUp() override {
    gpu_fixture::SetUp();
    if (IsSkipped()) return;
    if (!gpu::set_host_device_memory(0)) GTEST_SKIP() << "a device's memory cannot be capped";
  }
  void TearDown() override { gpu::set_host_device_memory(0); }
};

/// What `op` throws with `bytes` of device memory: "" when it runs. Either way it leaves every
/// byte free again, Thrust's temporaries freed at the size they took.
std::string refusal(std::uint64_t bytes, const operation& op) {
  gpu::set_host_device_memory(bytes);
  std::string message;
  try {
    op();
  } catch (const device_error& e) {
    message = e.what();
  }
  EXPECT_EQ(gpu::device_free_bytes(), bytes) << message;
  return message;
}

/// What `op` throws with one byte less than the least memory it runs in: where it allocates
/// its peak, the last allocation made.
std::string refusal_at_the_peak(const operation& op) {
  std::uint64_t refused = 1, runs = std::uint64_t{1} << 30;
  EXPECT_NE(refusal(refused, op), "");
  EXPECT_EQ(refusal(runs, op), "");
  while (runs - refused > 1) {
    const std::uint64_t mid = refused + (runs - refused) / 2;
    (refusal(mid, op).empty() ? runs : refused) = mid;
  }
  return refusal(refused, op);
}

void expect_gpu_memory_refused(const std::string& message, const char* step) {
  EXPECT_NE(message.find("GPU out of memory"), std::string::npos) << message;
  EXPECT_NE(message.find(step), std::string::npos) << message;
}

// The batch backend tallies the runs on the device: the tally's bins come last, on top of every
// buffer of the batch, and the refusal names them.
TEST_F(GpuMemory, TheBatchTallyRunsOutOfGpuMemory) {
  batch_job job;
  job.n = 8;
  job.algorithm.algorithm = local_algorithm::hc;
  job.count = 256;
  // The backend keeps its buffers from job to job: one a try, so that each try frees them.
  expect_gpu_memory_refused(refusal_at_the_peak([&] {
                              const auto backend = gpu::make_gpu_backend();
                              batch_tally tally;
                              backend->run(job, tally, nullptr, {}, nullptr);
                            }),
                            "the batch's tally");
}

// Whole-grid beam sorts every generation's successors.
TEST_F(GpuMemory, TheBeamSortRunsOutOfGpuMemory) {
  local_search_settings beam;
  beam.algorithm = local_algorithm::beam;
  beam.beam.width = 4;
  gpu::chain_options options{.max_steps = 2, .shape = gpu::population_shape::whole_grid};
  expect_gpu_memory_refused(
      refusal_at_the_peak([&] { gpu::run_population_runs(12, beam, 1, 0, 1, options); }),
      "sorting the successors");
}

// Whole-grid ga ranks more than 8 elites with one sort.
TEST_F(GpuMemory, TheEliteSortRunsOutOfGpuMemory) {
  local_search_settings ga;
  ga.algorithm = local_algorithm::ga;
  ga.genetic.population = 64;
  ga.genetic.elite = 16;
  gpu::chain_options options{.max_steps = 2, .shape = gpu::population_shape::whole_grid};
  expect_gpu_memory_refused(
      refusal_at_the_peak([&] { gpu::run_population_runs(12, ga, 1, 0, 1, options); }),
      "ranking the elite");
}

// The placement allocates all its device memory up front (it sorts its deferred columns on the
// host): a device short of it says so, whichever array it was.
TEST_F(GpuMemory, ThePlacementRunsOutOfGpuMemory) {
  placement_settings settings;
  settings.seed = 5;
  expect_gpu_memory_refused(refusal_at_the_peak([&] { gpu::solve_placement(1000, settings); }),
                            "asked for");
}

}  // namespace
}  // namespace nq
