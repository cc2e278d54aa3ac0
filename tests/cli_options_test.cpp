// Options read as they are written: whole numbers by their decimal text, switches by their
// value, and every option an algorithm does not read refused (issue 27).

#include <gtest/gtest.h>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::scratch_dir;

TEST(CliOptions, EveryWholeNumberOptionTakesScientificNotation) {
  scratch_dir dir;
  const auto digits =
      run_cli(dir, {"solve", "-n", "8", "--seed", "10000000000000000000", "-f", "positions"});
  const auto notation = run_cli(dir, {"solve", "-n", "8", "--seed", "1e19", "-f", "positions"});
  ASSERT_EQ(digits.code, 0) << digits.err;
  EXPECT_EQ(notation.code, 0) << notation.err;
  EXPECT_EQ(notation.out, digits.out);
  const auto chain = run_cli(dir, {"solve", "-n", "8", "--algo", "hc", "--chain", "3e0"});
  EXPECT_NE(chain.code, 2) << chain.err;
}

TEST(CliOptions, FloorsAndQueensPerJumpAreCheckedOnTheSettingsThatRun) {
  scratch_dir dir;
  // The swept t0 is above --t-min at every point, though the default t0 (64) is not.
  const auto swept = run_cli(dir, {"batch", "-n", "8", "--algo", "sa", "--t-min", "100", "--sweep",
                                   "t0=200:300:100", "--runs", "2", "--max-steps", "10"});
  EXPECT_EQ(swept.code, 0) << swept.err;
  // hc-memory's default of 4 queens per jump is no refusal on a smaller board.
  const auto small = run_cli(dir, {"solve", "-n", "1", "--algo", "hc-memory"});
  EXPECT_EQ(small.code, 0) << small.err;
}

TEST(CliOptions, ASwitchMeansItsValue) {
  scratch_dir dir;
  const auto accepts = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"solve",       "-n", "8",  "--algo", "sa",
                                  "--max-steps", "10", "-f", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(dir, args);
    EXPECT_NE(r.code, 2) << r.err;
    return r.out.find("\"accept-equal\":true") != std::string::npos;
  };
  EXPECT_TRUE(accepts({}));
  EXPECT_TRUE(accepts({"--reject-equal=false"}));
  EXPECT_TRUE(accepts({"--reject-equal=0"}));
  EXPECT_TRUE(accepts({"--accept-equal=true"}));
  EXPECT_FALSE(accepts({"--reject-equal"}));
  EXPECT_FALSE(accepts({"--reject-equal=true"}));
  EXPECT_FALSE(accepts({"--reject-equal=1"}));
  EXPECT_FALSE(accepts({"--accept-equal=false"}));
  // Every command's switches, not only the algorithms'.
  const auto count = run_cli(dir, {"count", "-n", "6", "-q", "--unique=false"});
  EXPECT_EQ(count.code, 0) << count.err;
  EXPECT_EQ(count.out.find("unique"), std::string::npos) << count.out;
}

TEST(CliOptions, HelpGivesEachDefaultOnce) {
  scratch_dir dir;
  for (const std::string command : {"count", "batch"}) {
    const auto help = run_cli(dir, {command, "--help"});
    ASSERT_EQ(help.code, 0) << help.err;
    // The option's lines: up to the next line that starts another option.
    const auto at = help.out.find("--threads arg");
    ASSERT_NE(at, std::string::npos) << help.out;
    auto end = help.out.find('\n', at);
    while (end != std::string::npos &&
           help.out.find_first_not_of(' ', end + 1) != help.out.find('-', end + 1))
      end = help.out.find('\n', end + 1);
    const std::string threads = help.out.substr(at, end - at);
    EXPECT_NE(threads.find("(default: all"), std::string::npos) << threads;
    EXPECT_EQ(threads.find("default", threads.find("default") + 1), std::string::npos) << threads;
  }
}

}  // namespace
}  // namespace nq
