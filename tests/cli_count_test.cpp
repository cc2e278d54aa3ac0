// The systematic-search commands from the outside: solve --algo backtrack..bfs, solutions, count.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "cli_runner.hpp"
#include "nqueens/verify.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::scratch_dir;

std::vector<row_t> parse_positions(const std::string& line) {
  std::istringstream in(line);
  std::vector<row_t> rows;
  for (std::uint64_t r = 0; in >> r;) rows.push_back(static_cast<row_t>(r - 1));
  return rows;
}

TEST(CliSystematic, EverySolverAnswersAndVerifyAccepts) {
  scratch_dir dir;
  for (const std::string algo : {"backtrack", "backtrack-opt", "dfs", "bfs"}) {
    const auto r = run_cli(
        dir, {"solve", "-n", "10", "--algo", algo, "-f", "positions", "-o", "board.txt", "-q"});
    ASSERT_EQ(r.code, 0) << algo << r.err;
    EXPECT_EQ(run_cli(dir, {"verify", "board.txt"}).code, 0) << algo;
  }
}

TEST(CliSystematic, BfsReportsItsFrontierAndItsMemoryBound) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"solve", "-n", "6", "--algo", "bfs", "-f", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 5u) << r.err;  // levels 1..5, then level 6 is the answer
  EXPECT_NE(r.err.find("level 1 of 6, frontier 6 partial boards"), std::string::npos) << r.err;
  const auto bounded = run_cli(dir, {"solve", "-n", "14", "--algo", "bfs", "--max-memory", "1M",
                                     "-q", "-o", "never.json", "-f", "json"});
  EXPECT_EQ(bounded.code, 3);
  EXPECT_NE(bounded.err.find("--max-memory"), std::string::npos) << bounded.err;
  EXPECT_EQ(test::count_lines(bounded.err), 1u);
  EXPECT_TRUE(dir.files().empty()) << "no output file after a failed search";
}

TEST(CliSolutions, EightQueensHave92DistinctValidBoards) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"solutions", "-n", "8"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  std::set<std::vector<row_t>> boards;
  for (std::string line; std::getline(lines, line);) {
    const auto rows = parse_positions(line);
    ASSERT_EQ(rows.size(), 8u) << line;
    EXPECT_TRUE(verify_board(rows).valid()) << line;
    boards.insert(rows);
  }
  EXPECT_EQ(boards.size(), 92u);
  // Each line is a board verify reads: check a few through the command itself.
  for (const std::size_t k : {0u, 45u, 91u}) {
    std::istringstream again(r.out);
    std::string line;
    for (std::size_t i = 0; i <= k; ++i) std::getline(again, line);
    EXPECT_EQ(run_cli(dir, {"verify", "-"}, line + "\n").code, 0) << line;
  }
}

