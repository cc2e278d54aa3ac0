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

}  // namespace
}  // namespace nq
