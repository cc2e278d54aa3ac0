// Issue 14, part A: what nqueens writes over is not destroyed, interrupted runs leave no
// temporaries, and output that cannot be written is an error (exit 3).

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
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

bool has_dev_full() { return fs::is_character_file("/dev/full"); }

/// A character device to hand to -o: /dev/NAME, or for root a node of our own in the scratch
/// directory, since an nqueens with this bug, run as root, replaces the real /dev/full or
/// /dev/null with a file for everyone on the machine. None when it cannot be had.
std::optional<fs::path> safe_device(const scratch_dir& dir, const std::string& name,
                                    unsigned minor) {
  if (::geteuid() != 0)
    return fs::is_character_file("/dev/" + name) ? std::optional<fs::path>("/dev/" + name)
                                                 : std::nullopt;
  const fs::path node = dir / name;
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, minor)) != 0) return std::nullopt;
  const int fd = ::open(node.c_str(), O_WRONLY);  // fails where the file system is nodev
  if (fd < 0) return std::nullopt;
  ::close(fd);
  return node;
}

std::size_t temporaries(const scratch_dir& dir) {
  std::size_t count = 0;
  for (const auto& name : dir.files()) count += name.find(".tmp.") != std::string::npos;
  return count;
}

// A board solve writes to a file is named in one line on stderr (the summary and the file),
// unless --quiet; standard output stays empty, and an unsolved run says only why it stopped.
TEST(CliOutputs, SolveToAFileSaysWhatItWroteWhere) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"solve", "-n", "12", "-f", "json", "-o", "board.json"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(r.err.starts_with("nqueens solve: n=12: solved by min-conflicts in ")) << r.err;
  EXPECT_TRUE(r.err.ends_with("; written to board.json\n")) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  const auto quiet = run_cli(dir, {"solve", "-n", "12", "-q", "-o", "board.txt"});
  EXPECT_EQ(quiet.code, 0);
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
  const auto piped = run_cli(dir, {"solve", "-n", "12", "-o", "-"});
  EXPECT_TRUE(piped.err.empty()) << "standard output is no file to name: " << piped.err;
  const auto stuck = run_cli(dir, {"solve", "-n", "12", "--algo", "hc", "-s", "1", "-o", "s.txt"});
  EXPECT_EQ(stuck.code, 1);
  EXPECT_EQ(stuck.err.find("written to"), std::string::npos) << stuck.err;
}

TEST(CliOutputs, DevFullIsAResourceErrorAndStaysADevice) {
  scratch_dir dir;
  const auto full = safe_device(dir, "full", 7);
  if (!full) GTEST_SKIP() << "no /dev/full";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", "-n", "8", "-o", *full},
        std::vector<std::string>{"count", "-n", "8", "--device", "cpu", "-o", *full},
        std::vector<std::string>{"solutions", "-n", "6", "-o", *full},
        std::vector<std::string>{"solve", "-n", "8", "--algo", "hc", "--trace", *full}}) {
    const auto r = run_cli(dir, args);
    EXPECT_EQ(r.code, 3) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("No space left"), std::string::npos) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
    ASSERT_TRUE(fs::is_character_file(*full)) << *full << " was replaced";
  }
}

TEST(CliOutputs, DevNullIsWrittenThrough) {
  scratch_dir dir;
  const auto null = safe_device(dir, "null", 3);
  if (!null) GTEST_SKIP() << "no /dev/null";
  const auto r = run_cli(dir, {"solve", "-n", "8", "-o", *null});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_character_file(*null)) << *null << " was replaced";
}

TEST(CliOutputs, ASymlinkKeepsPointingAtTheNewContent) {
  scratch_dir dir;
  test::spit(dir / "real.txt", "old\n");
  fs::create_symlink("real.txt", dir / "link.txt");
  const auto r = run_cli(dir, {"solve", "-n", "8", "-f", "positions", "-o", "link.txt"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir / "link.txt")) << "the link was replaced by a file";
  EXPECT_EQ(test::slurp(dir / "real.txt"),
            run_cli(dir, {"solve", "-n", "8", "-f", "positions"}).out);
  EXPECT_EQ(temporaries(dir), 0u);
}

