// Every stop lands within seconds (issue 42): each algorithm at the largest board it takes
// within 1 GiB of memory, stopped by a time limit of 0.2 s or a signal during its slow parts (a
// scan of n(n-1) moves, a population's making); a signal while the result is written lets the
// write finish; temporaries a killed writer left are cleared by the next write. The bounds are
// generous for a loaded 2-core machine (5 s); how close a stop lands is measured in bench/.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <ostream>
#include <thread>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::scratch_dir;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

struct stop_case {
  const char* algo;
  const char* n;
  std::vector<std::string> extra = {};
  friend std::ostream& operator<<(std::ostream& out, const stop_case& c) {
    return out << c.algo << " n=" << c.n;
  }
};

// The largest board each takes within 1 GiB: the climbers their limit of 65,535 queens (a
// steepest step scans 4.3e9 squares there, seconds), first-choice 16,000 (its order, 4 n(n-1)
// bytes: 0.95 GiB), ga 32,000 (two populations of 4,096 boards: 1 GiB), the huge-board solvers
// 10^8 (4.5 to 9 bytes a queen), the systematic searches their limit of 5,000.
const stop_case stop_cases[] = {
    {"hc", "65535"},           {"hc-sideways", "65535"},
    {"hc-restart", "65535"},   {"hc-random-p", "65535"},
    {"hc-anneal-p", "65535"},  {"hc-memory", "65535"},
    {"first-choice", "16000"}, {"min-conflicts", "65535", {"--variant", "column"}},
    {"min-conflicts", "1e8"},  {"sa", "65535"},
    {"random", "65535"},       {"random-opt", "65535"},
    {"beam", "65535"},         {"ga", "32000"},
    {"parallel", "1e8"},       {"lattice", "1e8"},
    {"backtrack", "5000"},     {"backtrack-opt", "5000"},
    {"dfs", "5000"},           {"bfs", "5000"},
};

class CliStops : public ::testing::TestWithParam<stop_case> {};

