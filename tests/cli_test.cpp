#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::scratch_dir;

TEST(Cli, EveryCommandHasHelp) {
  scratch_dir dir;
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--help"},
                                               {"solve", "--help"},
                                               {"verify", "--help"},
                                               {"algorithms", "--help"},
                                               {"solutions", "--help"},
                                               {"count", "--help"},
                                               {"batch", "--help"},
                                               {"shell", "--help"},
                                               {"solve", "-h"}}) {
    const auto r = run_cli(dir, args);
    EXPECT_EQ(r.code, 0) << args.front();
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
    EXPECT_TRUE(r.err.empty());
    // An option whose default is worked out later says so in words, not as an empty default.
    EXPECT_EQ(r.out.find("(default: \"\")"), std::string::npos) << r.out;
  }
  EXPECT_NE(run_cli(dir, {"solve", "--help"}).out.find("--time-limit"), std::string::npos);
  EXPECT_NE(run_cli(dir, {"verify", "--help"}).out.find("--format"), std::string::npos);
  // The one-letter algorithm options are shown as they are typed.
  const std::string batch_help = run_cli(dir, {"batch", "--help"}).out;
  EXPECT_NE(batch_help.find("      --p arg "), std::string::npos) << batch_help;
  EXPECT_NE(batch_help.find("      --q arg "), std::string::npos);
  EXPECT_EQ(batch_help.find("jump-"), std::string::npos);
}

// The commands --help lists are the ones a missing or unknown command's message names, and each
// runs.
TEST(Cli, NamesEveryCommandWhenNoneOrAnUnknownOneIsGiven) {
  scratch_dir dir;
  const std::string help = run_cli(dir, {"--help"}).out;
  const auto none = run_cli(dir, {});
  const auto unknown = run_cli(dir, {"fly"});
  EXPECT_EQ(none.code, 2);
  EXPECT_EQ(unknown.code, 2);
  std::vector<std::string> listed;
  std::istringstream lines(help.substr(help.find("Commands:\n") + 10));
  for (std::string line; std::getline(lines, line) && line.starts_with("  ");) {
    const std::string name = line.substr(2, line.find(' ', 2) - 2);
    listed.push_back(name);
    EXPECT_NE(none.err.find(" " + name), std::string::npos) << name << ": " << none.err;
    EXPECT_NE(unknown.err.find(" " + name), std::string::npos) << name << ": " << unknown.err;
    EXPECT_EQ(run_cli(dir, {name, "--help"}).code, 0) << name;
  }
  EXPECT_EQ(listed.size(), 8u) << help;
  ASSERT_FALSE(listed.empty());
  EXPECT_NE(none.err.find(" or " + listed.back() + ";"), std::string::npos) << none.err;
}

TEST(Cli, PrintsItsVersionAndBuild) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(r.out.starts_with("nqueens ")) << r.out;
  EXPECT_NE(r.out.find("build"), std::string::npos);
}

// Every layout solve writes is read back by verify, from a file and from standard input.
TEST(Cli, EveryFormatRoundTripsThroughVerify) {
  scratch_dir dir;
  for (const std::string n : {"1", "4", "8", "13", "32", "100"}) {
    for (const std::string format : {"grid", "matrix", "positions", "json"}) {
      for (const std::string algo : {"min-conflicts", "constructive"}) {
        const auto solved =
            run_cli(dir, {"solve", "-n", n, "-f", format, "--algo", algo, "-o", "board.txt"});
        ASSERT_EQ(solved.code, 0) << n << " " << format << ": " << solved.err;
        EXPECT_TRUE(solved.out.empty());
        const auto checked = run_cli(dir, {"verify", "board.txt"});
        EXPECT_EQ(checked.code, 0) << n << " " << format << ": " << checked.out << checked.err;
        EXPECT_NE(checked.out.find("n=" + n + ": valid"), std::string::npos) << checked.out;
        const auto piped =
            run_cli(dir, {"verify", "-", "--format", format}, test::slurp(dir / "board.txt"));
        EXPECT_EQ(piped.code, 0) << n << " " << format << ": " << piped.err;
      }
    }
  }
}

