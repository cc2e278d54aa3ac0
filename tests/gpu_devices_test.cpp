// One count on several GPUs, the way `nqueens count --device gpu` and `--device all` run it:
// a frame counter per device, one host thread each, all taking frames from one source. In the
// host execution each device is played by a stream of its own (gpu::set_host_devices); on a
// machine with fewer GPUs than a test asks for, counters share a device.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "gpu_fixture.hpp"
#include "kernel_tests.hpp"
#include "kernels/gpu.hpp"
#include "nqueens/count.hpp"
#include "nqueens/error.hpp"
#include "oeis.hpp"
#include "scratch.hpp"

namespace nq {
namespace {

using test::a000170;
using test::a002562;

class GpuDevices : public test::gpu_fixture {
 protected:
  void TearDown() override { gpu::set_host_devices(1); }

  /// Settings that count n on `devices` devices (counter i on device i, or i modulo the GPUs
  /// there are); `on_frame` hears every frame reported, from the device threads.
  count_settings on_devices(int n, int devices,
                            std::function<void(const finished_subproblem&)> on_frame = {}) {
    gpu::set_host_devices(devices);
    counters.clear();
    count_settings settings;
    if (n < 4) return settings;
    settings.slice_frames = true;
    for (int d = 0; d < devices; ++d) {
      counters.push_back(std::make_unique<gpu::frame_counter>(n, -1, d % gpu::device_count()));
      gpu::frame_counter* counter = counters.back().get();
      settings.slice_size = counter->frames();
      settings.slice_counters.push_back([counter, on_frame](const std::vector<std::uint32_t>& slice,
                                                            const std::atomic<bool>* stop,
                                                            const auto& finished) {
        counter->count(slice, stop, [&](std::span<const finished_subproblem> done) {
          finished(done);
          if (on_frame)
            for (const finished_subproblem& f : done) on_frame(f);
        });
      });
    }
    return settings;
  }
  std::vector<std::unique_ptr<gpu::frame_counter>> counters;
  test::scratch_dir dir;
  std::string path = (dir / "count.json").string();
};

// OEIS for 1, 2 and 3 devices; together they count every frame once.
TEST_F(GpuDevices, OneTwoOrThreeDevicesMatchOeis) {
  for (int devices = 1; devices <= 3; ++devices)
    for (int n = 4; n <= test::device_or_host(16, 13); ++n) {
      const count_result result = count_solutions(n, on_devices(n, devices));
      EXPECT_TRUE(result.complete);
      EXPECT_EQ(result.solutions, a000170[n - 1]) << "n=" << n << " on " << devices;
      EXPECT_EQ(result.unique, a002562[n - 1]) << "n=" << n << " on " << devices;
      std::uint64_t frames = 0;
      for (const std::uint64_t f : result.by_slice_counter) frames += f;
      EXPECT_EQ(frames, result.subproblems);
    }
}

// A stop while three devices count lands on all of them within a second; the checkpoint
// resumes on two devices, which are stopped too, then on one, and a two-device checkpoint on
// the CPU: every total exact.
TEST_F(GpuDevices, AStopLandsOnEveryDeviceAndResumesExactly) {
  const int n = test::device_or_host(17, 14);
  std::uint64_t done_before = 0;
  for (const int devices : {3, 2}) {
    std::atomic<bool> stop{false};
    std::chrono::steady_clock::time_point raised;
    count_settings settings = on_devices(n, devices, [&](const finished_subproblem& f) {
      if (f.tally.solutions > 0 && !stop.exchange(true)) raised = std::chrono::steady_clock::now();
    });
    settings.checkpoint = path;
    settings.stop = &stop;
    const count_result part = count_solutions(n, settings);
    const double landed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - raised).count();
    ASSERT_TRUE(stop.load());
    ASSERT_FALSE(part.complete) << devices << " devices";
    EXPECT_EQ(part.resumed, done_before);
    EXPECT_GT(part.subproblems_done, done_before);
    EXPECT_LT(landed, 1.0) << "the stop took " << landed << " s to land on " << devices;
    done_before = part.subproblems_done;
  }
  // The two-device checkpoint, once on one device and once on the CPU.
  const std::string copy = (dir / "copy.json").string();
  std::filesystem::copy_file(path, copy);
  count_settings one = on_devices(n, 1);
  one.checkpoint = path;
  const count_result rest = count_solutions(n, one);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.resumed, done_before);
  EXPECT_EQ(rest.solutions, a000170[n - 1]);
  EXPECT_EQ(rest.unique, a002562[n - 1]);
  count_settings cpu;
  cpu.threads = 2;
  cpu.checkpoint = copy;
  const count_result on_cpu = count_solutions(n, cpu);
  EXPECT_TRUE(on_cpu.complete);
  EXPECT_EQ(on_cpu.resumed, done_before);
  EXPECT_EQ(on_cpu.solutions, a000170[n - 1]);
  EXPECT_EQ(on_cpu.unique, a002562[n - 1]);
}

// --device all: CPU threads take the small frames from the same source as the devices.
TEST_F(GpuDevices, CpuThreadsAndDevicesShareOneCount) {
  for (const int devices : {1, 2}) {
    const int n = test::device_or_host(16, 13);
    count_settings settings = on_devices(n, devices);
    settings.cpu_beside_slices = true;
    settings.threads = 2;
    const count_result result = count_solutions(n, settings);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.solutions, a000170[n - 1]) << devices << " devices";
    EXPECT_EQ(result.unique, a002562[n - 1]) << devices << " devices";
    std::uint64_t frames = result.by_cpu;
    for (const std::uint64_t f : result.by_slice_counter) frames += f;
    EXPECT_EQ(frames, result.subproblems);  // who counted what depends on the threads' start
  }
}

TEST_F(GpuDevices, AFrameCounterRefusesADeviceThatIsNotThere) {
  gpu::set_host_devices(2);
  EXPECT_NO_THROW(gpu::frame_counter(10, -1, gpu::device_count() - 1));
  EXPECT_THROW(gpu::frame_counter(10, -1, gpu::device_count()), resource_error);
  EXPECT_THROW(gpu::frame_counter(10, -1, -1), resource_error);
}

// The batch backend works on its own device whichever host thread runs it: a thread starts on
// device 0 (the device is per thread, as cudaSetDevice's), and the backend was made on another.
TEST_F(GpuDevices, TheBatchBackendRunsOnItsDeviceFromAnyThread) {
  gpu::set_host_devices(2);
  if (gpu::device_count() < 2) GTEST_SKIP() << "one GPU";
  const auto backend = gpu::make_gpu_backend({.device = 1, .slice_runs = 64});
  local_search_settings hc;
  hc.algorithm = local_algorithm::hc;
  std::vector<int> batch_devices, alone_devices;
  std::thread([&] {
    batch_job job;
    job.n = 8;
    job.algorithm = hc;
    job.count = 128;
    batch_tally tally;
    backend->run(
        job, tally, nullptr, [&](std::uint64_t) { batch_devices.push_back(gpu::current_device()); },
        nullptr);
  }).join();
  std::thread([&] {
    std::vector<row_t> board;
    backend->run_alone(8, hc, 1, 0, {}, board,
                       [&](const trace_row&) { alone_devices.push_back(gpu::current_device()); });
  }).join();
  EXPECT_EQ(batch_devices, std::vector<int>(2, 1));  // a report after each launch of 64
  ASSERT_FALSE(alone_devices.empty());
  EXPECT_EQ(alone_devices, std::vector<int>(alone_devices.size(), 1));
}

}  // namespace
}  // namespace nq
