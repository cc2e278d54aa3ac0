// The local-search commands end to end: batch (text, JSON, sweeps), solve --trace, the shell.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::scratch_dir;

nlohmann::json without_timings(nlohmann::json record) {
  for (const char* key : {"seconds", "runs_per_second", "threads"}) record.erase(key);
  return record;
}

TEST(CliBatch, JsonHasTheDocumentedFieldsAndIgnoresThreads) {
  scratch_dir dir;
  // --device cpu: auto would take a GPU where there is one.
  const auto one = run_cli(dir, {"batch", "-n", "8", "--algo", "hc-sideways", "--runs", "3000",
                                 "--threads", "1", "-f", "json", "--seed", "9", "--device", "cpu"});
  ASSERT_EQ(one.code, 0) << one.err;
  const auto record = nlohmann::json::parse(one.out);
  for (const char* key :
       {"n", "algorithm", "device", "runs", "solved", "success_rate", "mean_steps_success",
        "mean_steps_failure", "median_steps_success", "seconds", "runs_per_second", "threads"})
    EXPECT_TRUE(record.contains(key)) << key;
  EXPECT_EQ(record["runs"], 3000);
  EXPECT_EQ(record["algorithm"], "hc-sideways");
  EXPECT_EQ(record["device"], "cpu");
  EXPECT_EQ(record["parameters"]["sideways"], 100);
  EXPECT_LE(record["success_rate_low"].get<double>(), record["success_rate"].get<double>());
  const auto two = run_cli(dir, {"batch", "-n", "8", "--algo", "hc-sideways", "--runs", "3000",
                                 "--threads", "2", "-f", "json", "--seed", "9", "--device", "cpu"});
  EXPECT_EQ(without_timings(record), without_timings(nlohmann::json::parse(two.out)));
}

