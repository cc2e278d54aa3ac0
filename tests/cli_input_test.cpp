// Hostile or unusual input to the shell and to verify: oversized boards and lines, control
// bytes, several boards on one stream, whitespace before a board, other grid alphabets.

#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::scratch_dir;

std::string rows_line(std::size_t n) {
  std::string line;
  for (std::size_t i = 1; i <= n; ++i) line += std::to_string(i) + " ";
  return line;
}

TEST(CliShell, RefusesABoardLargerThanNewAcceptsAndCarriesOn) {
  scratch_dir dir;
  const std::string script = "board " + rows_line(65536) + "\nrun hc\nnew 8 1\nrun hc\n";
  const auto r = run_cli(dir, {"shell"}, script);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("error: the shell keeps boards up to 65535 queens"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("hc: "), std::string::npos) << "the shell quit: " << r.out;
}

TEST(CliShell, EscapesControlBytesInErrors) {
  scratch_dir dir;
  const char script[] = "fl\x1b[31my\x01\x7f\0x\nquit\n";
  const auto r = run_cli(dir, {"shell"}, std::string(script, sizeof script - 1));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown command 'fl\\x1b[31my\\x01\\x7f\\x00x'"), std::string::npos)
      << r.err;
  for (const char c : r.err) EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << int(c);
}

TEST(CliShell, DropsAnOverlongLineWithOneErrorAndCarriesOn) {
  scratch_dir dir;
  const std::string script = std::string(5 << 20, 'x') + "\nnew 8 1\n";
  const auto r = run_cli(dir, {"shell"}, script);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err.substr(0, 500);
  EXPECT_NE(r.err.find("a line holds at most 1048576 bytes"), std::string::npos) << r.err;
  EXPECT_LT(r.err.size(), 1000u);
  EXPECT_NE(r.out.find("a random board of 8 queens"), std::string::npos) << "carried on";
}

TEST(CliShell, ShortensLongWordsInErrors) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"shell"}, std::string(500'000, 'y') + "\n");
  EXPECT_EQ(r.code, 2);
  EXPECT_LT(r.err.size(), 1000u);
  EXPECT_NE(r.err.find("more bytes)"), std::string::npos) << r.err;
}

TEST(CliShell, ShowsANulByteInAnErrorAndTheRestOfTheLine) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"shell"}, std::string("new 8\0x\n", 8));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("got '8\\x00x'"), std::string::npos) << r.err;
}

TEST(CliShell, RefusesWordsAfterACommandThatTakesNone) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"shell"}, "new 8 1\nshow x\nquit now\nhelp me\nshow\n");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(test::count_lines(r.err), 3u) << r.err;
  EXPECT_NE(r.err.find("error: 'show' takes nothing after it, got 'x'"), std::string::npos);
  EXPECT_NE(r.err.find("error: 'quit' takes nothing after it, got 'now'"), std::string::npos);
  // It carried on past "quit now" to the last show: the board twice in all.
  std::size_t boards = 0;
  for (auto at = r.out.find("8 queens,"); at != std::string::npos;
       at = r.out.find("8 queens,", at + 1))
    ++boards;
  EXPECT_EQ(boards, 2u) << r.out;
}

TEST(CliShell, ANegativeNumberOfRunsIsRefusedAsRuns) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"shell"}, "new 8 1\nbatch hc -5\n");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--runs must be a positive whole number, got '-5'"), std::string::npos)
      << r.err;
}

TEST(CliVerify, RefusesSeveralBoardsOnOneStream) {
  scratch_dir dir;
  const auto listed = run_cli(dir, {"solutions", "-n", "8"});
  ASSERT_EQ(listed.code, 0);
  const auto r = run_cli(dir, {"verify"}, listed.out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.err.find("line 2: a second board follows the first"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const auto json =
      run_cli(dir, {"verify"}, run_cli(dir, {"solutions", "-n", "6", "-f", "json"}).out);
  EXPECT_EQ(json.code, 2) << json.out;
  EXPECT_NE(json.err.find("a second board follows the first"), std::string::npos) << json.err;
}

TEST(CliVerify, EachChecksOneBoardPerLine) {
  scratch_dir dir;
  const auto listed = run_cli(dir, {"solutions", "-n", "8"});
  const auto r = run_cli(dir, {"verify", "--each"}, listed.out);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(test::count_lines(r.out), 92u);
  EXPECT_EQ(r.out.find("n=8: valid"), 0u) << r.out;
  const auto json = run_cli(dir, {"solutions", "-n", "6", "-f", "json"});
  const auto mixed = run_cli(dir, {"verify", "--each", "--json"}, json.out + "1 2 3 4\n");
  EXPECT_EQ(mixed.code, 1) << mixed.err;
  EXPECT_EQ(test::count_lines(mixed.out), 5u) << mixed.out;
  EXPECT_NE(mixed.out.find("\"valid\":false"), std::string::npos) << mixed.out;
}

TEST(CliVerify, FindsABoardAfterMegabytesOfWhitespace) {
  scratch_dir dir;
  for (const std::string board : {"2 4 1 3\n", ". Q . .\n. . . Q\nQ . . .\n. . Q .\n"}) {
    const auto r = run_cli(dir, {"verify"}, std::string(3 << 20, ' ') + "\n\n" + board);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("n=4: valid"), std::string::npos) << r.out;
  }
}

TEST(CliVerify, BoundsStandardInputByTheMemoryLimit) {
  scratch_dir dir;
  std::string endless;  // stands for an endless stream: far more than the limit allows
  for (int i = 0; i < 2'000'000; ++i) endless += "1 ";
  const auto r = run_cli(dir, {"verify", "--memory-limit", "1M"}, endless);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("more than the memory limit allows"), std::string::npos) << r.err;
  const auto json =
      run_cli(dir, {"verify", "--memory-limit", "1M"}, "{\"rows\": [" + endless + "0]}");
  EXPECT_EQ(json.code, 3) << json.err;
}

TEST(CliVerify, ReadsGridsInOtherAlphabets) {
  scratch_dir dir;
  // The Haskell article's layout, and others seen in the wild.
  for (const std::string board :
       {"* Q * *\n* * * Q\nQ * * *\n* * Q *\n", "-Q--\n---Q\nQ---\n--Q-\n",
        "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n", ". 1 . .\n. . . 1\n1 . . .\n. . 1 .\n",
        "0Q00\n000Q\nQ000\n00Q0\n"}) {
    const auto r = run_cli(dir, {"verify"}, board);
    EXPECT_EQ(r.code, 0) << board << r.err;
    EXPECT_NE(r.out.find("n=4: valid"), std::string::npos) << r.out;
  }
  const auto r = run_cli(dir, {"verify", "-f", "grid"}, "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n");
  EXPECT_EQ(r.code, 0) << r.err;
}

}  // namespace
}  // namespace nq