TEST(CliOutputs, ACheckpointBehindASymlinkIsWrittenToItsTarget) {
  scratch_dir dir;
  fs::create_directory(dir / "store");
  fs::create_symlink("store/ck.json", dir / "ck.json");  // dangling until the first save
  const auto first = run_cli(dir, {"count", "-n", "9", "--checkpoint", "ck.json"});
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_TRUE(fs::is_symlink(dir / "ck.json"));
  ASSERT_TRUE(fs::is_regular_file(dir / "store" / "ck.json"));
  const auto again = run_cli(dir, {"count", "-n", "9", "--checkpoint", "ck.json"});
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("resumed from the checkpoint"), std::string::npos) << again.out;
  EXPECT_TRUE(fs::is_symlink(dir / "ck.json"));
}

TEST(CliOutputs, AFifoIsWrittenThroughNotReplaced) {
  scratch_dir dir;
  const auto fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A reader first, so that the writer's open does not wait; the pipe holds the small output.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const auto r = run_cli(dir, {"solve", "-n", "8", "-f", "positions", "-o", "pipe"});
  EXPECT_EQ(r.code, 0) << r.err;
  char text[256] = {};
  const ssize_t size = ::read(reader, text, sizeof text - 1);
  ::close(reader);
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO was replaced";
  EXPECT_EQ(std::string(text, size > 0 ? size : 0),
            run_cli(dir, {"solve", "-n", "8", "-f", "positions"}).out);
}

