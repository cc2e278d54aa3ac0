// Runs that meet a limit of the machine or of the user end cleanly: a thread the system will not
// start, a time limit, a memory limit. Timing bounds here are generous (seconds against runs of
// minutes); the precision of the limits is measured in bench/, not asserted.

#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::run_cli_limited;
using test::scratch_dir;

// Room for the program but not for hundreds of 8 MiB thread stacks.
constexpr std::size_t small_address_space_kib = 1'000'000;

TEST(CliLimits, CountThreadsBeyondTheAddressSpaceIsAResourceError) {
  if (test::under_address_sanitizer()) GTEST_SKIP() << "ASan cannot start under ulimit -v";
  scratch_dir dir;
  // n = 12 has 730 subproblems: 730 of the 1,000 threads are started, far past the room.
  const auto one = run_cli_limited(dir, small_address_space_kib, {"count", "-n", "12", "-t", "1"});
  ASSERT_EQ(one.code, 0) << "the limit leaves room for one thread: " << one.err;
  const auto r = run_cli_limited(dir, small_address_space_kib, {"count", "-n", "12", "-t", "1000"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("cannot start worker thread"), std::string::npos) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliLimits, BatchThreadsBeyondTheAddressSpaceIsAResourceError) {
  if (test::under_address_sanitizer()) GTEST_SKIP() << "ASan cannot start under ulimit -v";
  scratch_dir dir;
  const auto r = run_cli_limited(dir, small_address_space_kib,
                                 {"batch", "-n", "8", "--algo", "hc", "--runs", "1e6", "-t", "1024",
                                  "--device", "cpu", "--runs-csv", "runs.csv"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("cannot start worker thread"), std::string::npos) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(dir.files().empty()) << "left a partial file";
}

/// Runs `args` and returns the result with its wall time in seconds.
std::pair<test::cli_result, double> timed_run(const std::vector<std::string>& args) {
  scratch_dir dir;
  const auto start = std::chrono::steady_clock::now();
  auto r = run_cli(dir, args);
  return {r, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

// Each of these runs for minutes without its limit; a step of each costs far more than one of
// min-conflicts, which a fixed count of steps between clock reads did not see.
TEST(CliLimits, ATimeLimitOfOneSecondEndsExpensiveSearchesWithinTen) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", "-n", "5000", "--algo", "backtrack"},
        std::vector<std::string>{"solve", "-n", "3000", "--algo", "beam", "--max-steps", "1e9"}}) {
    auto with_limit = args;
    with_limit.insert(with_limit.end(), {"--time-limit", "1", "-f", "summary"});
    const auto [r, seconds] = timed_run(with_limit);
    EXPECT_EQ(r.code, 1) << args[4] << ": " << r.err;
    EXPECT_NE(r.err.find("within the time limit"), std::string::npos) << r.err;
    EXPECT_LT(seconds, 10.0) << args[4];
  }
}

// A min-conflicts run a limit stops while placing reports the queens not yet placed instead of
// counting pairs, which would take 5 bytes a queen more (the check passed at 4.5 bytes a queen,
// then the peak was twice that) and seconds at 10^8. So a stopped run fits where a solved one
// does, and says what it left.
TEST(CliLimits, AMinConflictsRunStoppedWhilePlacingAllocatesNoMore) {
  scratch_dir dir;
  const auto solved =
      run_cli(dir, {"solve", "-n", "1e7", "--algo", "min-conflicts", "--memory-limit", "60M"});
  EXPECT_EQ(solved.code, 0) << "4.5 bytes a queen fit: " << solved.err;
  const auto r = run_cli(dir, {"solve", "-n", "1e7", "--algo", "min-conflicts", "--max-steps",
                               "1000", "--memory-limit", "60M", "-f", "summary"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("queens not yet placed"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("attacking pair"), std::string::npos) << r.out;
  const auto j = run_cli(dir, {"solve", "-n", "1e5", "--max-steps", "1000", "-f", "json"});
  EXPECT_EQ(j.code, 1) << j.err;
  const auto record = nlohmann::json::parse(j.out);
  EXPECT_TRUE(record["conflicts"].is_null()) << j.out.substr(0, 200);
  const auto unplaced = record["unplaced"].get<long long>();
  EXPECT_GE(unplaced, 100000 - 999);
  EXPECT_LE(unplaced, 100000);
  EXPECT_EQ(record["rows"].size(), 100000u);
}

// A board past an algorithm's limit is refused with that algorithm's reason and what takes
// larger boards: min-conflicts' column variant points at its permutation variant, and the
// algorithms that weigh no n(n-1) moves do not say they do.
TEST(CliLimits, SizeRefusalsSayWhyAndWhatTakesLargerBoards) {
  scratch_dir dir;
  const auto refusal = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"solve", "-n", "1e7"});
    const auto r = run_cli(dir, args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
    return r.err;
  };
  const std::string column = refusal({"-a", "min-conflicts", "--variant", "column"});
  EXPECT_NE(column.find("min-conflicts --variant column takes n up to 65535"), std::string::npos)
      << column;
  EXPECT_NE(column.find("use --variant permutation"), std::string::npos) << column;
  for (const char* algo : {"sa", "random", "random-opt", "ga"}) {
    const std::string err = refusal({"-a", algo});
    EXPECT_NE(err.find("its line counters are 16-bit"), std::string::npos) << err;
    EXPECT_EQ(err.find("n(n-1)"), std::string::npos) << err;
    EXPECT_NE(err.find("use min-conflicts"), std::string::npos) << err;
  }
  EXPECT_NE(refusal({"-a", "hc"}).find("a step weighs all n(n-1) moves"), std::string::npos);
  EXPECT_NE(refusal({"-a", "first-choice"}).find("its order holds all n(n-1) moves"),
            std::string::npos);
}

// first-choice's order of all n(n-1) moves is most of its memory (16 GiB at 65,535 queens):
// `nqueens algorithms` says so, and a board whose order does not fit is refused before any
// work, with what it needs.
TEST(CliLimits, FirstChoiceSaysWhatItsOrderTakesAndIsRefusedWhereItDoesNotFit) {
  scratch_dir dir;
  const auto list = run_cli(dir, {"algorithms"});
  ASSERT_EQ(list.code, 0);
  EXPECT_NE(list.out.find("4 n(n-1) bytes (1 GiB at 16,384 queens, 16 GiB at 65,535)"),
            std::string::npos)
      << list.out;
  const auto r = run_cli(
      dir, {"solve", "-a", "first-choice", "-n", "20000", "--memory-limit", "1G", "-f", "summary"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("needs about 1.49 GiB of memory, but only 1.00 GiB is allowed"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
}

// A systematic search stopped unsolved holds a partial placement, no board: its record counts
// no pairs (conflicts null, not 0), its summary says there is no board, and a board format,
// which has nothing to show, says so on stderr.
TEST(CliLimits, AStoppedSystematicSearchShowsNoBoardAndCountsNoPairs) {
  scratch_dir dir;
  const std::vector<std::string> args = {"solve",     "-n",           "32", "-a",
                                         "backtrack", "--time-limit", "0.2"};
  auto with = [&](std::vector<std::string> more) {
    auto all = args;
    all.insert(all.end(), more.begin(), more.end());
    return run_cli(dir, all);
  };
  const auto json = with({"-f", "json"});
  ASSERT_EQ(json.code, 1) << json.err;
  const auto record = nlohmann::json::parse(json.out);
  EXPECT_TRUE(record["conflicts"].is_null()) << json.out;
  EXPECT_TRUE(record["rows"].is_null()) << json.out;
  const auto summary = with({"-f", "summary"});
  EXPECT_EQ(summary.code, 1);
  EXPECT_NE(summary.out.find("no board: stopped before placing every queen"), std::string::npos)
      << summary.out;
  EXPECT_EQ(summary.out.find("attacking pair"), std::string::npos) << summary.out;
  const auto grid = with({"-f", "grid"});
  EXPECT_EQ(grid.code, 1);
  EXPECT_EQ(grid.out, "");
  EXPECT_NE(grid.err.find("no board to show: backtrack stopped before placing every queen"),
            std::string::npos)
      << grid.err;
  EXPECT_EQ(test::count_lines(grid.err), 1u) << grid.err;
}

// n = 60 never finishes; the help says so, and a time limit ends it.
TEST(CliLimits, SolutionsHonoursATimeLimitAndItsHelpWarns) {
  scratch_dir dir;
  const auto help = run_cli(dir, {"solutions", "--help"});
  EXPECT_NE(help.out.find("--time-limit"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("exponential"), std::string::npos) << help.out;
  const auto [r, seconds] = timed_run({"solutions", "-n", "60", "--time-limit", "1"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("stopped at the time limit after 0 solutions"), std::string::npos) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << "no progress line off a terminal: " << r.err;
  EXPECT_LT(seconds, 10.0);
}

}  // namespace
}  // namespace nq
