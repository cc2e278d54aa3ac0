// nqueens bench from the outside: the quick suite's record, --compare, and its refusals.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

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
  EXPECT_EQ(record["schema"], 2);
  EXPECT_EQ(record["suite"], "quick");
  EXPECT_EQ(record["command"], "nqueens bench --quick -f json -o bench.json -q");
  EXPECT_FALSE(record["stopped"].get<bool>());
  const json& machine = record["machine"];
  EXPECT_FALSE(machine["cpu"].get<std::string>().empty());
  EXPECT_GE(machine["cores"].get<int>(), 1);
  EXPECT_GT(machine["memory_bytes"].get<double>(), 0);
  // What makes two machines' figures comparable, as Linux on x86-64 says it.
  for (const char* field : {"cpu_vendor", "os", "kernel", "arch"})
    EXPECT_FALSE(machine[field].get<std::string>().empty()) << field;
  EXPECT_GE(machine["cpu_family"].get<int>(), 0);
  EXPECT_GE(machine["cpu_model"].get<int>(), 0);
  ASSERT_TRUE(machine["cpu_flags"].is_array());
  const auto& flags = machine["cpu_flags"];
  EXPECT_NE(std::find(flags.begin(), flags.end(), "sse2"), flags.end()) << flags;
  EXPECT_TRUE(machine.contains("cpu_mhz") && machine.contains("cpu_max_mhz"));
  EXPECT_TRUE(record["gpus"].is_array());
  for (const char* field : {"version", "git_sha", "build_type", "compiler"})
    EXPECT_FALSE(record["build"][field].get<std::string>().empty()) << field;
  EXPECT_TRUE(record["build"].contains("cuda"));
  const bool avx2 = std::find(flags.begin(), flags.end(), "avx2") != flags.end();
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
    EXPECT_EQ(f["repeats"], 1) << what;  // quick: each once, so no figure can be called steady
    EXPECT_EQ(f["quality"], "indicative") << what;
    EXPECT_EQ(f["spread"], 0.0) << what;
    EXPECT_EQ(f["command"].get<std::string>().rfind("nqueens ", 0), 0u) << what;
    const std::string kind = f["kind"];
    if (kind == "batch" || kind == "population") {
      const std::string runs = " -r " + std::to_string(f["runs"].get<std::uint64_t>()) + " ";
      EXPECT_NE(f["command"].get<std::string>().find(runs), std::string::npos) << what;
      if (kind == "batch") {
        EXPECT_EQ(f["work"].get<double>(), f["runs"].get<double>()) << what;
      }
    } else {
      EXPECT_TRUE(f["runs"].is_null()) << what;
    }
    EXPECT_EQ(f["generations"].is_null(), kind != "population") << what;
    if (f["device"] == "cpu") {
      EXPECT_DOUBLE_EQ(f["per_core"].get<double>(),
                       f["median"].get<double>() / f["threads"].get<double>())
          << what;
      EXPECT_TRUE(f["kernel_seconds_median"].is_null()) << what;
      // The vector path each CPU figure took: a count's kernels, the lattice's Philox words.
      const std::string simd = f["simd"];
      if (kind == "count") {
        EXPECT_TRUE(simd == "avx512" || simd == "avx2" || simd == "off") << what << " " << simd;
      } else if (kind == "solve") {
        EXPECT_EQ(simd, avx2 ? "avx2" : "sse2") << what;
      } else {
        EXPECT_EQ(simd, "off") << what;
      }
    }
    workloads.insert(f["workload"].get<std::string>());
    units.insert(f["unit"].get<std::string>());
  }
  EXPECT_EQ(figures.size(), workloads.size() * (2 + record["gpus"].size()));
  EXPECT_EQ(workloads.size(), 9u);  // huge board, four batches, two populations, two counts
  EXPECT_EQ(units, (std::set<std::string>{"queens/s", "runs/s", "generations/s", "solutions/s"}));
}