TEST(CliOutputs, AReplacedFileKeepsItsMode) {
  scratch_dir dir;
  test::spit(dir / "out.txt", "old\n");
  fs::permissions(dir / "out.txt",
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  const auto r = run_cli(dir, {"solve", "-n", "8", "-o", "out.txt"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(fs::status(dir / "out.txt").permissions(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_NE(test::slurp(dir / "out.txt"), "old\n");
}

// A run that fails after its output was opened leaves the old file as it was.
TEST(CliOutputs, AFailedRunLeavesTheOldFileAndNoTemporary) {
  scratch_dir dir;
  test::spit(dir / "out.txt", "old\n");
  const auto r = run_cli(
      dir, {"solve", "-n", "20", "--algo", "bfs", "--max-memory", "1M", "-q", "-o", "out.txt"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(test::slurp(dir / "out.txt"), "old\n");
  EXPECT_EQ(temporaries(dir), 0u);
}

TEST(CliOutputs, A250CharacterNameIsWritten) {
  scratch_dir dir;
  const std::string name(250, 'q');
  const auto r = run_cli(dir, {"solve", "-n", "8", "-o", name});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(dir / name));
  EXPECT_EQ(temporaries(dir), 0u);
}

// Commands that run until stopped, each with its temporary output open. A solve stops its run
// and writes what it holds (exit 130); the others end by the signal, their temporaries removed.
struct interrupted_run {
  const char* name;
  std::vector<std::string> args;
  int signal;
  const char* written = nullptr;  // the file a stopped solve writes
  friend std::ostream& operator<<(std::ostream& out, const interrupted_run& run) {
    return out << run.name;
  }
};

class CliInterrupted : public ::testing::TestWithParam<interrupted_run> {};

TEST_P(CliInterrupted, LeavesNoTemporaryBehind) {
  scratch_dir dir;
  cli_process run(dir, GetParam().args);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (temporaries(dir) == 0 && !run.finished() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_GT(temporaries(dir), 0u) << "no temporary appeared";
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  run.kill(GetParam().signal);
  const auto r = run.wait();
  EXPECT_EQ(temporaries(dir), 0u);
  if (!GetParam().written) {
    EXPECT_EQ(r.code, 128 + GetParam().signal) << r.err;
    return;
  }
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted after"), std::string::npos) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  EXPECT_FALSE(test::slurp(dir / GetParam().written).empty());
}

// Ctrl-C ends a long ga run at its next generation; the record of the board it holds is written
// whole, and verify reads the same board.
TEST(CliInterruptedSolve, WritesTheBoardItHolds) {
  scratch_dir dir;
  cli_process run(dir, {"solve", "-n", "300", "--algo", "ga", "--max-steps", "1e9", "-q", "-f",
                        "json", "-o", "out.json"});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (temporaries(dir) == 0 && !run.finished() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_FALSE(run.finished());
  run.kill(SIGINT);
  const auto r = run.wait();
  ASSERT_EQ(r.code, 130) << r.err;
  const auto record = nlohmann::json::parse(test::slurp(dir / "out.json"));
  EXPECT_EQ(record["solved"], false);  // at generation 0 or later, as the machine's load allows
  ASSERT_EQ(record["rows"].size(), 300u);
  const auto check = run_cli(dir, {"verify", "--json", "out.json"});
  EXPECT_EQ(nlohmann::json::parse(check.out)["conflicts"], record["conflicts"]);
}

// SIGTERM (as Ctrl-C) stops every chain of --chains; the chain holding the fewest attacking pairs
// is kept, its board written whole, and its trace (the chain run alone, as far as it went) ends on
// the step it reached. The signal may come as soon as the output's temporary exists.
TEST(CliInterruptedSolve, ChainsWriteTheBestBoardTheyHold) {
  scratch_dir dir;
  cli_process run(dir, {"solve", "-n", "200", "--algo", "ga", "--chains", "3", "--max-steps", "1e9",
                        "-q", "-f", "json", "-o", "out.json", "--trace", "trace.csv"});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (temporaries(dir) < 2 && !run.finished() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(temporaries(dir), 2u) << "no temporaries appeared";
  run.kill(SIGTERM);
  const auto r = run.wait();
  ASSERT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted after"), std::string::npos) << r.err;
  EXPECT_EQ(temporaries(dir), 0u);
  const auto record = nlohmann::json::parse(test::slurp(dir / "out.json"));
  EXPECT_EQ(record["solved"], false);
  EXPECT_EQ(record["chains"], 3);
  EXPECT_LT(record["chain"].get<int>(), 3);
  ASSERT_EQ(record["rows"].size(), 200u);
  const auto check = run_cli(dir, {"verify", "--json", "out.json"});
  EXPECT_EQ(nlohmann::json::parse(check.out)["conflicts"], record["conflicts"]);
  const std::string trace = test::slurp(dir / "trace.csv");
  EXPECT_EQ(test::count_lines(trace), record["steps"].get<std::size_t>() + 2);  // header, start
}

/// CPU seconds a running process has used (user and system), from /proc; 0 when unknown.
double cpu_seconds(pid_t pid) {
  std::istringstream stat(test::slurp("/proc/" + std::to_string(pid) + "/stat"));
  std::string field;
  for (int i = 1; i <= 13 && stat >> field; ++i) {  // past pid, comm (no spaces here), ...
  }
  unsigned long long user = 0, system = 0;
  stat >> user >> system;
  return static_cast<double>(user + system) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// SIGTERM (as Ctrl-C) stops a batch honestly: the report and --runs-csv describe runs 0..k-1,
// every one finished (the runs in flight are dropped, not counted as failures), both written
// whole, and the report says it was interrupted.
TEST(CliInterruptedBatch, DescribesTheRunsThatFinished) {
  scratch_dir dir;
  cli_process run(dir, {"batch", "-n", "10", "--algo", "sa", "--runs", "1e9", "-t", "2", "-q", "-f",
                        "json", "-o", "out.json", "--runs-csv", "runs.csv"});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (temporaries(dir) < 2 && !run.finished() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(temporaries(dir), 2u) << "no temporaries appeared";
  // Runs of sa on 10 queens take well under a millisecond: once the batch has worked for a
  // CPU second, many have finished and some are in flight.
  while (cpu_seconds(run.pid()) < 1.0 && !run.finished() &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  run.kill(SIGTERM);
  const auto r = run.wait();
  ASSERT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted after"), std::string::npos) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  EXPECT_EQ(temporaries(dir), 0u);
  const auto record = nlohmann::json::parse(test::slurp(dir / "out.json"));
  EXPECT_EQ(record["interrupted"], true);
  EXPECT_EQ(record["runs_requested"], 1000000000);
  const auto runs = record["runs"].get<std::uint64_t>();
  // Every run the CSV lists finished, in order from run 0, and the statistics are theirs.
  std::istringstream csv(test::slurp(dir / "runs.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "run,solved,steps,restarts,cost");
  std::uint64_t rows = 0, solved = 0;
  while (std::getline(csv, line)) {
    EXPECT_EQ(line.substr(0, line.find(',')), std::to_string(rows));
    solved += line.find(",1,") != std::string::npos;
    ++rows;
  }
  EXPECT_EQ(rows, runs);
  EXPECT_EQ(record["solved"].get<std::uint64_t>(), solved);
  // The same runs, as an uninterrupted batch of that many describes them.
  ASSERT_GT(runs, 0u);
  const auto whole = run_cli(dir, {"batch", "-n", "10", "--algo", "sa", "--runs",
                                   std::to_string(runs), "-q", "-f", "json"});
  ASSERT_EQ(whole.code, 0) << whole.err;
  const auto expected = nlohmann::json::parse(whole.out);
  for (const char* field : {"solved", "mean_steps_success", "median_steps_failure", "restarts"})
    EXPECT_EQ(record[field], expected[field]) << field;
}

INSTANTIATE_TEST_SUITE_P(
    Commands, CliInterrupted,
    ::testing::Values(
        interrupted_run{"solve_output",
                        {"solve", "-n", "2000", "--algo", "random", "--max-steps", "1e15", "-q",
                         "-o", "out.txt"},
                        SIGINT,
                        "out.txt"},
        interrupted_run{"solve_trace",
                        {"solve", "-n", "2000", "--algo", "random", "--max-steps", "1e15", "-q",
                         "--trace", "trace.csv"},
                        SIGTERM,
                        "trace.csv"},
        interrupted_run{"solve_chains_output",
                        {"solve", "-n", "2000", "--algo", "random", "--max-steps", "1e15",
                         "--chains", "3", "-q", "-o", "out.txt"},
                        SIGTERM,
                        "out.txt"},
        interrupted_run{"batch_output_and_runs_csv",
                        {"batch", "-n", "2000", "--algo", "random", "--runs", "1e9", "--max-steps",
                         "1e15", "-t", "1", "-q", "-o", "out.txt", "--runs-csv", "runs.csv"},
                        SIGTERM,
                        "out.txt"},
        interrupted_run{"solutions_output", {"solutions", "-n", "30", "-o", "out.txt"}, SIGINT}),
    [](const auto& info) { return std::string(info.param.name); });

// Standard output on a full disk: every command says so in one line and exits 3.
class CliFullStdout : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(CliFullStdout, ExitsThreeWithOneLine) {
  if (!has_dev_full()) GTEST_SKIP() << "no /dev/full";
  scratch_dir dir;
  test::spit(dir / "good.txt", "2 4 1 3\n");
  test::spit(dir / "bad.txt", "1 2 3 4\n");
  const auto r = cli_process(dir, GetParam(), "new 8\nshow\n", "/dev/full").wait();
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("cannot write output"), std::string::npos) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Commands, CliFullStdout,
    ::testing::Values(std::vector<std::string>{"algorithms"},
                      std::vector<std::string>{"algorithms", "--format", "json"},
                      std::vector<std::string>{"verify", "good.txt"},
                      std::vector<std::string>{"verify", "bad.txt"},
                      std::vector<std::string>{"verify", "--json", "good.txt"},
                      std::vector<std::string>{"--version"}, std::vector<std::string>{"--help"},
                      std::vector<std::string>{"solve", "--help"},
                      std::vector<std::string>{"shell"},
                      std::vector<std::string>{"solve", "-n", "8"},
                      std::vector<std::string>{"count", "-n", "8", "--device", "cpu"}));

}  // namespace
}  // namespace nq