TEST(Cli, DefaultFormatIsGridUpTo32ThenSummary) {
  scratch_dir dir;
  const auto small = run_cli(dir, {"solve", "-n", "32"});
  EXPECT_EQ(small.code, 0);
  EXPECT_EQ(test::count_lines(small.out), 32u);
  EXPECT_EQ(run_cli(dir, {"verify"}, small.out).code, 0);
  const auto large = run_cli(dir, {"solve", "-n", "33"});
  EXPECT_EQ(large.code, 0);
  EXPECT_EQ(test::count_lines(large.out), 1u);
  EXPECT_NE(large.out.find("n=33: solved by min-conflicts"), std::string::npos) << large.out;
}

TEST(Cli, JsonRecordCarriesEveryField) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"solve", "-n", "50", "-f", "json", "--seed", "77"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto record = nlohmann::json::parse(r.out);
  for (const char* key : {"n", "algorithm", "device", "seed", "solved", "conflicts", "steps",
                          "restarts", "seconds", "rows"})
    EXPECT_TRUE(record.contains(key)) << key;
  EXPECT_EQ(record["n"], 50);
  EXPECT_EQ(record["algorithm"], "min-conflicts");
  EXPECT_EQ(record["device"], "cpu");
  EXPECT_EQ(record["seed"], 77);
  EXPECT_EQ(record["solved"], true);
  EXPECT_EQ(record["conflicts"], 0);
  EXPECT_EQ(record["rows"].size(), 50u);
}

TEST(Cli, SeedsMakeRunsReproducible) {
  scratch_dir dir;
  const auto a = run_cli(dir, {"solve", "-n", "1000", "-f", "positions", "--seed", "9"});
  const auto b = run_cli(dir, {"solve", "-n", "1000", "-f", "positions", "--seed", "9"});
  const auto c = run_cli(dir, {"solve", "-n", "1000", "-f", "positions", "--seed", "10"});
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
}

TEST(Cli, AMillionQueensSolveAndVerify) {
  scratch_dir dir;
  const auto solved =
      run_cli(dir, {"solve", "-n", "1000000", "--format", "positions", "--output", "s.txt"});
  ASSERT_EQ(solved.code, 0) << solved.err;
  const auto checked = run_cli(dir, {"verify", "s.txt"});
  EXPECT_EQ(checked.code, 0) << checked.out << checked.err;
  EXPECT_NE(checked.out.find("n=1000000: valid"), std::string::npos);
  EXPECT_EQ(run_cli(dir, {"solve", "-n", "1e6", "-q"}).code, 0);
}

TEST(Cli, TwoAndThreeAreAnsweredAtOnce) {
  scratch_dir dir;
  for (const std::string n : {"2", "3"}) {
    const auto grid = run_cli(dir, {"solve", "-n", n, "-o", "none.txt"});
    EXPECT_EQ(grid.code, 1);
    EXPECT_EQ(grid.err, "nqueens solve: no solution exists for n=" + n + "\n");
    EXPECT_TRUE(dir.files().empty()) << "a board format has nothing to write";
    const auto json = run_cli(dir, {"solve", "-n", n, "-f", "json"});
    EXPECT_EQ(json.code, 1);
    const auto record = nlohmann::json::parse(json.out);
    EXPECT_EQ(record["solved"], false);
    EXPECT_TRUE(record["rows"].is_null());
    EXPECT_TRUE(record["conflicts"].is_null()) << "no board, so no pairs to count";
    const auto summary = run_cli(dir, {"solve", "-n", n, "-f", "summary"});
    EXPECT_EQ(summary.out, "n=" + n + ": no solution exists\n");
  }
}

