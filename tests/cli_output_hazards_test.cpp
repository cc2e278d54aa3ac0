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

/// Waits for `process` to end, at most `seconds` (generous: it ends in moments when nothing
/// hangs), killing it past that; the result's code is -1 when it had to be killed.
test::cli_result wait_at_most(cli_process& process, int seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!process.finished() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (!process.finished()) {
    process.kill(SIGKILL);
    process.wait();
    return {-1, "", "killed: it hung"};
  }
  return process.wait();
}

struct limited_writer {
  const char* name;
  std::vector<std::string> args;
  std::size_t limit;  ///< bytes: above the one line on stderr, below what the output needs
  const char* file;   ///< the output that must not appear; "" for standard output
};

void PrintTo(const limited_writer& w, std::ostream* os) { *os << w.name; }

class CliFileSizeLimit : public testing::TestWithParam<limited_writer> {};

// Without SIGXFSZ ignored, the first write past the limit ended the process by that signal
// (status 153) with its temporary left behind.
TEST_P(CliFileSizeLimit, ExitsThreeWithOneLineAndLeavesNothing) {
  const limited_writer& w = GetParam();
  scratch_dir dir;
  const auto r = test::run_cli_file_limited(dir, w.limit, w.args);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_EQ(temporaries(dir), 0u);
  if (*w.file) {
    EXPECT_FALSE(fs::exists(dir / w.file)) << w.file << " appeared";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Writers, CliFileSizeLimit,
    testing::Values(
        limited_writer{"solve_output",
                       {"solve", "-n", "1e5", "-f", "positions", "-q", "-o", "p.txt"},
                       4096,
                       "p.txt"},
        limited_writer{"solve_stdout", {"solve", "-n", "1e5", "-f", "positions", "-q"}, 4096, ""},
        limited_writer{"solve_trace",
                       {"solve", "-n", "200", "--algo", "sa", "--max-steps", "2000", "-q", "-f",
                        "summary", "--trace", "t.csv"},
                       4096,
                       "t.csv"},
        limited_writer{"solutions_output", {"solutions", "-n", "9", "-o", "s.txt"}, 4096, "s.txt"},
        limited_writer{"solutions_stdout", {"solutions", "-n", "9"}, 4096, ""},
        limited_writer{"count_output",
                       {"count", "-n", "8", "--device", "cpu", "-f", "json", "-o", "c.json"},
                       100,
                       "c.json"},
        limited_writer{"count_checkpoint",
                       {"count", "-n", "12", "--device", "cpu", "--checkpoint", "ck.json"},
                       4096,
                       "ck.json"},
        limited_writer{"batch_output",
                       {"batch", "-n", "8", "--algo", "hc-random-p", "--runs", "10", "--device",
                        "cpu", "--sweep", "p=0.05:0.5:0.05", "-f", "json", "-o", "b.json"},
                       4096,
                       "b.json"},
        limited_writer{"batch_runs_csv",
                       {"batch", "-n", "8", "--algo", "hc", "--runs", "1000", "--device", "cpu",
                        "--runs-csv", "r.csv"},
                       4096,
                       "r.csv"},
        limited_writer{"algorithms_stdout", {"algorithms"}, 100, ""},
        limited_writer{"help_stdout", {"solve", "--help"}, 100, ""}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CliOutputs, TwoOutputsOnOneFileAreRefusedBeforeAnyWork) {
  scratch_dir dir;
  fs::create_symlink("same.txt", dir / "link.txt");  // dangling: both name a file to be made
  test::spit(dir / "kept.txt", "old\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", "-n", "8", "--algo", "hc", "--trace", "x", "-o", "x"},
        std::vector<std::string>{"solve", "-n", "8", "--algo", "hc", "--trace", "link.txt", "-o",
                                 "./same.txt"},
        std::vector<std::string>{"solve", "-n", "8", "--algo", "hc", "--trace", "kept.txt", "-o",
                                 "../" + dir.path().filename().string() + "/kept.txt"},
        std::vector<std::string>{"batch", "-n", "8", "--algo", "hc", "--runs", "10", "--device",
                                 "cpu", "--runs-csv", "x", "-o", "x"},
        std::vector<std::string>{"count", "-n", "8", "--device", "cpu", "--checkpoint", "x", "-o",
                                 "x"}}) {
    const auto r = run_cli(dir, args);
    EXPECT_EQ(r.code, 2) << args[0] << ": " << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("one file"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(dir / "x"));
    EXPECT_FALSE(fs::exists(dir / "same.txt"));
    EXPECT_EQ(test::slurp(dir / "kept.txt"), "old\n");
    EXPECT_EQ(temporaries(dir), 0u);
  }
}

