// The benchmark's parts that need no timing: which figures are steady, the suites' sizes on
// each target, and the table's marks and units (nqueens/bench.hpp).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "nqueens/bench.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

TEST(EngineBench, ThreeRepeatsWithinFivePercentMakeAFigureSteady) {
  EXPECT_EQ(classify_repeats({}), bench_quality::indicative);
  EXPECT_EQ(classify_repeats({5.0}), bench_quality::indicative);
  EXPECT_EQ(classify_repeats({5.0, 5.0}), bench_quality::indicative);
  EXPECT_EQ(classify_repeats({100, 101, 102}), bench_quality::steady);
  // 5% of the three's median: 105 - 100 = 5 is within 5% of 102.5, 106 - 100 of 103 is not.
  EXPECT_EQ(classify_repeats({100, 102.5, 105}), bench_quality::steady);
  EXPECT_EQ(classify_repeats({100, 103, 106}), bench_quality::unsteady);
  // A load spike in between does not hide three that agree, in any order.
  EXPECT_EQ(classify_repeats({100, 60, 101, 140, 102}), bench_quality::steady);
  // A spread of +-30% (count-16 under load) never agrees.
  EXPECT_EQ(classify_repeats({70, 100, 130, 85, 115, 95, 125, 75, 110, 90}),
            bench_quality::unsteady);
}

const bench_workload& find(const std::vector<bench_workload>& suite, const std::string& name) {
  for (const auto& w : suite)
    if (w.name == name) return w;
  throw std::runtime_error("no workload " + name);
}

TEST(EngineBench, GpuRowsAreSizedForAGpu) {
  const bench_target cpu{"all-cores", 2, -1}, gpu{"gpu0", 0, 0};
  for (const bench_suite suite : {bench_suite::standard, bench_suite::full}) {
    const auto workloads = bench_workloads(suite);
    const bench_workload& hc = find(workloads, "batch-hc");
    EXPECT_EQ(hc.runs_on(cpu), 500000u);
    EXPECT_EQ(hc.runs_on(gpu), std::uint64_t{1} << 27);  // about 0.1 s at 10^9 runs/s
    for (const auto& w : workloads)
      if (w.kind == "batch" || w.kind == "population") {
        EXPECT_GE(w.runs_on(gpu), 10 * w.runs_on(cpu)) << w.name;
      }
  }
  // Counts of 18 to 21 in the full suite: 20 and 21 on a GPU alone, 19 on every core too.
  const auto full = bench_workloads(bench_suite::full);
  EXPECT_TRUE(find(full, "count-18").on_cpu && find(full, "count-18").on_one_core);
  EXPECT_TRUE(find(full, "count-19").on_cpu && !find(full, "count-19").on_one_core);
  EXPECT_FALSE(find(full, "count-20").on_cpu);
  EXPECT_FALSE(find(full, "count-21").on_cpu);
  EXPECT_THROW(find(bench_workloads(bench_suite::standard), "count-20"), std::runtime_error);
  // The quick suite's sizes are the same everywhere: its figures are indicative anyway.
  for (const auto& w : bench_workloads(bench_suite::quick)) EXPECT_EQ(w.gpu_runs, 0u) << w.name;
}

bench_figure figure(const char* name, const char* unit, const bench_target& target, double median,
                    bench_quality quality) {
  bench_figure f;
  f.workload.name = name;
  f.workload.unit = unit;
  f.target = target;
  f.ran = true;
  f.repeats = quality == bench_quality::indicative ? 1 : 4;
  f.median = f.min = f.max = median;
  f.quality = quality;
  f.simd = target.gpu < 0 ? "avx2" : "";
  return f;
}

