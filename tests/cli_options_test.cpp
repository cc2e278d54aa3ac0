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

}  // namespace
}  // namespace nq
