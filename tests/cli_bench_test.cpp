// nqueens bench from the outside: the quick suite's record, --compare, and its refusals.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_runner.hpp"

namespace nq {
namespace {

using json = nlohmann::json;
using test::run_cli;
using test::scratch_dir;

/// The quick suite's record, run once for the tests below (each workload once: seconds).
const json& quick_record() {
  static const json record = [] {
    scratch_dir dir;
    const auto r = run_cli(dir, {"bench", "--quick", "-f", "json", "-o", "bench.json", "-q"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "");
    return json::parse(test::slurp(dir / "bench.json"));
  }();
  return record;
}

TEST(CliBench, QuickRecordHasEveryFieldAndPositiveFigures) {
  const json& record = quick_record();
  EXPECT_EQ(record["workload"], "bench");
  EXPECT_EQ(record["schema"], 1);
  EXPECT_EQ(record["suite"], "quick");
  EXPECT_EQ(record["command"], "nqueens bench --quick -f json -o bench.json -q");
  EXPECT_FALSE(record["stopped"].get<bool>());
  EXPECT_FALSE(record["machine"]["cpu"].get<std::string>().empty());
  EXPECT_GE(record["machine"]["cores"].get<int>(), 1);
  EXPECT_GT(record["machine"]["memory_bytes"].get<double>(), 0);
  EXPECT_TRUE(record["gpus"].is_array());
  for (const char* field : {"version", "git_sha", "build_type"})
    EXPECT_FALSE(record["build"][field].get<std::string>().empty()) << field;
  EXPECT_TRUE(record["build"].contains("cuda"));
  // Without a GPU, each workload on one core and on every core; with one, a row per GPU more.
  const auto& figures = record["figures"];
  std::set<std::string> workloads, units;
  for (const auto& f : figures) {
    const std::string what = f["workload"].get<std::string>() + " on " + f["on"].get<std::string>();
    ASSERT_TRUE(f["ran"].get<bool>()) << what << ": " << f["why_not"];
    EXPECT_TRUE(f["why_not"].is_null()) << what;
    for (const char* field : {"work", "median", "min", "max", "seconds_median"}) {
      const double value = f[field].get<double>();
      EXPECT_TRUE(std::isfinite(value) && value > 0) << what << " " << field << " " << value;
    }
    EXPECT_LE(f["min"].get<double>(), f["median"].get<double>()) << what;
    EXPECT_LE(f["median"].get<double>(), f["max"].get<double>()) << what;
    EXPECT_EQ(f["repeats"], 1) << what;  // quick: each once
    EXPECT_EQ(f["command"].get<std::string>().rfind("nqueens ", 0), 0u) << what;
    if (f["device"] == "cpu") {
      EXPECT_DOUBLE_EQ(f["per_core"].get<double>(),
                       f["median"].get<double>() / f["threads"].get<double>())
          << what;
    }
    workloads.insert(f["workload"].get<std::string>());
    units.insert(f["unit"].get<std::string>());
  }
  EXPECT_EQ(figures.size(), workloads.size() * (2 + record["gpus"].size()));
  EXPECT_EQ(workloads.size(), 9u);  // huge board, four batches, two populations, two counts
  EXPECT_EQ(units, (std::set<std::string>{"queens/s", "runs/s", "generations/s", "solutions/s"}));
}

TEST(CliBench, CompareTakesRatiosSlowestFirst) {
  scratch_dir dir;
  // A saved record whose batch-hc on one core was a thousand times as fast as now, and
  // count-12 a thousandth: far beyond what load does to the two runs' rates (a factor of two
  // was: under ctest -j2 beside other builds the ratios of the other rows crossed it).
  json before = quick_record();
  for (auto& f : before["figures"]) {
    if (f["workload"] == "batch-hc" && f["on"] == "one-core")
      f["median"] = 1000 * f["median"].get<double>();
    if (f["workload"] == "count-12" && f["on"] == "one-core")
      f["median"] = 0.001 * f["median"].get<double>();
  }
  test::spit(dir / "before.json", before.dump());
  const auto r = run_cli(dir, {"bench", "--quick", "--workloads", "batch-hc,count-12", "--device",
                               "cpu", "--compare", "before.json", "-f", "json", "-q"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json now = json::parse(r.out);
  const auto& rows = now["comparison"];
  ASSERT_EQ(rows.size(), 4u);  // two workloads on two targets, all in the saved record
  for (std::size_t i = 1; i < rows.size(); ++i)
    EXPECT_LE(rows[i - 1]["ratio"].get<double>(), rows[i]["ratio"].get<double>());
  for (const auto& row : rows)
    EXPECT_NEAR(row["ratio"].get<double>(), row["now"].get<double>() / row["before"].get<double>(),
                1e-9 * row["ratio"].get<double>());
  // A thousandfold old rate makes a thousandth of the ratio, first; a thousandth, last.
  EXPECT_EQ(rows.front()["workload"], "batch-hc");
  EXPECT_EQ(rows.front()["on"], "one-core");
  EXPECT_EQ(rows.back()["workload"], "count-12");
  const auto text = run_cli(dir, {"bench", "--quick", "--workloads", "count-12", "--device", "cpu",
                                  "--compare", "before.json", "-q"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("Compared with before.json"), std::string::npos) << text.out;
}

TEST(CliBench, RefusesAnUnknownWorkloadAndAnotherRecordInOneLine) {
  scratch_dir dir;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"bench", "--quick", "--workloads", "count-99"},
        {"bench", "--suite", "huge"},
        {"bench", "--quick", "--suite", "full"},
        {"bench", "--device", "auto"},
        {"bench", "--quick", "--compare", "missing.json"}}) {
    const auto r = run_cli(dir, args);
    EXPECT_EQ(r.code, 2) << args.back();
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  ASSERT_EQ(run_cli(dir, {"batch", "-n", "8", "-a", "hc", "-r", "10", "-f", "json", "-o",
                          "batch.json", "-q", "--device", "cpu"})
                .code,
            0);
  const auto r = run_cli(dir, {"bench", "--quick", "--compare", "batch.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is not a record of nqueens bench"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "bench.json"));
}

}  // namespace
}  // namespace nq