// `nqueens solve --trace out.csv > out.csv`: the trace would be renamed over the file standard
// output still writes, and the result lost.
TEST(CliOutputs, AnOutputOnTheFileStandardOutputWritesIsRefused) {
  scratch_dir dir;
  test::spit(dir / "out.csv", "old\n");
  const auto r = cli_process(dir, {"solve", "-n", "8", "--algo", "hc", "--trace", "out.csv"}, "",
                             (dir / "out.csv").string())
                     .wait();
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("standard output and --trace out.csv are one file"), std::string::npos)
      << r.err;
  EXPECT_EQ(test::slurp(dir / "out.csv"), "old\n");
}

TEST(CliOutputs, AnEmptyFileNameIsRefused) {
  scratch_dir dir;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", "-n", "8", "--algo", "hc", "--trace", ""},
        std::vector<std::string>{"solve", "-n", "8", "-o", ""},
        std::vector<std::string>{"solutions", "-n", "6", "-o", ""},
        std::vector<std::string>{"count", "-n", "8", "--device", "cpu", "-o", ""},
        std::vector<std::string>{"count", "-n", "8", "--device", "cpu", "--checkpoint", ""},
        std::vector<std::string>{"batch", "-n", "8", "--algo", "hc", "--runs", "10", "--device",
                                 "cpu", "-o", ""},
        std::vector<std::string>{"batch", "-n", "8", "--algo", "hc", "--runs", "10", "--device",
                                 "cpu", "--runs-csv", ""}}) {
    const auto r = run_cli(dir, args);
    EXPECT_EQ(r.code, 2) << args[0] << " " << args[args.size() - 2] << ": " << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("needs a file name"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << args[args.size() - 2];
  }
}

// Every output but a checkpoint: a FIFO that no process reads is refused after a wait of a few
// seconds, instead of an open that waits forever.
TEST(CliOutputs, AFifoWithoutAReaderIsRefusedNotWaitedOnForever) {
  scratch_dir dir;
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", "-n", "8", "-o", "pipe"},
        std::vector<std::string>{"solve", "-n", "8", "--algo", "hc", "--trace", "pipe"}}) {
    cli_process process(dir, args);
    const auto r = wait_at_most(process, 120);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("no process is reading"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(fs::is_fifo(dir / "pipe"));
  }
}

// `nqueens solve -o pipe & cat pipe`: the reader may open the FIFO a moment after nqueens.
TEST(CliOutputs, AFifoWhoseReaderComesLateIsWritten) {
  scratch_dir dir;
  const auto fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  cli_process process(dir, {"solve", "-n", "8", "-f", "positions", "-o", "pipe"});
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const auto r = wait_at_most(process, 120);
  char text[256] = {};
  const ssize_t size = ::read(reader, text, sizeof text - 1);
  ::close(reader);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(std::string(text, size > 0 ? size : 0),
            run_cli(dir, {"solve", "-n", "8", "-f", "positions"}).out);
}

// A checkpoint is read back: a FIFO would wait for a writer (with a reader there or not).
TEST(CliCount, AFifoCheckpointIsRefused) {
  scratch_dir dir;
  const auto fifo = dir / "ck";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const bool with_reader : {false, true}) {
    const int reader = with_reader ? ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK) : -1;
    cli_process process(dir, {"count", "-n", "8", "--device", "cpu", "--checkpoint", "ck"});
    const auto r = wait_at_most(process, 120);
    if (reader >= 0) ::close(reader);
    EXPECT_EQ(r.code, 2) << "reader " << with_reader << ": " << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_fifo(fifo));
  }
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

// A SIGTERM that comes before nqueens has set anything up (here: pending from the start, as a
// parent's blocked mask leaves it) stops the count as a later one does: exit 130 and its message,
// no checkpoint (nothing finished) and no temporary.
TEST(CliCount, ASignalBeforeTheCountStartsStopsItWithItsMessage) {
  scratch_dir dir;
  cli_process count(dir,
                    {"count", "-n", "16", "--threads", "1", "--device", "cpu", "-q", "--checkpoint",
                     "ck.json", "-o", "out.txt"},
                    "", "", 0, {}, 0, {SIGTERM});
  count.kill(SIGTERM);
  const auto r = wait_at_most(count, 600);
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted after 0 of"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "ck.json"));
  EXPECT_FALSE(fs::exists(dir / "out.txt"));
  EXPECT_EQ(temporaries(dir), 0u);
}

TEST(CliInterruptedSolve, ASignalBeforeTheRunStartsWritesTheBoardItHolds) {
  scratch_dir dir;
  cli_process solve(dir, {"solve", "-n", "1e7", "-f", "summary", "-q", "-o", "out.txt"}, "", "", 0,
                    {}, 0, {SIGTERM});
  solve.kill(SIGTERM);
  const auto r = wait_at_most(solve, 600);
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_regular_file(dir / "out.txt"));
  EXPECT_EQ(temporaries(dir), 0u);
}

}  // namespace
}  // namespace nq
