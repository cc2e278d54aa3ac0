// solve --algo parallel: the board does not depend on --threads, the reports name the threads
// and device, and a stop, a time limit and a memory refusal behave as documented.

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::scratch_dir;

TEST(CliPlacement, TheBoardDoesNotDependOnTheThreads) {
  scratch_dir dir;
  const auto one = run_cli(dir, {"solve", "-n", "1e5", "--algo", "parallel", "--threads", "1", "-s",
                                 "9", "-f", "positions"});
  ASSERT_EQ(one.code, 0) << one.err;
  const auto four = run_cli(dir, {"solve", "-n", "1e5", "--algo", "parallel", "--threads", "4",
                                  "-s", "9", "-f", "positions"});
  ASSERT_EQ(four.code, 0) << four.err;
  EXPECT_EQ(one.out, four.out);
  const auto check = run_cli(dir, {"verify", "-"}, one.out);
  EXPECT_EQ(check.code, 0) << check.out << check.err;
}

TEST(CliPlacement, ReportsNameTheThreadsAndTheDevice) {
  scratch_dir dir;
  const auto r =
      run_cli(dir, {"solve", "-n", "5000", "--algo", "parallel", "--threads", "3", "-f", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["threads"], 3);
  EXPECT_EQ(j["device"], "cpu");
  EXPECT_EQ(j["conflicts"], 0);
  const auto s = run_cli(dir, {"solve", "-n", "5000", "--algo", "parallel", "--threads", "2"});
  EXPECT_NE(s.out.find("2 threads on the cpu"), std::string::npos) << s.out;
}

TEST(CliPlacement, AStepLimitLeavesQueensUnplaced) {
  scratch_dir dir;
  const auto r =
      run_cli(dir, {"solve", "-n", "1e6", "--algo", "parallel", "--max-steps", "50", "-f", "json"});
  EXPECT_EQ(r.code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["solved"].get<bool>());
  EXPECT_TRUE(j["conflicts"].is_null());
  EXPECT_GT(j["unplaced"].get<long long>(), 0);
  EXPECT_EQ(j["steps"], 50);
  EXPECT_NE(r.err.find("within the step limit"), std::string::npos) << r.err;
}

TEST(CliPlacement, ATimeLimitStopsTheRun) {
  scratch_dir dir;
  const auto r = run_cli(
      dir, {"solve", "-n", "1e6", "--algo", "parallel", "--time-limit", "0.001", "-f", "summary"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("not yet placed"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("within the time limit"), std::string::npos) << r.err;
}

TEST(CliPlacement, ABoardThatDoesNotFitIsRefusedBeforeAllocating) {
  scratch_dir dir;
  const auto r = run_cli(
      dir, {"solve", "-n", "1e9", "--algo", "parallel", "--memory-limit", "1G", "-f", "json"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("n=1000000000 needs about 4.70 GiB"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliPlacement, ThreadsApplyToParallelAndLatticeOrTheDefaultAlgorithm) {
  scratch_dir dir;
  const auto chosen =
      run_cli(dir, {"solve", "-n", "100", "--algo", "min-conflicts", "--threads", "2"});
  EXPECT_EQ(chosen.code, 2);
  EXPECT_NE(chosen.err.find("--threads applies to --algo parallel"), std::string::npos)
      << chosen.err;
  // The default algorithm takes them at any n: below 2^20 it runs on one thread, and says so.
  const auto given = run_cli(dir, {"solve", "-n", "100", "--threads", "2", "-f", "positions"});
  const auto plain = run_cli(dir, {"solve", "-n", "100", "-f", "positions"});
  EXPECT_EQ(given.code, 0) << given.err;
  EXPECT_EQ(given.out, plain.out);
  EXPECT_NE(given.err.find("runs on one thread; --threads ignored"), std::string::npos)
      << given.err;
  EXPECT_EQ(run_cli(dir, {"solve", "-n", "100", "--threads", "2", "-q"}).err, "");
}

}  // namespace
}  // namespace nq

namespace nq {
namespace {

// solve --algo lattice: the same board whatever --threads, verified by `verify`; the reports
// name the threads; a step limit leaves counted pairs.
TEST(CliLattice, TheBoardDoesNotDependOnTheThreadsAndVerifies) {
  test::scratch_dir dir;
  const auto one = test::run_cli(dir, {"solve", "-n", "2e5", "--algo", "lattice", "--threads", "1",
                                       "-s", "4", "-f", "positions"});
  ASSERT_EQ(one.code, 0) << one.err;
  const auto three = test::run_cli(dir, {"solve", "-n", "2e5", "--algo", "lattice", "--threads",
                                         "3", "-s", "4", "-f", "positions"});
  ASSERT_EQ(three.code, 0) << three.err;
  EXPECT_EQ(one.out, three.out);
  const auto check = test::run_cli(dir, {"verify", "-"}, one.out);
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  const auto threaded = test::run_cli(dir, {"verify", "--threads", "3", "-"}, one.out);
  EXPECT_EQ(threaded.code, 0) << threaded.out << threaded.err;
  EXPECT_EQ(threaded.out, check.out);
  const auto none = test::run_cli(dir, {"verify", "--threads", "0", "-"}, one.out);
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("--threads"), std::string::npos) << none.err;
  const auto json = test::run_cli(
      dir, {"solve", "-n", "2e5", "--algo", "lattice", "--threads", "2", "-f", "json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["threads"], 2);
  EXPECT_EQ(j["algorithm"], "lattice");
  EXPECT_EQ(j["conflicts"], 0);
  const auto s = test::run_cli(dir, {"solve", "-n", "2e5", "--algo", "lattice", "--threads", "2"});
  EXPECT_NE(s.out.find("2 threads on the cpu"), std::string::npos) << s.out;
}

TEST(CliLattice, AStepLimitLeavesCountedPairs) {
  test::scratch_dir dir;
  const auto r = test::run_cli(
      dir, {"solve", "-n", "2e5", "--algo", "lattice", "--max-steps", "50", "-f", "json"});
  EXPECT_EQ(r.code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["solved"].get<bool>());
  EXPECT_GT(j["conflicts"].get<long long>(), 0);
  EXPECT_FALSE(j.contains("unplaced"));
  // Unsplit (n = 100): the pairs are still counted, and the step limit named per sub-board.
  const auto small = test::run_cli(
      dir, {"solve", "-n", "100", "--algo", "lattice", "--max-steps", "10", "-f", "json"});
  EXPECT_EQ(small.code, 1) << small.err;
  const auto k = nlohmann::json::parse(small.out);
  EXPECT_GT(k["conflicts"].get<long long>(), 0);
  EXPECT_FALSE(k.contains("unplaced"));
  EXPECT_NE(small.err.find("a sub-board reached the step limit"), std::string::npos) << small.err;
  const auto timed = test::run_cli(
      dir, {"solve", "-n", "2e5", "--algo", "lattice", "--time-limit", "0.000001", "-f", "json"});
  EXPECT_EQ(timed.code, 1) << timed.err;
  EXPECT_NE(timed.err.find("within the time limit"), std::string::npos) << timed.err;
  const auto traced = test::run_cli(
      dir, {"solve", "-n", "2e5", "--algo", "lattice", "--device", "cpu", "--trace", "t.csv"});
  EXPECT_EQ(traced.code, 2);
  const auto listed = test::run_cli(dir, {"algorithms"});
  EXPECT_NE(listed.out.find("lattice"), std::string::npos) << listed.out;
}

// Without --algo, boards from 2^20 queens take the lattice on every core; smaller ones keep
// min-conflicts.
TEST(CliLattice, HugeBoardsTakeEveryCoreByDefault) {
  test::scratch_dir dir;
  const auto huge = test::run_cli(dir, {"solve", "-n", "1048576", "-f", "summary"});
  EXPECT_EQ(huge.code, 0) << huge.err;
  EXPECT_NE(huge.out.find("by lattice"), std::string::npos) << huge.out;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_NE(huge.out.find(std::to_string(cores) + (cores == 1 ? " thread" : " threads")),
            std::string::npos)
      << huge.out;
  const auto below = test::run_cli(dir, {"solve", "-n", "1048575", "-f", "summary"});
  EXPECT_EQ(below.code, 0) << below.err;
  EXPECT_NE(below.out.find("by min-conflicts"), std::string::npos) << below.out;
  const auto help = test::run_cli(dir, {"solve", "--help"});
  EXPECT_NE(help.out.find("lattice, on every core, from 2^20"), std::string::npos) << help.out;
}

// Without a GPU, --device gpu is refused with the reason (exit 3, nothing written), and auto
// runs on the CPU saying so, with the same board as --device cpu.
TEST(CliLattice, TheDeviceChoiceWithoutAGpu) {
  test::scratch_dir dir;
  if (!test::without_gpu(dir)) GTEST_SKIP() << "this machine has a GPU";
  const auto gpu = test::run_cli(
      dir, {"solve", "-n", "2e5", "--algo", "lattice", "--device", "gpu", "-o", "b.txt"});
  EXPECT_EQ(gpu.code, 3);
  EXPECT_EQ(test::count_lines(gpu.err), 1u) << gpu.err;
  EXPECT_NE(gpu.err.find("no CUDA device available"), std::string::npos) << gpu.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "b.txt"));
  const auto automatic = test::run_cli(
      dir, {"solve", "-n", "2e5", "--algo", "lattice", "--device", "auto", "-f", "positions"});
  EXPECT_EQ(automatic.code, 0) << automatic.err;
  EXPECT_NE(automatic.err.find("ran on the CPU"), std::string::npos) << automatic.err;
  const auto cpu = test::run_cli(
      dir, {"solve", "-n", "2e5", "--algo", "lattice", "--device", "cpu", "-f", "positions"});
  EXPECT_EQ(automatic.out, cpu.out);
  EXPECT_TRUE(cpu.err.empty()) << cpu.err;
}

}  // namespace
}  // namespace nq
