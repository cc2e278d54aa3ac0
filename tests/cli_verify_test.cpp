// verify against hostile input: boards run together on one stream, the memory limit at every
// size and format, the line a bad board of --each is on; one queen in the singular.

#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::scratch_dir;
constexpr auto npos = std::string::npos;

TEST(CliVerify, EndsAPositionsBoardWhereItsNumbersMakeABoard) {
  scratch_dir dir;
  const std::string one = run_cli(dir, {"solutions", "-n", "1"}).out;
  std::string ones;  // stands for 10^7 lines of 1
  for (int i = 0; i < 1'000'000; ++i) ones += "1\n";
  for (const std::string& merged : {std::string("1\n2 4 1 3\n"), one + one, ones}) {
    const auto r = run_cli(dir, {"verify"}, merged);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.err.find("line 2: a second board follows the first, which ends on line 1 with 1 "
                         "queen;"),
              npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // A board wrapped over lines, or written a number a line, is one board.
  for (const std::string board : {"1 5 8 6\n3 7 2 4\n", "2\n4\n1\n3\n", "2 4 1 3\n\n\n"}) {
    const auto r = run_cli(dir, {"verify"}, board);
    EXPECT_EQ(r.code, 0) << board << r.err;
  }
}

TEST(CliVerify, TheMemoryLimitHoldsForEverySizeAndFormat) {
  scratch_dir dir;
  const auto board = [&](const char* n, const char* format) {
    return run_cli(dir, {"solve", "-n", n, "--algo", "constructive", "-f", format}).out;
  };
  // 1K allows 113 queens at 9 bytes each.
  EXPECT_EQ(run_cli(dir, {"verify", "--memory-limit", "1K"}, board("113", "positions")).code, 0);
  for (const std::string& text :
       {board("114", "positions"), board("114", "grid"), board("114", "matrix"),
        board("114", "json"), board("60000", "positions"), board("100000", "json")}) {
    for (const std::string mode : {"--json", "--each"}) {
      if (mode == "--each" && test::count_lines(text) > 1) continue;  // --each reads no grids
      const auto r = run_cli(dir, {"verify", mode, "--memory-limit", "1K"}, text);
      EXPECT_EQ(r.code, 3) << mode << " " << text.substr(0, 80) << "\n" << r.err;
      EXPECT_NE(r.err.find("the memory limit"), npos) << r.err;
      EXPECT_TRUE(r.out.empty()) << r.out;
    }
  }
  const auto one = run_cli(dir, {"verify", "--memory-limit", "9"}, "2 1\n");
  EXPECT_EQ(one.code, 3) << one.err;
  EXPECT_NE(one.err.find("the board passes 1 queen, more than"), npos) << one.err;
  const auto none = run_cli(dir, {"verify", "--memory-limit", "0"}, "1\n");
  EXPECT_EQ(none.code, 3) << none.err;
  EXPECT_NE(none.err.find("a memory limit of 0 bytes leaves no room for a board"), npos)
      << none.err;
}

TEST(CliVerify, EachNamesTheLineOfABadBoardOnce) {
  scratch_dir dir;
  const std::pair<std::string, std::string> cases[] = {
      {"2 4 1 3\n1 2 x\n", "verify: standard input: line 2: expected a row number"},
      {"2 4 1 3\n\n1 2 3 9\n", "verify: standard input: line 3: column 4 has row 9"},
      {"{\"rows\":[0]}\n{\"rows\":[0,1.5]}\n", "verify: standard input: line 2: \"rows\" must"},
  };
  for (const auto& [input, message] : cases) {
    const auto r = run_cli(dir, {"verify", "--each"}, input);
    EXPECT_EQ(r.code, 2) << input;
    EXPECT_NE(r.err.find(message), npos) << r.err;
    EXPECT_EQ(r.err.find("line 1"), npos) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  }
}

TEST(CliShell, SaysOneQueenInTheSingular) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"shell"}, "new 1\n");
  EXPECT_NE(r.out.find("a random board of 1 queen (seed"), npos) << r.out;
}

}  // namespace
}  // namespace nq
