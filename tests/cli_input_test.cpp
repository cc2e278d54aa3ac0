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

}  // namespace
}  // namespace nq