// The seeds' settings are options, each reported among the parameters by its option's name and as
// the option takes it (a word as that word, a switch as true or false), and one flag gives the
// report's GA.
TEST(CliBatch, SeedRulesAreOptionsAndShowInTheParameters) {
  scratch_dir dir;
  const auto parameters = [&](std::vector<std::string> args) {
    std::vector<std::string> line = {"batch", "-n",   "8",        "--runs", "20",
                                     "-f",    "json", "--device", "cpu"};
    line.insert(line.end(), args.begin(), args.end());
    const auto r = run_cli(dir, line);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out)["parameters"] : nlohmann::json{};
  };
  const auto sa = parameters({"--algo", "sa"});
  EXPECT_EQ(sa["accept-equal"], true);
  EXPECT_EQ(sa["cooling-per"], "neighbour");
  const auto strict = parameters({"--algo", "sa", "--reject-equal", "--cooling-per", "move"});
  EXPECT_EQ(strict["accept-equal"], false);
  EXPECT_EQ(strict["cooling-per"], "move");
  EXPECT_TRUE(strict["t0"].is_number_float()) << strict;
  const auto hc = parameters(
      {"--algo", "hc-sideways", "--ties", "last", "--sideways-limit", "total", "--plateau-jump"});
  EXPECT_EQ(hc, nlohmann::json::parse(R"({"sideways":100.0,"ties":"last","sideways-limit":"total",
                                          "plateau-jump":true})"));
  EXPECT_EQ(parameters({"--algo", "hc"})["ties"], "random");
  EXPECT_EQ(parameters({"--algo", "first-choice", "--order", "fixed"})["order"], "fixed");
  EXPECT_EQ(parameters({"--algo", "random-opt", "--step", "sweep"})["step"], "sweep");
  EXPECT_EQ(parameters({"--algo", "beam", "--stochastic"})["stochastic"], true);
  EXPECT_EQ(parameters({"--algo", "ga", "--encoding", "permutation"})["encoding"], "permutation");
  const auto report = parameters({"--algo", "ga", "--preset", "report"});
  EXPECT_EQ(report["population"], 128);
  EXPECT_EQ(report["selection"], "leaders");
  EXPECT_EQ(report["encoding"], "column");
  EXPECT_DOUBLE_EQ(report["mutation-step"].get<double>(), 0.05);
  EXPECT_EQ(report["elite"], 0);
  // Options given with the preset override it.
  EXPECT_EQ(parameters({"--algo", "ga", "--preset", "report", "--elite", "2"})["elite"], 2);
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--algo", "hc", "--ties", "often"}, "unknown --ties 'often'"},
           {{"--algo", "sa", "--accept-equal", "--reject-equal"}, "contradict"},
           {{"--algo", "sa", "--ties", "first"}, "--ties does not apply to sa"},
           {{"--algo", "hc", "--preset", "report"}, "--preset does not apply to hc"},
           {{"--algo", "ga", "--preset", "paper"}, "unknown --preset 'paper'"},
           {{"--algo", "ga", "--selection", "roulette"}, "unknown --selection"}}) {
    std::vector<std::string> line = {"batch", "-n", "8", "--runs", "5"};
    line.insert(line.end(), args.begin(), args.end());
    const auto r = run_cli(dir, line);
    EXPECT_EQ(r.code, 2) << args.back();
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

TEST(CliBatch, TextSummaryWritesAtomicallyToAFile) {
  scratch_dir dir;
  const auto r = run_cli(
      dir, {"batch", "-n", "6", "--algo", "hc-restart", "--runs", "200", "-o", "summary.txt"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const std::string text = test::slurp(dir / "summary.txt");
  EXPECT_NE(text.find("hc-restart on n=6: 200 runs, 200 solved (100.00%"), std::string::npos)
      << text;
  EXPECT_NE(text.find("restarts:"), std::string::npos);
}

TEST(CliBatch, SweepRunsEveryPointOfTheGrid) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"batch", "-n", "8", "--algo", "hc-random-p", "--runs", "50",
                               "--sweep", "p=0.1:0.3:0.1,q=1:2", "-f", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto records = nlohmann::json::parse(r.out);
  ASSERT_EQ(records.size(), 6u);
  const double p[] = {0.1, 0.1, 0.2, 0.2, 0.3, 0.3};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_DOUBLE_EQ(records[i]["parameters"]["p"].get<double>(), p[i]);
    EXPECT_EQ(records[i]["parameters"]["q"], 1 + static_cast<int>(i % 2));
    EXPECT_EQ(records[i]["runs"], 50);
  }
  const auto table = run_cli(dir, {"batch", "-n", "8", "--algo", "hc-random-p", "--runs", "50",
                                   "--sweep", "p=0.1:0.3:0.1,q=1:2"});
  EXPECT_EQ(test::count_lines(table.out), 8u) << table.out;  // title, header, 6 rows
}

TEST(CliBatch, SweepsStepLimitsAndQAsAShareOfN) {
  scratch_dir dir;
  const auto steps = run_cli(dir, {"batch", "-n", "8", "--algo", "sa", "--runs", "20", "--sweep",
                                   "max-steps=100:300:100", "-f", "json", "--device", "cpu"});
  ASSERT_EQ(steps.code, 0) << steps.err;
  const auto by_steps = nlohmann::json::parse(steps.out);
  ASSERT_EQ(by_steps.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(by_steps[i]["max_steps"], 100 * (i + 1));
    if (by_steps[i]["solved"] != 20) {
      EXPECT_EQ(by_steps[i]["median_steps_failure"], 100 * (i + 1)) << by_steps[i];
    }
  }
  // q = 10%, 15%, ... 30% of 20 queens: 2 to 6.
  const auto share = run_cli(dir, {"batch", "-n", "20", "--algo", "hc-random-p", "--runs", "5",
                                   "--sweep", "q=10%:30%:5%", "-f", "json", "--device", "cpu"});
  ASSERT_EQ(share.code, 0) << share.err;
  const auto by_share = nlohmann::json::parse(share.out);
  ASSERT_EQ(by_share.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(by_share[i]["parameters"]["q"], 2 + i);
  const auto twice = run_cli(
      dir, {"batch", "-n", "8", "--algo", "sa", "--sweep", "max-steps=1:3", "--max-steps", "5"});
  EXPECT_EQ(twice.code, 2);
  EXPECT_NE(twice.err.find("both set the step limit"), std::string::npos) << twice.err;
  const auto not_q = run_cli(dir, {"batch", "-n", "8", "--algo", "sa", "--sweep", "t0=1%:2%"});
  EXPECT_EQ(not_q.code, 2);
  EXPECT_NE(not_q.err.find("only q takes a share of n"), std::string::npos) << not_q.err;
}

TEST(CliBatch, RunsCsvHasEveryRunAndRunZeroIsSolve) {
  scratch_dir dir;
  const auto r =
      run_cli(dir, {"batch", "-n", "8", "--algo", "hc-sideways", "--runs", "700", "--seed", "5",
                    "--device", "cpu", "-f", "json", "--runs-csv", "runs.csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;  // --device cpu: no note
  const auto record = nlohmann::json::parse(r.out);
  EXPECT_EQ(record["device"], "cpu");
  EXPECT_FALSE(record["device_name"].get<std::string>().empty());
  std::istringstream csv(test::slurp(dir / "runs.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "run,solved,steps,restarts,cost");
  std::vector<std::string> rows;
  int solved = 0;
  while (std::getline(csv, line)) {
    EXPECT_TRUE(line.starts_with(std::to_string(rows.size()) + ",")) << line;
    solved += line.find(",1,") != std::string::npos;
    rows.push_back(line);
  }
  ASSERT_EQ(rows.size(), 700u);
  EXPECT_EQ(solved, record["solved"].get<int>());
  // Run 0 of a batch is `solve` with the same seed.
  const auto one = nlohmann::json::parse(
      run_cli(dir, {"solve", "-n", "8", "--algo", "hc-sideways", "--seed", "5", "-f", "json"}).out);
  EXPECT_TRUE(rows[0].starts_with("0," + std::string(one["solved"] ? "1," : "0,") +
                                  std::to_string(one["steps"].get<int>()) + ","))
      << rows[0];
}

TEST(CliBatch, DeviceChoiceWithoutAGpu) {
  scratch_dir dir;
  if (!test::without_gpu(dir)) GTEST_SKIP() << "this machine has a GPU";
  const auto gpu =
      run_cli(dir, {"batch", "-n", "8", "--algo", "hc", "--runs", "10", "--device", "gpu"});
  EXPECT_EQ(gpu.code, 3);
  EXPECT_NE(gpu.err.find("no CUDA device available"), std::string::npos) << gpu.err;
  EXPECT_TRUE(gpu.out.empty());
  const auto automatic =
      run_cli(dir, {"batch", "-n", "8", "--algo", "hc", "--runs", "10", "-f", "json"});
  EXPECT_EQ(automatic.code, 0);
  EXPECT_NE(automatic.err.find("ran on the CPU"), std::string::npos) << automatic.err;
  EXPECT_EQ(nlohmann::json::parse(automatic.out)["device"], "cpu");
  const auto quiet = run_cli(dir, {"batch", "-n", "8", "--algo", "hc", "--runs", "10", "-q"});
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
  const auto solve = run_cli(
      dir, {"solve", "-n", "8", "--algo", "hc", "--chains", "64", "--device", "gpu", "-f", "json"});
  EXPECT_EQ(solve.code, 3);
  EXPECT_NE(solve.err.find("no CUDA device available"), std::string::npos) << solve.err;
  EXPECT_TRUE(solve.out.empty()) << solve.out;
  const auto count = run_cli(dir, {"count", "-n", "8", "--device", "gpu"});
  EXPECT_EQ(count.code, 3);
  EXPECT_EQ(test::count_lines(count.err), 1u) << count.err;
  EXPECT_NE(count.err.find("no CUDA device available"), std::string::npos) << count.err;
  const auto counted = run_cli(dir, {"count", "-n", "8", "-f", "json"});
  EXPECT_EQ(counted.code, 0);
  EXPECT_NE(counted.err.find("counted on the CPU"), std::string::npos) << counted.err;
  EXPECT_EQ(nlohmann::json::parse(counted.out)["device"], "cpu");
  EXPECT_TRUE(run_cli(dir, {"count", "-n", "8", "--device", "cpu"}).err.empty());
  // --devices asks for GPUs as --device gpu does; --device all falls back as auto does.
  for (const char* device : {"auto", "gpu", "all"}) {
    const auto listed = run_cli(dir, {"count", "-n", "8", "--devices", "0", "--device", device});
    EXPECT_EQ(listed.code, 3) << device;
    EXPECT_EQ(test::count_lines(listed.err), 1u) << listed.err;
    EXPECT_NE(listed.err.find("no CUDA device available"), std::string::npos) << listed.err;
    EXPECT_TRUE(listed.out.empty()) << listed.out;
  }
  const auto all = run_cli(dir, {"count", "-n", "10", "-u", "--device", "all", "-f", "json"});
  EXPECT_EQ(all.code, 0);
  EXPECT_NE(all.err.find("counted on the CPU"), std::string::npos) << all.err;
  const auto doc = nlohmann::json::parse(all.out);
  EXPECT_EQ(doc["device"], "cpu");
  EXPECT_EQ(doc["solutions"], 724);
  EXPECT_EQ(doc["unique"], 92);
  EXPECT_TRUE(run_cli(dir, {"count", "-n", "8", "--device", "all", "-q"}).err.empty());
}

// ga and beam take --device as the chains do: gpu exits 3 without a device, auto falls back
// with a note, and the run is the one `solve` gives without --device (stream 0).
TEST(CliBatch, PopulationSearchesChooseTheirDevice) {
  scratch_dir dir;
  if (!test::without_gpu(dir)) GTEST_SKIP() << "this machine has a GPU";
  for (const char* algo : {"ga", "beam"}) {
    SCOPED_TRACE(algo);
    const auto gpu =
        run_cli(dir, {"batch", "-n", "8", "--algo", algo, "--runs", "5", "--device", "gpu"});
    EXPECT_EQ(gpu.code, 3);
    EXPECT_NE(gpu.err.find("no CUDA device available"), std::string::npos) << gpu.err;
    const auto solve_gpu =
        run_cli(dir, {"solve", "-n", "8", "--algo", algo, "--device", "gpu", "-f", "json"});
    EXPECT_EQ(solve_gpu.code, 3);
    EXPECT_TRUE(solve_gpu.out.empty()) << solve_gpu.out;
    const auto automatic = run_cli(
        dir, {"solve", "-n", "8", "--algo", algo, "--device", "auto", "--seed", "6", "-f", "json"});
    ASSERT_TRUE(automatic.code == 0 || automatic.code == 1) << automatic.err;
    EXPECT_NE(automatic.err.find("ran on the CPU"), std::string::npos) << automatic.err;
    const auto plain =
        run_cli(dir, {"solve", "-n", "8", "--algo", algo, "--seed", "6", "-f", "json"});
    const auto a = nlohmann::json::parse(automatic.out), b = nlohmann::json::parse(plain.out);
    EXPECT_EQ(a["rows"], b["rows"]);
    EXPECT_EQ(a["steps"], b["steps"]);
  }
}

TEST(CliSolve, ChainsKeepTheLowestNumberedSolvedChainAndReplayIt) {
  scratch_dir dir;
  const auto many = run_cli(dir, {"solve", "-n", "12", "--algo", "hc", "--chains", "300", "--seed",
                                  "3", "-f", "json", "--device", "cpu"});
  ASSERT_EQ(many.code, 0) << many.err;
  const auto chosen = nlohmann::json::parse(many.out);
  EXPECT_EQ(chosen["chains"], 300);
  EXPECT_TRUE(chosen["solved"].get<bool>());
  const auto k = chosen["chain"].get<std::uint64_t>();
  ASSERT_GT(k, 0u);  // hc fails often on 12 queens: some chains before it failed
  const auto one =
      nlohmann::json::parse(run_cli(dir, {"solve", "-n", "12", "--algo", "hc", "--chain",
                                          std::to_string(k), "--seed", "3", "-f", "json"})
                                .out);
  EXPECT_EQ(one["rows"], chosen["rows"]);
  EXPECT_EQ(one["steps"], chosen["steps"]);
  // Every chain before it failed: they are runs 0..k-1 of a batch with the same seed.
  const auto before = nlohmann::json::parse(
      run_cli(dir, {"batch", "-n", "12", "--algo", "hc", "--runs", std::to_string(k), "--seed", "3",
                    "-f", "json", "--device", "cpu"})
          .out);
  EXPECT_EQ(before["solved"], 0);
}

TEST(CliSolve, TraceHasOneRowPerStep) {
  scratch_dir dir;
  for (const char* algo : {"hc-sideways", "sa", "ga"}) {
    const auto r = run_cli(dir, {"solve", "-n", "8", "--algo", algo, "--seed", "4", "-f", "json",
                                 "--trace", "trace.csv"});
    ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
    const auto result = nlohmann::json::parse(r.out);
    std::istringstream csv(test::slurp(dir / "trace.csv"));
    std::string header;
    std::getline(csv, header);
    EXPECT_TRUE(header.starts_with("step,restarts,cost")) << header;
    std::size_t rows = 0;
    std::string line, last;
    for (; std::getline(csv, line); ++rows) last = line;
    EXPECT_EQ(rows, result["steps"].get<std::size_t>() + 1) << algo;
    EXPECT_TRUE(last.starts_with(std::to_string(result["steps"].get<std::size_t>()) + ","));
  }
  EXPECT_NE(test::slurp(dir / "trace.csv").find("best_fitness,mean_fitness"), std::string::npos);
}

TEST(CliShell, AnswersAScriptedSession) {
  scratch_dir dir;
  const std::string script =
      "help\n"
      "new 8 5\n"
      "show\n"
      "run hc-restart --seed 2\n"
      "batch hc 500 --threads 1\n"
      "board 2 4 6 8 3 1 7 5\n"
      "run constructive\n"
      "quit\n"
      "show\n";  // never reached
  const auto r = run_cli(dir, {"shell"}, script);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("new N [SEED]"), std::string::npos);
  EXPECT_NE(r.out.find("a random board of 8 queens (seed 5)"), std::string::npos);
  EXPECT_NE(r.out.find("hc-restart: solved after"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hc on n=8: 500 runs"), std::string::npos);
  EXPECT_NE(r.out.find("8 queens, 0 attacking pairs: a solution"), std::string::npos);
  // The run's result is the board shown after it: a grid with one queen per column.
  const auto after = r.out.find("hc-restart: solved after");
  std::istringstream grid(r.out.substr(r.out.find('\n', after) + 1));
  std::vector<int> per_column(8, 0);
  std::string line;
  for (int row = 0; row < 8 && std::getline(grid, line); ++row)
    for (std::size_t c = 0; c < 8; ++c) per_column[c] += line.size() > 2 * c && line[2 * c] == 'Q';
  EXPECT_EQ(per_column, std::vector<int>(8, 1));
}

TEST(CliBatch, JsonHasNullMeansForNoRuns) {
  scratch_dir dir;
  // hc-restart runs until it solves: no failed run, so no failure mean.
  const auto r = run_cli(dir, {"batch", "-n", "8", "--algo", "hc-restart", "--runs", "20", "-f",
                               "json", "--device", "cpu"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto record = nlohmann::json::parse(r.out);
  ASSERT_EQ(record["solved"], 20);
  EXPECT_TRUE(record["mean_steps_failure"].is_null()) << record;
  EXPECT_TRUE(record["median_steps_failure"].is_null()) << record;
  EXPECT_TRUE(record["mean_steps_success"].is_number()) << record;
}

TEST(CliShell, TakesEveryOptionOfSolveAndBatch) {
  scratch_dir dir;
  const std::string script =
      "new 8 3\n"
      "batch hc --runs 5 --threads 1\n"
      "batch hc 7 -f json\n"
      "run hc-sideways --trace x.csv --seed 4\n"
      "run hc --max-steps 2 -f json\n"
      "run hc --help\n"
      "board 1 3 2\n";
  const auto r = run_cli(dir, {"shell"}, script);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("hc on n=8: 5 runs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"runs\":7"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hc-sideways: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"algorithm\":\"hc\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--max-steps"), std::string::npos) << "run --help prints solve's options";
  EXPECT_NE(r.out.find("3 queens, 1 attacking pair\n"), std::string::npos) << r.out;
  const auto trace = test::slurp(dir / "x.csv");
  EXPECT_EQ(trace.rfind("step,restarts,cost\n0,0,", 0), 0u) << trace;
  // n comes from the board.
  const auto twice = run_cli(dir, {"shell"}, "new 8\nrun hc -n 9\n");
  EXPECT_EQ(twice.code, 2);
  EXPECT_NE(twice.err.find("the board sets n"), std::string::npos) << twice.err;
}

// A run asked for -f grid prints the board it ends with; the shell then gives only the pairs,
// not the picture a second time. With -o the picture goes to the file, so the shell shows it.
TEST(CliShell, ARunThatPrintsItsBoardIsNotFollowedByItAgain) {
  scratch_dir dir;
  const auto count = [](const std::string& text, const std::string& part) {
    std::size_t found = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++found;
    return found;
  };
  const auto plain = run_cli(dir, {"shell"}, "new 6 1\nrun hc\n");
  ASSERT_EQ(plain.code, 0) << plain.err;
  const auto grid = run_cli(dir, {"shell"}, "new 6 1\nrun hc -f grid\n");
  ASSERT_EQ(grid.code, 0) << grid.err;
  // The solved board of seed 1: its first line, as the plain run's shell shows it once.
  const auto after = plain.out.find("hc: solved");
  ASSERT_NE(after, std::string::npos) << plain.out;
  const std::string first_line = plain.out.substr(plain.out.find('\n', after) + 1, 12);
  EXPECT_EQ(count(plain.out, first_line), 1u) << plain.out;
  EXPECT_EQ(count(grid.out, first_line), 1u) << grid.out;
  EXPECT_NE(grid.out.find("6 queens, 0 attacking pairs: a solution"), std::string::npos)
      << grid.out;
  const auto to_file = run_cli(dir, {"shell"}, "new 6 1\nrun hc -f grid -o b.txt\n");
  ASSERT_EQ(to_file.code, 0) << to_file.err;
  EXPECT_EQ(count(to_file.out, first_line), 1u) << to_file.out;
  EXPECT_EQ(test::slurp(dir / "b.txt").find(first_line), 0u);
}

TEST(CliShell, VerboseRunNarratesEachStepAndWhyItStopped) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"shell"}, "new 8 1\nrun hc --verbose --max-steps 2\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("  start board: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  step 1: column "), std::string::npos) << "the move: " << r.out;
  const bool stopped_by_limit =
      r.out.find("  stopped: no solution found within the step limit (2 steps)") !=
      std::string::npos;
  const bool solved = r.out.find("hc: solved") != std::string::npos;
  const bool stuck = r.out.find("(no move lowers the cost") != std::string::npos;
  EXPECT_TRUE(stopped_by_limit || solved || stuck) << r.out;
  // The sideways limit, reached with --sideways 0 only when the climber meets a plateau.
  bool saw_limit = false, saw_no_move = false;
  for (int seed = 1; seed < 30 && !(saw_limit && saw_no_move); ++seed) {
    const auto s =
        run_cli(dir, {"shell"},
                "new 8 " + std::to_string(seed) + "\nrun hc-sideways --sideways 1 --verbose\n");
    saw_limit |= s.out.find("(the sideways limit: 1 sideways move") != std::string::npos;
    saw_no_move |= s.out.find("(no move keeps or lowers the cost)") != std::string::npos;
  }
  EXPECT_TRUE(saw_limit);
}

// The sideways limit counted in all (steps 6, 8, 9 and 10 here, an improving move between) and
// with plateau jumps (a jump changes the cost of a sideways step) is still named as the reason:
// the last board has a move that keeps the cost. Both once read "no move keeps or lowers".
TEST(CliShell, VerboseRunNamesTheTotalSidewaysLimitAndPlateauJumps) {
  scratch_dir dir;
  const auto total = run_cli(
      dir, {"shell"}, "new 10 2\nrun hc-sideways --sideways 4 --sideways-limit total --verbose\n");
  EXPECT_EQ(total.code, 0) << total.err;
  EXPECT_NE(total.out.find("(the sideways limit: 4 sideways moves in all)"), std::string::npos)
      << total.out;
  // Step 1 is a sideways move and a jump that lowers the cost: the limit of 1 is reached with
  // no step of equal cost to be seen.
  const auto jump =
      run_cli(dir, {"shell"}, "new 6 17\nrun hc-sideways --sideways 1 --plateau-jump --verbose\n");
  EXPECT_EQ(jump.code, 0) << jump.err;
  EXPECT_NE(jump.out.find("step 1: column 5 row 4 -> 6, column 6 row 6 -> 4"), std::string::npos)
      << jump.out;
  EXPECT_NE(jump.out.find("(the sideways limit: 1 sideways move in a row)"), std::string::npos)
      << jump.out;
}

TEST(CliShell, ReportsBadCommandsAndCarriesOn) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"shell"}, "show\nfly\nnew 6 1\nrun sa --cooling 2\nrun hc\n");
  EXPECT_EQ(r.code, 2);  // a script with a failed command says so
  EXPECT_EQ(test::count_lines(r.err), 3u) << r.err;
  EXPECT_NE(r.err.find("no board yet"), std::string::npos);
  EXPECT_NE(r.err.find("unknown command 'fly'"), std::string::npos);
  EXPECT_NE(r.err.find("--cooling must be strictly between 0 and 1"), std::string::npos);
  EXPECT_NE(r.out.find("hc: "), std::string::npos) << r.out;  // the last command still ran
}

}  // namespace
}  // namespace nq