TEST(CliSolutions, LimitAndJsonLines) {
  scratch_dir dir;
  const auto r = run_cli(dir, {"solutions", "-n", "10", "--limit", "3", "-f", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(test::count_lines(r.out), 3u);
  std::istringstream lines(r.out);
  std::string line;
  for (int index = 1; std::getline(lines, line); ++index) {
    const auto doc = nlohmann::json::parse(line);
    EXPECT_EQ(doc["n"], 10);
    EXPECT_EQ(doc["index"], index);
    EXPECT_TRUE(verify_board(doc["rows"].get<std::vector<row_t>>()).valid());
  }
  const auto none = run_cli(dir, {"solutions", "-n", "3"});
  EXPECT_EQ(none.code, 1);
  EXPECT_TRUE(none.out.empty());
  EXPECT_NE(none.err.find("no solution exists for n=3"), std::string::npos);
}

nlohmann::json count_json(const scratch_dir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "count");
  args.insert(args.end(), {"-f", "json"});
  const auto r = run_cli(dir, args);
  EXPECT_EQ(r.code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// The record says how many threads counted: never more than the subproblems (n = 1 has none,
// n = 8 has 78), whatever --threads asked for.
TEST(CliCount, TheRecordNamesTheThreadsThatCounted) {
  scratch_dir dir;
  EXPECT_EQ(count_json(dir, {"-n", "1", "-t", "64", "--device", "cpu"})["threads"], 1);
  const auto eight = count_json(dir, {"-n", "8", "-t", "200", "--device", "cpu"});
  EXPECT_EQ(eight["solutions"], 92);
  EXPECT_EQ(eight["threads"], eight["subproblems"]);
  EXPECT_EQ(eight["subproblems"], 78);
  const auto text = run_cli(dir, {"count", "-n", "8", "-t", "200", "--device", "cpu"});
  EXPECT_NE(text.out.find(" 78 threads"), std::string::npos) << text.out;
}

TEST(CliCount, CountsAndUniqueCountsMatchOeis) {
  scratch_dir dir;
  // --device cpu: threads and vector kernels are the CPU's (auto would take a GPU where there is
  // one).
  const auto doc = count_json(dir, {"-n", "10", "--unique", "--threads", "2", "--device", "cpu"});
  EXPECT_EQ(doc["solutions"], 724);
  EXPECT_EQ(doc["unique"], 92);
  EXPECT_EQ(doc["threads"], 2);
  EXPECT_EQ(doc["device"], "cpu");
  EXPECT_TRUE(doc["seconds"].is_number());
  EXPECT_TRUE(doc["simd"].is_string());
  EXPECT_EQ(count_json(dir, {"-n", "10", "--simd", "off", "--device", "cpu"})["simd"], "off");
  // The record has unique either way (counted either way); --unique adds it to the text.
  EXPECT_EQ(count_json(dir, {"-n", "10", "--device", "cpu"})["unique"], 92);
  EXPECT_EQ(run_cli(dir, {"count", "-n", "8"}).out.find("unique"), std::string::npos);
  const auto text = run_cli(dir, {"count", "-n", "8", "--unique"});
  EXPECT_EQ(text.code, 0);
  EXPECT_TRUE(text.out.starts_with("n=8: 92 solutions, 12 unique")) << text.out;
}

TEST(CliCount, OneAndTwoThreadsAgree) {
  scratch_dir dir;
  const auto one = count_json(dir, {"-n", "13", "-u", "-t", "1"});
  const auto two = count_json(dir, {"-n", "13", "-u", "-t", "2"});
  EXPECT_EQ(one["solutions"], two["solutions"]);
  EXPECT_EQ(one["unique"], two["unique"]);
}

TEST(CliCount, NoSolutionForTwoAndThree) {
  scratch_dir dir;
  for (const std::string n : {"2", "3"}) {
    const auto r = run_cli(dir, {"count", "-n", n, "-f", "json"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(nlohmann::json::parse(r.out)["solutions"], 0);
    EXPECT_NE(r.err.find("no solution exists for n=" + n), std::string::npos);
  }
}

/// Waits until the checkpoint lists some finished subproblems; how many it lists.
std::size_t wait_for_progress(test::cli_process& count, const std::filesystem::path& path) {
  for (int i = 0; i < 6000 && !count.finished(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto doc = nlohmann::json::parse(test::slurp(path), nullptr, false);
    if (!doc.is_discarded() && doc.contains("done") && !doc["done"].empty())
      return doc["done"].size();
  }
  return 0;
}

// The test kills the count (no chance to save) once the checkpoint shows progress, then
// resumes it: the total must equal the uninterrupted count.
TEST(CliCount, AKilledCountResumesFromItsCheckpoint) {
  scratch_dir dir;
  const std::vector<std::string> args{
      "count", "-n", "17",  "-u", "-t", "1", "--checkpoint", "ck.json", "--checkpoint-interval",
      "0.01",  "-f", "json"};
  {
    test::cli_process count(dir, args);
    const std::size_t done = wait_for_progress(count, dir / "ck.json");
    ASSERT_GT(done, 0u);
    count.kill(SIGKILL);
    EXPECT_EQ(count.wait().code, 128 + SIGKILL);
  }
  const auto doc = nlohmann::json::parse(test::slurp(dir / "ck.json"));
  ASSERT_LT(doc["done"].size(), doc["subproblems"].get<std::size_t>()) << "killed too late";
  const auto resumed = run_cli(dir, args);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  const auto result = nlohmann::json::parse(resumed.out);
  EXPECT_GT(result["resumed_subproblems"], 0);
  EXPECT_EQ(result["solutions"], 95815104);
  EXPECT_EQ(result["unique"], 11977939);
}

TEST(CliCount, SigtermSavesTheCheckpointAndSaysHowToResume) {
  scratch_dir dir;
  const std::vector<std::string> args{
      "count", "-n", "18", "-t", "1", "--checkpoint", "ck.json", "--checkpoint-interval", "0.01"};
  test::cli_process count(dir, args);
  ASSERT_GT(wait_for_progress(count, dir / "ck.json"), 0u);
  count.kill(SIGTERM);
  const auto r = count.wait();
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("run the same command to resume"), std::string::npos) << r.err;
  const auto doc = nlohmann::json::parse(test::slurp(dir / "ck.json"));
  EXPECT_GT(doc["done"].size(), 0u);
}

// Issue 14: one more solution in a finished checkpoint used to be reported as the total.
TEST(CliCount, AnEditedCheckpointExitsTwo) {
  scratch_dir dir;
  const std::vector<std::string> args{"count", "-n", "10", "--checkpoint", "ck.json"};
  ASSERT_EQ(run_cli(dir, args).code, 0);
  auto doc = nlohmann::json::parse(test::slurp(dir / "ck.json"));
  doc["done"][0][1] = doc["done"][0][1].get<std::uint64_t>() + 1;
  test::spit(dir / "ck.json", doc.dump());
  const auto r = run_cli(dir, args);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("checksum"), std::string::npos) << r.err;
}

// No subproblem of n = 28 finishes in a test's time; SIGTERM must still end the count at once. The
// signal is sent once both worker threads run (the handler is installed before they start), not
// after a fixed sleep, which on a loaded machine could come before main(): death by SIGTERM.
TEST(CliCount, SigtermEndsACountThatCannotFinish) {
  scratch_dir dir;
  test::cli_process count(
      dir, {"count", "-n", "28", "-t", "2", "--device", "cpu", "--checkpoint", "ck.json"});
  const auto threads = [&] {
    const auto tasks = std::filesystem::path("/proc") / std::to_string(count.pid()) / "task";
    std::error_code error;
    std::size_t running = 0;
    for (std::filesystem::directory_iterator it(tasks, error), end; !error && it != end; ++it)
      ++running;
    return running;
  };
  for (int i = 0; i < 12000 && !count.finished() && threads() < 3; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_GE(threads(), 3u) << "the workers did not start within a minute";
  count.kill(SIGTERM);
  const auto r = count.wait();
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted after 0 of"), std::string::npos) << r.err;
}

// A checkpoint saved by an editor that puts a UTF-8 byte-order mark in front (JSON text may
// carry one) is read as without it: the resume takes every finished frame and the same totals.
TEST(CliCount, ACheckpointWithAByteOrderMarkResumesAsWithout) {
  scratch_dir dir;
  const auto first =
      run_cli(dir, {"count", "-n", "12", "--checkpoint", "plain.json", "-f", "json", "-q"});
  ASSERT_EQ(first.code, 0) << first.err;
  test::spit(dir / "marked.json", "\xEF\xBB\xBF" + test::slurp(dir / "plain.json"));
  const auto again =
      run_cli(dir, {"count", "-n", "12", "--checkpoint", "marked.json", "-f", "json", "-q"});
  ASSERT_EQ(again.code, 0) << again.err;
  const auto before = nlohmann::json::parse(first.out), after = nlohmann::json::parse(again.out);
  EXPECT_EQ(after["solutions"], 14200);
  EXPECT_EQ(after["resumed_subproblems"], before["subproblems"]);
}

}  // namespace
}  // namespace nq