TEST(EngineBench, TheTableMarksUnsteadyAndIndicativeFiguresInSiUnits) {
  const bench_target one{"one-core", 1, -1}, gpu{"gpu0", 0, 0};
  bench_report report;
  report.cpu = "Test CPU";
  report.cores = 2;
  report.figures = {figure("batch-hc", "runs/s", one, 3.53e7, bench_quality::steady),
                    figure("solve-1e9", "queens/s", gpu, 1.42e9, bench_quality::steady),
                    figure("count-16", "solutions/s", one, 6.4e7, bench_quality::unsteady),
                    figure("count-12", "solutions/s", one, 512, bench_quality::indicative)};
  report.figures[1].kernel_seconds_median = 0.5;
  report.figures[1].kernel_median = 2e9;
  const std::string steady_only = [&] {
    bench_report r = report;
    r.figures.resize(2);
    return to_text(r);
  }();
  const std::string text = to_text(report);
  EXPECT_NE(text.find("35.3 M runs/s"), std::string::npos) << text;
  EXPECT_NE(text.find("1.42 G queens/s"), std::string::npos) << text;
  EXPECT_NE(text.find("2.00 G"), std::string::npos) << "the kernel rate: " << text;
  EXPECT_NE(text.find("512 solutions/s"), std::string::npos) << text;
  EXPECT_EQ(text.find("e+0"), std::string::npos) << "no exponents: " << text;
  // Each figure's line names its quality, and a note says what the marks mean.
  for (const char* row : {"batch-hc", "count-16", "count-12"}) {
    const auto at = text.find(row);
    ASSERT_NE(at, std::string::npos) << row;
    const std::string line = text.substr(at, text.find('\n', at) - at);
    const char* quality = row == std::string("count-16")   ? "unsteady"
                          : row == std::string("count-12") ? "indicative"
                                                           : "steady";
    EXPECT_NE(line.find(std::string(" ") + quality + " "), std::string::npos) << line;
  }
  EXPECT_NE(text.find("unsteady: no three repeats agreed within 5%"), std::string::npos) << text;
  EXPECT_EQ(steady_only.find("unsteady: no three"), std::string::npos) << steady_only;
}

/// A saved record of the quick suite's batch-hc on one core, `runs` a repeat.
std::string saved_record(std::uint64_t runs) {
  nlohmann::json figure = {
      {"workload", "batch-hc"}, {"on", "one-core"},       {"unit", "runs/s"}, {"n", 8},
      {"runs", runs},           {"generations", nullptr}, {"ran", true},      {"median", 1e6},
      {"quality", "steady"}};
  nlohmann::json record = {{"workload", "bench"},
                           {"schema", 2},
                           {"suite", "quick"},
                           {"started", "2026-11-27T00:00:00Z"},
                           {"machine", {{"cpu", "Saved CPU"}}},
                           {"figures", {figure}}};
  return record.dump();
}

// A record that is not comparable ends the run before its first figure; with compare_shared,
// only the figures of equal sizes are set beside it.
TEST(EngineBench, AnIncomparableRecordStopsTheRunBeforeAnyFigure) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("nq-bench-record-" + std::to_string(::getpid()) + ".json");
  std::size_t figures = 0;
  bench_request request;
  request.suite = bench_suite::quick;
  request.workloads = {"batch-hc"};
  request.device = device_kind::cpu;
  request.compare_with = path.string();
  request.progress = [&](std::size_t, std::size_t, const std::string&) { ++figures; };
  std::ofstream(path) << saved_record(12345);
  EXPECT_THROW(run(request), usage_error);
  EXPECT_EQ(figures, 0u) << "a figure was measured before the record was refused";
  request.compare_shared = true;
  bench_report report = run(request);
  EXPECT_EQ(figures, 2u);
  EXPECT_TRUE(report.comparison.empty()) << "no figure of equal sizes";
  std::ofstream(path) << saved_record(20000);
  request.compare_shared = false;
  report = run(request);
  ASSERT_EQ(report.comparison.size(), 1u);
  const bench_comparison_row& row = report.comparison[0];
  EXPECT_EQ(row.on, "one-core");
  EXPECT_DOUBLE_EQ(row.ratio, report.figures[0].median / 1e6);
  EXPECT_FALSE(row.steady) << "a quick figure is indicative";
  EXPECT_EQ(report.compared_cpu, "Saved CPU");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace nq