TEST(CliBench, TheTableSaysEachFiguresQualityInSiUnits) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"bench", "--quick", "--workloads", "count-12", "--device", "cpu"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(" solutions/s "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("e+0"), std::string::npos) << "no exponents: " << r.out;
  EXPECT_NE(r.out.find(" indicative "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("indicative: fewer than three repeats"), std::string::npos) << r.out;
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

// A record of another suite, or whose workloads had other sizes, measured other work: refused
// in one line, unless --compare-shared asks for the figures both have at the same sizes.
TEST(CliBench, CompareRefusesAnotherSuiteOrOtherSizesUnlessShared) {
  scratch_dir dir;
  test::spit(dir / "quick.json", quick_record().dump());
  const std::vector<std::string> standard = {"bench", "--workloads", "batch-hc",   "--device",
                                             "cpu",   "--compare",   "quick.json", "-q"};
  auto r = run_cli(dir, standard);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("a record of the quick suite, this run the standard suite"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--compare-shared"), std::string::npos) << r.err;
  // The same suite with batch-hc's runs changed in the record: other sizes.
  json resized = quick_record();
  for (auto& f : resized["figures"])
    if (f["workload"] == "batch-hc") f["runs"] = 12345;
  test::spit(dir / "resized.json", resized.dump());
  const std::vector<std::string> quick = {"bench",    "--quick", "--workloads", "batch-hc,count-12",
                                          "--device", "cpu",     "--compare",   "resized.json",
                                          "-f",       "json",    "-q"};
  r = run_cli(dir, quick);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("measured batch-hc on one-core at n = 8, 12345 runs, this run at n = 8, "
                       "20000 runs"),
            std::string::npos)
      << r.err;
  // --compare-shared: the count's rows only (batch-hc's sizes differ).
  auto shared = quick;
  shared.push_back("--compare-shared");
  r = run_cli(dir, shared);
  ASSERT_EQ(r.code, 0) << r.err;
  const json now = json::parse(r.out);
  ASSERT_EQ(now["comparison"].size(), 2u) << now["comparison"];
  for (const auto& row : now["comparison"]) EXPECT_EQ(row["workload"], "count-12");
  EXPECT_EQ(now["compared_with"]["path"], "resized.json");
  EXPECT_EQ(run_cli(dir, {"bench", "--quick", "--compare-shared"}).code, 2);
}

// A malformed record is refused in one line naming the field, before any work: its error
// comes before that of an unknown workload, which the run would meet first of all.
TEST(CliBench, CompareChecksTheRecordFieldByFieldBeforeAnyWork) {
  scratch_dir dir;
  const json good = quick_record();
  const auto broken = [&](const std::function<void(json&)>& change) {
    json record = good;
    change(record);
    return record.dump();
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {broken([](json& r) { r["figures"] = json::array({1}); }),
       "figures[0] that is not an object"},
      {broken([](json& r) { r["started"] = 20261127; }), "started that is not a string"},
      {broken([](json& r) { r.erase("machine"); }), "has no field machine"},
      {broken([](json& r) { r["figures"][0]["median"] = "fast"; }), "figures[0].median \"fast\""},
      {broken([](json& r) { r["figures"][0]["median"] = nullptr; }), "figures[0].median null"},
      {broken([](json& r) { r["figures"][0]["median"] = 0; }), "figures[0].median 0"},
      {broken([](json& r) { r["figures"][1].erase("median"); }), "has no field figures[1].median"},
      {broken([](json& r) { r["figures"][0]["median"] = 5e-324; }), "not a positive rate"},
      {broken([](json& r) { r["figures"][2]["runs"] = -3; }), "figures[2].runs that is neither"},
      {broken([](json& r) { r["schema"] = 3; }), "schema 3; this nqueens reads 1 and 2"},
      {"{\"workload\": \"bench\"", "is not JSON"},
  };
  for (const auto& [text, message] : cases) {
    test::spit(dir / "bad.json", text);
    const auto r = run_cli(dir, {"bench", "--quick", "--workloads", "no-such-workload", "--compare",
                                 "bad.json", "-q"});
    EXPECT_EQ(r.code, 2) << message << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("'bad.json'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos)
        << "expected '" << message << "' in " << r.err;
  }
}

// A FIFO with no writer would block a reader forever: refused at once as no regular file.
TEST(CliBench, CompareRefusesWhatIsNotARegularFile) {
  scratch_dir dir;
  ASSERT_EQ(mkfifo((dir / "fifo").c_str(), 0600), 0);
  test::cli_process process(dir, {"bench", "--quick", "-q", "--compare", "fifo"});
  for (int i = 0; i < 200 && !process.finished(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(process.finished()) << "nqueens bench --compare FIFO is still waiting after 20 s";
  const auto r = process.wait();
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is not a regular file"), std::string::npos) << r.err;
  const auto directory = run_cli(dir, {"bench", "--quick", "-q", "--compare", "."});
  EXPECT_EQ(directory.code, 2);
  EXPECT_NE(directory.err.find("is not a regular file"), std::string::npos) << directory.err;
}

}  // namespace
}  // namespace nq