TEST(Cli, LimitsEndTheSearchWithExitOne) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"solve", "-n", "100000", "--max-steps", "1000", "-f", "json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("within the step limit (1000 steps"), std::string::npos) << r.err;
  const auto record = nlohmann::json::parse(r.out);
  EXPECT_EQ(record["solved"], false);
  EXPECT_EQ(record["steps"], 1000);
  // Stopped while placing: the queens left to place, not the pairs of the whole board.
  EXPECT_TRUE(record["conflicts"].is_null()) << r.out.substr(0, 200);
  EXPECT_GT(record["unplaced"].get<std::uint64_t>(), 0u);
  const auto board = run_cli(dir, {"verify", "--json"}, r.out);
  EXPECT_EQ(board.code, 1);
  EXPECT_GT(nlohmann::json::parse(board.out)["conflicts"].get<std::uint64_t>(), 0u);
}

TEST(Cli, AnUnsolvedRunShowsTheBoardItWasLeftWith) {
  scratch_dir dir;
  // The board formats print the stuck board, as a solved one, and exit 1.
  const auto grid =
      run_cli(dir, {"solve", "-n", "100", "-f", "grid", "--max-steps", "5", "-o", "g.txt"});
  EXPECT_EQ(grid.code, 1);
  const auto record = run_cli(dir, {"solve", "-n", "100", "--max-steps", "5", "-f", "json"});
  const auto check = run_cli(dir, {"verify", "--json", "g.txt"});
  EXPECT_EQ(check.code, 1) << check.err;
  const auto same = run_cli(dir, {"verify", "--json"}, record.out);
  EXPECT_EQ(same.code, 1) << same.err;
  EXPECT_EQ(nlohmann::json::parse(check.out)["conflicts"],
            nlohmann::json::parse(same.out)["conflicts"]);
  // A climber stuck on a local minimum: its board, and the pairs left and the first clash.
  const auto stuck =
      run_cli(dir, {"solve", "-n", "8", "--algo", "hc", "--max-steps", "1", "-f", "positions"});
  ASSERT_EQ(stuck.code, 1) << stuck.err;
  const auto again = run_cli(dir, {"verify"}, stuck.out);
  EXPECT_EQ(again.code, 1);
  const auto json = nlohmann::json::parse(
      run_cli(dir, {"solve", "-n", "8", "--algo", "hc", "--max-steps", "1", "-f", "json"}).out);
  const std::string pairs = std::to_string(json["conflicts"].get<int>()) + " attacking pair";
  EXPECT_NE(again.out.find(pairs), std::string::npos) << again.out;
  EXPECT_NE(stuck.err.find("within the step limit (1 step)"), std::string::npos) << stuck.err;
  // An unsolved hc on its own: the pairs left and the first clash on stderr.
  for (int seed = 1; seed < 40; ++seed) {
    const auto hc =
        run_cli(dir, {"solve", "-n", "8", "--algo", "hc", "--seed", std::to_string(seed)});
    if (hc.code == 0) continue;
    EXPECT_EQ(hc.code, 1);
    EXPECT_EQ(test::count_lines(hc.out), 8u) << "the stuck 8 x 8 grid";
    EXPECT_NE(hc.err.find("left, first between columns"), std::string::npos) << hc.err;
    break;
  }
}

TEST(Cli, CountsOfOneAreSingular) {
  scratch_dir dir;
  // One queen: one step places it, and there is one solution.
  const auto solve = run_cli(dir, {"solve", "-n", "1", "-f", "summary"});
  EXPECT_NE(solve.out.find("(seed 1, 1 step, 0 restarts)"), std::string::npos) << solve.out;
  const auto count = run_cli(dir, {"count", "-n", "1"});
  EXPECT_EQ(count.out.rfind("n=1: 1 solution (", 0), 0u) << count.out;
  const auto batch =
      run_cli(dir, {"batch", "-n", "8", "--algo", "hc", "--runs", "1", "--device", "cpu"});
  EXPECT_NE(batch.out.find("hc on n=8: 1 run, "), std::string::npos) << batch.out;
}