TEST_P(CliStops, ATimeLimitOfAFifthOfASecondEndsTheRunWithinFive) {
  const stop_case& c = GetParam();
  scratch_dir dir;
  std::vector<std::string> args = {"solve",        "-n",  c.n,  "--algo",  c.algo,
                                   "--time-limit", "0.2", "-f", "summary", "-q"};
  args.insert(args.end(), c.extra.begin(), c.extra.end());
  const auto start = clock_type::now();
  const auto r = run_cli(dir, args);
  const double took = seconds_since(start);
  EXPECT_TRUE(r.code == 0 || r.code == 1) << "exit " << r.code << ": " << r.err;
  EXPECT_LT(took, 5.0) << r.out << r.err;
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithm, CliStops, ::testing::ValuesIn(stop_cases),
                         [](const auto& info) {
                           std::string name = std::string(info.param.algo) +
                                              (info.param.extra.empty() ? "" : "_column") + "_" +
                                              info.param.n;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

/// SIGINT `after` seconds into `args`: the exit code and the seconds from the signal to the end.
std::pair<test::cli_result, double> interrupted_after(const std::vector<std::string>& args,
                                                      double after) {
  scratch_dir dir;
  test::cli_process process(dir, args);
  std::this_thread::sleep_for(std::chrono::duration<double>(after));
  const auto signalled = clock_type::now();
  process.kill(SIGINT);
  for (int i = 0; i < 300 && !process.finished(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const double took = seconds_since(signalled);
  return {process.wait(), took};
}

// first-choice's scans of n(n-1) neighbours, each a cache miss into its 100 MB order at 5,000
// queens, ask for the stop as they go (a step once took seconds to see it).
TEST(CliStopsBySignal, FirstChoiceStopsDuringItsScan) {
  const auto [r, took] =
      interrupted_after({"solve", "-a", "first-choice", "-n", "5000", "-f", "summary", "-q"}, 1.0);
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_LT(took, 5.0);
  EXPECT_NE(r.out.find("no solution found"), std::string::npos) << r.out;
}

// ga's first population (4,096 boards of 65,535 queens, 1 GiB each of its two, which took 5 s
// to clear and fill) asks for the stop after each board.
TEST(CliStopsBySignal, GaStopsWhileMakingItsFirstPopulation) {
  const auto [r, took] =
      interrupted_after({"solve", "-a", "ga", "-n", "65535", "-f", "summary", "-q"}, 0.5);
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_LT(took, 5.0);
}

// constructive takes no time limit (it searches nothing), but 2 x 10^8 queens take seconds
// and 2^32 over a minute: a signal stops it while placing, the queens left said.
TEST(CliStopsBySignal, ConstructiveStopsWhilePlacing) {
  const auto [r, took] =
      interrupted_after({"solve", "-a", "constructive", "-n", "2e8", "-f", "summary", "-q"}, 0.5);
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_LT(took, 5.0);
  EXPECT_NE(r.out.find("queens not yet placed"), std::string::npos) << r.out;
}

// A signal while the board is written (the solve long done, its output blocked on a full pipe
// nobody reads yet) lets the write finish whole: the board arrives complete and the exit is the
// documented 130, not death by the signal.
TEST(CliStopsBySignal, ASignalWhileTheResultIsWrittenLetsItFinish) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  scratch_dir dir;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  const std::string err_path = (dir / "err.txt").string();
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv_text = {NQ_CLI_PATH, "solve",     "-n", "1000000",
                                        "-f",        "positions", "-q"};
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, NQ_CLI_PATH, &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  // A million queens are solved in a tenth of a second; their 6.9 MB of positions then wait on
  // the pipe: once it holds a full pipe's worth (64 KiB), the writer is blocked in its write.
  for (int waited = 0, held = 0; waited < 600; ++waited) {
    if (::ioctl(pipe_fds[0], FIONREAD, &held) == 0 && held >= 65536) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid, SIGTERM);
  std::string board;
  char buffer[1 << 16];
  for (ssize_t got; (got = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
    board.append(buffer, static_cast<std::size_t>(got));
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::string err = test::slurp(dir / "err.txt");
  EXPECT_NE(err.find("interrupted while writing the result, which was written whole"),
            std::string::npos)
      << err;
  test::spit(dir / "board.txt", board);
  const auto check = run_cli(dir, {"verify", "board.txt"});
  EXPECT_EQ(check.code, 0) << "the board arrived whole: " << check.out << check.err;
}

// A temporary whose writer was killed (SIGKILL runs no clean-up) is removed by the next write
// of the same file; one whose writer lives, or that changed within the last minute, is kept.
TEST(CliOutputs, TheNextWriteRemovesTemporariesOfDeadWriters) {
  scratch_dir dir;
  // A process that has ended and been reaped: its id names no process now.
  pid_t dead = 0;
  {
    char arg0[] = "/bin/true";
    char* argv[] = {arg0, nullptr};
    ASSERT_EQ(posix_spawn(&dead, "/bin/true", nullptr, nullptr, argv, environ), 0);
    int status = 0;
    ::waitpid(dead, &status, 0);
  }
  const auto temp = [&](pid_t pid, const char* tail) {
    return dir / ("out.txt.tmp." + std::to_string(pid) + "." + tail);
  };
  const auto stale = temp(dead, "aB3dE9"), fresh = temp(dead, "Zz0000"),
             live = temp(::getpid(), "Qq1111"), other = dir / "other.txt.tmp.1.Ab0000";
  for (const auto& path : {stale, fresh, live, other}) test::spit(path, "partial");
  const utimbuf old{std::time(nullptr) - 3600, std::time(nullptr) - 3600};
  for (const auto& path : {stale, live, other}) ::utime(path.c_str(), &old);
  ASSERT_EQ(run_cli(dir, {"solve", "-n", "8", "-o", "out.txt", "-f", "positions"}).code, 0);
  EXPECT_FALSE(std::filesystem::exists(stale)) << "a dead writer's old temporary is removed";
  EXPECT_TRUE(std::filesystem::exists(fresh)) << "changed within the minute: kept";
  EXPECT_TRUE(std::filesystem::exists(live)) << "its writer lives: kept";
  EXPECT_TRUE(std::filesystem::exists(other)) << "another file's: kept";
  EXPECT_TRUE(std::filesystem::exists(dir / "out.txt"));
}

/// Runs nqueens `args` until its stderr shows `marker` (or it ends by itself), then stops it with
/// SIGTERM: what it printed.
test::cli_result run_until_stderr_shows(const scratch_dir& dir,
                                        const std::vector<std::string>& args,
                                        const std::string& marker) {
  test::cli_process run(dir, args);
  for (int i = 0; i < 6000 && !run.finished(); ++i) {
    if (test::slurp(dir / ".cli-err").find(marker) != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  run.kill(SIGTERM);
  return run.wait();
}

// --progress shows each command's progress line where stderr is no terminal (here a file): the
// line rewritten in place, and cleared at the end. Each run is stopped once it shows.
TEST(CliProgress, ProgressShowsTheLineOffATerminal) {
  scratch_dir dir;
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"solve", "-n", "4e7", "--algo", "min-conflicts", "-f", "summary"}, "% | "},
      {{"batch", "-n", "8", "--algo", "random", "--runs", "1e6", "-t", "1", "--device", "cpu"},
       " runs | "},
      {{"count", "-n", "18", "-t", "1", "--device", "cpu"}, "subproblems "},
      {{"solutions", "-n", "60", "-o", "found.txt"}, " nodes | "},
      {{"bench", "--quick", "--workloads", "batch-hc", "--device", "cpu"}, " figures, last "}};
  for (auto [args, marker] : cases) {
    args.push_back("--progress");
    const auto r = run_until_stderr_shows(dir, args, marker);
    EXPECT_NE(r.err.find(marker), std::string::npos) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("\r"), std::string::npos) << args[0];
    EXPECT_NE(r.err.find("\033[K"), std::string::npos) << args[0];
    // Without it, off a terminal, no line (bench ends by itself in moments).
    if (args[0] == "bench") {
      args.pop_back();
      const auto plain = run_cli(dir, args);
      EXPECT_EQ(plain.code, 0) << plain.err;
      EXPECT_EQ(plain.err.find(marker), std::string::npos) << plain.err;
    }
  }
  const auto both = run_cli(dir, {"count", "-n", "8", "--progress", "--quiet"});
  EXPECT_EQ(both.code, 2);
  EXPECT_NE(both.err.find("--progress shows the progress line and --quiet hides it"),
            std::string::npos)
      << both.err;
}

}  // namespace
}  // namespace nq
