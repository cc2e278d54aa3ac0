// The engine with the host execution of the kernels as its GPU (nq_engine_host): the benchmark's
// GPU figures and speed-ups, as a machine with one GPU makes them.

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "nqueens/bench.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/lattice.hpp"

namespace nq {
namespace {

TEST(EngineBenchOnTheHostGpu, MeasuresEachWorkloadOnTheCpuAndTheGpuAndTheirRatios) {
  ASSERT_EQ(gpu_count(), 1);  // the host execution plays one device
  bench_request request;
  request.suite = bench_suite::quick;
  request.workloads = {"batch-hc", "count-12"};
  std::size_t calls = 0;
  request.progress = [&](std::size_t done, std::size_t total, const std::string&) {
    EXPECT_EQ(done, ++calls);
    EXPECT_EQ(total, 6u);
  };
  const bench_report report = run(request);
  ASSERT_EQ(report.gpus.size(), 1u);
  EXPECT_EQ(report.gpus[0].name, "host execution");
  EXPECT_EQ(report.cuda, "host execution");
  ASSERT_EQ(report.figures.size(), 6u);  // two workloads on one core, every core and gpu0
  for (const auto& f : report.figures) {
    EXPECT_TRUE(f.ran) << f.workload.name << " on " << f.target.on << ": " << f.why_not;
    EXPECT_GT(f.median, 0);
  }
  // The same work on each target: the GPU's batch and count are the CPU's runs and solutions.
  EXPECT_EQ(report.figures[0].work, report.figures[2].work);
  EXPECT_EQ(report.figures[3].work, 14200);  // count-12's solutions, on every target
  EXPECT_EQ(report.figures[5].work, 14200);
  EXPECT_EQ(report.figures[2].command, "nqueens batch -n 8 -a hc -r 20000 --device gpu -q");
  // The GPU's figures carry the kernels' time beside the wall clock's, and no CPU vector path;
  // the CPU's the reverse.
  for (const std::size_t gpu : {2u, 5u}) {
    const bench_figure& f = report.figures[gpu];
    EXPECT_GE(f.kernel_seconds_median, 0) << f.workload.name;
    EXPECT_LE(f.kernel_seconds_median, f.seconds_median) << f.workload.name;
    EXPECT_DOUBLE_EQ(f.kernel_median, f.work / std::max(f.kernel_seconds_median, 1e-12));
    EXPECT_EQ(f.simd, "") << f.workload.name;
  }
  EXPECT_EQ(report.figures[0].kernel_seconds_median, -1);
  EXPECT_EQ(report.figures[0].simd, "off");
  EXPECT_EQ(report.figures[5].command, "nqueens count -n 12 --device gpu --devices 0 -q");
  ASSERT_EQ(report.speedups.size(), 2u);
  for (const auto& s : report.speedups) {
    EXPECT_EQ(s.on, "gpu0");
    ASSERT_TRUE(s.over_all_cores && s.over_one_core);
  }
  const auto& hc = report.speedups[0];
  EXPECT_DOUBLE_EQ(*hc.over_one_core, report.figures[2].median / report.figures[0].median);
  EXPECT_DOUBLE_EQ(*hc.over_all_cores, report.figures[2].median / report.figures[1].median);
  const auto record = nlohmann::json::parse(to_json(report));
  EXPECT_EQ(record["figures"][2]["on"], "gpu0");
  EXPECT_TRUE(record["figures"][2]["per_core"].is_null());
  EXPECT_EQ(record["speedups"].size(), 2u);
}

TEST(EngineBenchOnTheHostGpu, AStopEndsTheRunWithTheFiguresBefore) {
  std::atomic<bool> stop{false};
  bench_request request;
  request.suite = bench_suite::quick;
  request.workloads = {"batch-hc", "count-12"};
  request.device = device_kind::cpu;
  request.stop.flag = &stop;
  request.progress = [&](std::size_t done, std::size_t, const std::string&) {
    if (done == 2) stop.store(true);
  };
  const bench_report report = run(request);
  EXPECT_TRUE(report.stopped);
  ASSERT_EQ(report.figures.size(), 3u);  // the third was cut as it started
  EXPECT_TRUE(report.figures[1].ran);
  EXPECT_FALSE(report.figures[2].ran);
  EXPECT_EQ(report.figures[2].why_not, "stopped");
}

// A lattice solve plans its split once, whatever its device: the memory check, the device's
// choice (auto: 5 classes are too few for the GPU, and the note says so) and the run on the CPU
// or the GPU all take that plan. Both devices give the same board.
TEST(EngineLatticeOnTheHostGpu, PlansTheSplitOncePerSolve) {
  std::vector<row_t> boards[2];
  for (const device_kind device : {device_kind::cpu, device_kind::gpu, device_kind::any}) {
    solve_request request;
    request.n = 20000;  // W = 5 sub-boards of 4,000 queens
    request.algorithm = "lattice";
    request.seed = 3;
    request.threads = 2;
    request.device.kind = device;
    const std::uint64_t before = detail::lattice_plans_made();
    const solve_report report = run(request);
    EXPECT_EQ(detail::lattice_plans_made() - before, 1u) << report.device;
    ASSERT_TRUE(report.result.solved) << report.device;
    EXPECT_EQ(report.device, device == device_kind::gpu ? "gpu" : "cpu");
    if (device == device_kind::any)
      EXPECT_NE(report.note.find("splits into 5 sub-boards"), std::string::npos) << report.note;
    else
      boards[device == device_kind::gpu] = report.result.queen_row;
  }
  EXPECT_EQ(boards[0], boards[1]);
}

}  // namespace
}  // namespace nq