TEST(Cli, MemoryLimitTakesDecimalSizes) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"solve", "-n", "8", "--memory-limit", "1.5G", "-f", "summary"});
  EXPECT_EQ(r.code, 0) << r.err;
  const auto tight = run_cli(dir, {"solve", "-n", "1e6", "--memory-limit", "0.5K"});
  EXPECT_EQ(tight.code, 3);
  EXPECT_NE(tight.err.find("512 bytes is allowed"), std::string::npos) << tight.err;
}

TEST(Cli, VerifyNamesTheFirstClash) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"verify"}, "1 2 3 4\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out,
            "n=4: invalid, 6 attacking pairs; first clash: columns 1 and 2 share a diagonal\n");
  const auto anti = run_cli(dir, {"verify"}, "1 3 2\n");
  EXPECT_EQ(
      anti.out,
      "n=3: invalid, 1 attacking pair; first clash: columns 2 and 3 share an anti-diagonal\n");
  const auto json = run_cli(dir, {"verify", "--json"}, "2 4 1 1\n");
  EXPECT_EQ(json.code, 1);
  const auto report = nlohmann::json::parse(json.out);
  EXPECT_EQ(report["valid"], false);
  EXPECT_EQ(report["first_clash"]["columns"], nlohmann::json::array({2, 3}));
  EXPECT_EQ(report["first_clash"]["line"], "row");
}

TEST(Cli, OutputFilesAppearWholeAndLeaveNoTemporaries) {
  scratch_dir dir;
  test::spit(dir / "keep.txt", "old content\n");
  EXPECT_EQ(run_cli(dir, {"solve", "-n", "abc", "-o", "keep.txt"}).code, 2);
  EXPECT_EQ(test::slurp(dir / "keep.txt"), "old content\n");
  EXPECT_EQ(run_cli(dir, {"solve", "-n", "3", "-f", "positions", "-o", "keep.txt"}).code, 1);
  EXPECT_EQ(test::slurp(dir / "keep.txt"), "old content\n");
  EXPECT_EQ(run_cli(dir, {"solve", "-n", "8", "-f", "positions", "-o", "keep.txt"}).code, 0);
  EXPECT_EQ(run_cli(dir, {"verify", "keep.txt"}).code, 0);
  EXPECT_EQ(dir.files(), std::vector<std::string>{"keep.txt"});
}

TEST(Cli, ListsAlgorithms) {
  scratch_dir dir;
  const auto text = run_cli(dir, {"algorithms"});
  EXPECT_EQ(text.code, 0);
  EXPECT_TRUE(text.out.starts_with("hc ")) << text.out;
  for (const char* name : {"\nhc-sideways", "\nhc-restart", "\nfirst-choice", "\nmin-conflicts",
                           "\nsa ", "\nrandom ", "\nrandom-opt", "\nhc-random-p", "\nhc-anneal-p",
                           "\nhc-memory", "\nbeam", "\nga ", "\nconstructive", "\nbfs",
                           "\nparallel"})
    EXPECT_NE(text.out.find(name), std::string::npos) << name;
  const auto json = nlohmann::json::parse(run_cli(dir, {"algorithms", "-f", "json"}).out);
  ASSERT_EQ(json.size(), 20u);
  for (const auto& entry : json) {
    EXPECT_TRUE(entry.contains("summary"));
    EXPECT_TRUE(entry.contains("steps"));
    // Every listed algorithm runs from solve: solved (0), or not found in its limits (1).
    const auto r = run_cli(dir, {"solve", "-n", "10", "--algo", entry["name"], "-f", "json"});
    EXPECT_TRUE(r.code == 0 || r.code == 1) << entry["name"] << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["algorithm"], entry["name"]);
  }
}

}  // namespace
}  // namespace nq
