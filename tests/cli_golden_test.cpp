// Golden tests: the command line's exact output for a fixed set of commands and seeds, so that
// a refactor of the CLI (issue 30) keeps every message, format and exit code byte for byte.
//
// Each case runs `nqueens args...` in a scratch directory and compares the masked result,
// written in the layout cli_golden.hpp describes, with tests/golden/<case>.txt. A missing golden
// file fails. To write (or rewrite) the files, after a change whose new output is intended:
//   NQ_GOLDEN_UPDATE=1 build/tests/cli_test --gtest_filter='*CliGolden*'
// and read the diff (git diff tests/golden) before committing it.
// The cases fix what would vary otherwise: explicit --seed, --threads, --device cpu, --simd off,
// small n; cli_golden.hpp lists the few masked values (timings, rates, the build, the machine).

#include "cli_golden.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <set>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::golden_case;

const std::filesystem::path golden_dir = NQ_GOLDEN_DIR;

bool updating() {
  const char* value = std::getenv("NQ_GOLDEN_UPDATE");
  return value && std::string(value) == "1";
}

// A good and a bad board of 6 queens, as positions (1-based rows, column by column).
const std::string good_6 = "2 4 6 1 3 5\n";
const std::string bad_6 = "1 2 3 4 5 6\n";
// What count -n 6 --checkpoint leaves when it has finished: every subproblem done.
const std::string count_6_checkpoint =
    R"({"format":"nqueens-count-checkpoint","version":3,"n":6,"split":"frames","subproblems":16,)"
    R"("done":[[0,0,0],[1,0,0],[2,0,0],[3,0,0],[4,0,0],[5,0,0],[6,0,0],[7,0,0],[8,0,0],[9,0,0],)"
    R"([10,0,0],[11,0,0],[12,0,0],[13,4,8],[14,0,0],[15,0,0]],"checksum":"ee9f4ac5746bdd90"})"
    "\n";

const std::vector<golden_case> cases{
    // The program.
    {"help", {"--help"}},
    {"version", {"--version"}},
    {"no_command", {}},
    {"unknown_command", {"sweep"}},
    // solve: every format, several algorithms, its errors.
    {"solve_help", {"solve", "--help"}},
    {"solve_grid", {"solve", "-n", "8", "--seed", "3"}},
    {"solve_summary", {"solve", "-n", "8", "--seed", "3", "-f", "summary"}},
    {"solve_json", {"solve", "-n", "8", "--seed", "3", "-f", "json"}},
    {"solve_positions", {"solve", "-n", "12", "-s", "4", "-f", "positions"}},
    {"solve_matrix", {"solve", "-n", "6", "-s", "2", "-f", "matrix"}},
    {"solve_summary_above_32", {"solve", "-n", "40"}},
    {"solve_output_file",
     {"solve", "-n", "8", "-s", "3", "-f", "positions", "-o", "board.txt"},
     "",
     {},
     {"board.txt"}},
    {"solve_trace",
     {"solve", "-n", "6", "-a", "hc-sideways", "-s", "2", "--trace", "trace.csv", "-f",
      "positions"},
     "",
     {},
     {"trace.csv"}},
    {"solve_hc_stuck", {"solve", "-n", "8", "-a", "hc", "-s", "5", "-f", "summary"}},
    {"solve_hc_sideways_json", {"solve", "-n", "8", "-a", "hc-sideways", "-s", "5", "-f", "json"}},
    {"solve_hc_restart_chains_json",
     {"solve", "-n", "10", "-a", "hc-restart", "--chains", "4", "-s", "7", "--device", "cpu", "-f",
      "json"}},
    {"solve_hc_restart_chain_replay",
     {"solve", "-n", "10", "-a", "hc-restart", "--chain", "2", "-s", "7", "-f", "summary"}},
    {"solve_first_choice_stuck", {"solve", "-n", "8", "-a", "first-choice", "-s", "5"}},
    {"solve_sa_json",
     {"solve", "-n", "8", "-a", "sa", "-s", "2", "--cooling", "0.99", "-f", "json"}},
    {"solve_ga_json", {"solve", "-n", "8", "-a", "ga", "-s", "5", "-f", "json"}},
    {"solve_beam_json",
     {"solve", "-n", "8", "-a", "beam", "--beam-width", "4", "-s", "2", "-f", "json"}},
    {"solve_hc_memory_summary",
     {"solve", "-n", "8", "-a", "hc-memory", "-s", "4", "-f", "summary"}},
    {"solve_min_conflicts_column_json",
     {"solve", "-n", "12", "-a", "min-conflicts", "--variant", "column", "-s", "4", "-f", "json"}},
    {"solve_random_step_limit",
     {"solve", "-n", "8", "-a", "random", "-s", "3", "--max-steps", "100", "-f", "summary"}},
    {"solve_backtrack_randomized",
     {"solve", "-n", "10", "-a", "backtrack", "--randomize", "-s", "9", "-f", "json"}},
    {"solve_bfs", {"solve", "-n", "6", "-a", "bfs", "-f", "summary"}},
    {"solve_constructive", {"solve", "-n", "12", "-a", "constructive", "-f", "positions"}},
    {"solve_lattice_json",
     {"solve", "-n", "20", "-a", "lattice", "-s", "2", "--threads", "2", "--device", "cpu", "-f",
      "json"}},
    {"solve_parallel_summary",
     {"solve", "-n", "20", "-a", "parallel", "-s", "2", "--threads", "2", "--device", "cpu", "-f",
      "summary"}},
    {"solve_n1", {"solve", "-n", "1"}},
    {"solve_n2", {"solve", "-n", "2"}},
    {"solve_n3_json", {"solve", "-n", "3", "-f", "json"}},
    {"solve_missing_n", {"solve"}},
    {"solve_bad_n", {"solve", "-n", "0"}},
    {"solve_unknown_algorithm", {"solve", "-n", "8", "-a", "nosuch"}},
    {"solve_unknown_format", {"solve", "-n", "8", "-f", "xml"}},
    {"solve_unknown_option", {"solve", "-n", "8", "--bogus"}},
    {"solve_bad_seed", {"solve", "-n", "8", "--seed", "-1"}},
    {"solve_option_of_another_algorithm", {"solve", "-n", "8", "-a", "hc", "--sideways", "3"}},
    {"solve_chains_and_chain", {"solve", "-n", "8", "-a", "hc", "--chains", "2", "--chain", "1"}},
    // verify: boards from standard input and files, both reports, its errors.
    {"verify_help", {"verify", "--help"}},
    {"verify_good", {"verify"}, good_6},
    {"verify_bad", {"verify"}, bad_6},
    {"verify_bad_json", {"verify", "--json"}, bad_6},
    {"verify_each_json", {"verify", "--each", "--json"}, good_6 + bad_6},
    {"verify_grid_file", {"verify", "board.txt"}, "", {{"board.txt", ".Q..\n...Q\nQ...\n..Q.\n"}}},
    {"verify_matrix", {"verify", "-", "-f", "matrix"}, "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n"},
    {"verify_json_input", {"verify", "-f", "json"}, "{\"n\":4,\"rows\":[1,3,0,2]}\n"},
    {"verify_not_a_board", {"verify"}, "hello\n"},
    {"verify_missing_file", {"verify", "nosuch.txt"}},
    {"verify_two_files", {"verify", "a.txt", "b.txt"}},
    // algorithms.
    {"algorithms_help", {"algorithms", "--help"}},
    {"algorithms_text", {"algorithms"}},
    {"algorithms_json", {"algorithms", "-f", "json"}},
    {"algorithms_bad_format", {"algorithms", "-f", "xml"}},
    // solutions.
    {"solutions_help", {"solutions", "--help"}},
    {"solutions_positions", {"solutions", "-n", "6"}},
    {"solutions_json_limit", {"solutions", "-n", "8", "-l", "3", "-f", "json"}},
    {"solutions_output_file", {"solutions", "-n", "5", "-o", "all.txt"}, "", {}, {"all.txt"}},
    {"solutions_n3", {"solutions", "-n", "3"}},
    {"solutions_missing_n", {"solutions"}},
    // count.
    {"count_help", {"count", "--help"}},
    {"count_text", {"count", "-n", "8", "--device", "cpu", "-t", "2", "--simd", "off"}},
    {"count_unique_text",
     {"count", "-n", "8", "-u", "--device", "cpu", "-t", "1", "--simd", "off"}},
    {"count_unique_json",
     {"count", "-n", "10", "-u", "--device", "cpu", "-t", "2", "--simd", "off", "-f", "json"}},
    {"count_output_file",
     {"count", "-n", "7", "--device", "cpu", "-t", "2", "--simd", "off", "-f", "json", "-o",
      "count.json"},
     "",
     {},
     {"count.json"}},
    {"count_checkpoint",
     {"count", "-n", "6", "--device", "cpu", "-t", "2", "--simd", "off", "--checkpoint", "ck"},
     "",
     {},
     {"ck"}},
    {"count_checkpoint_resumed",
     {"count", "-n", "6", "--device", "cpu", "-t", "2", "--simd", "off", "--checkpoint", "ck", "-f",
      "json"},
     "",
     {{"ck", count_6_checkpoint}}},
    {"count_n29", {"count", "-n", "29", "--device", "cpu"}},
    {"count_bad_format", {"count", "-n", "8", "--device", "cpu", "-f", "xml"}},
    // batch: text and JSON, several local searches, a sweep, the runs' CSV, its errors.
    {"batch_help", {"batch", "--help"}},
    {"batch_hc_text", {"batch", "-n", "8", "-a", "hc", "-r", "50", "-t", "2", "--device", "cpu"}},
    {"batch_hc_json",
     {"batch", "-n", "8", "-a", "hc", "-r", "50", "-t", "2", "--device", "cpu", "-f", "json"}},
    {"batch_min_conflicts_text",
     {"batch", "-n", "16", "-a", "min-conflicts", "-r", "20", "-t", "2", "--device", "cpu"}},
    {"batch_sa_json",
     {"batch", "-n", "8", "-a", "sa", "-r", "10", "-s", "3", "-t", "1", "--device", "cpu", "-f",
      "json"}},
    {"batch_ga_text", {"batch", "-n", "6", "-a", "ga", "-r", "5", "-t", "1", "--device", "cpu"}},
    {"batch_beam_json",
     {"batch", "-n", "8", "-a", "beam", "-r", "10", "-t", "2", "--device", "cpu", "-f", "json"}},
    {"batch_first_choice_text",
     {"batch", "-n", "8", "-a", "first-choice", "-r", "30", "-s", "4", "-t", "2", "--device",
      "cpu"}},
    {"batch_hc_random_p_text",
     {"batch", "-n", "8", "-a", "hc-random-p", "-r", "10", "-t", "1", "--device", "cpu",
      "--max-steps", "200"}},
    {"batch_sweep_text",
     {"batch", "-n", "8", "-a", "hc-sideways", "-r", "20", "-t", "2", "--device", "cpu", "--sweep",
      "sideways=0:2"}},
    {"batch_sweep_json",
     {"batch", "-n", "8", "-a", "hc-random-p", "-r", "10", "-t", "2", "--device", "cpu", "--sweep",
      "p=0.1:0.3:0.2,q=1:2", "--max-steps", "100", "-f", "json"}},
    {"batch_runs_csv",
     {"batch", "-n", "6", "-a", "hc", "-r", "5", "-t", "1", "--device", "cpu", "--runs-csv",
      "runs.csv", "-o", "out.txt"},
     "",
     {},
     {"runs.csv", "out.txt"}},
    {"batch_missing_algorithm", {"batch", "-n", "8", "--device", "cpu"}},
    {"batch_not_a_local_search", {"batch", "-n", "8", "-a", "backtrack", "--device", "cpu"}},
    {"batch_zero_runs", {"batch", "-n", "8", "-a", "hc", "-r", "0", "--device", "cpu"}},
    {"batch_algorithm_twice", {"batch", "-n", "8", "-a", "hc", "-a", "sa", "--device", "cpu"}},
    {"batch_sweep_unknown_parameter",
     {"batch", "-n", "8", "-a", "hc", "--sweep", "bogus=1:2", "--device", "cpu"}},
    // shell: a script on standard input.
    {"shell_help", {"shell", "--help"}},
    {"shell_script",
     {"shell"},
     "new 6 3\nrun sa --seed 4 -f json\nnew 6\nrun hc-sideways --seed 2\nboard 2 4 6 1 3 5\n"
     "show\nbatch hc 20 --threads 1\nbatch hc 10 --threads 1 -f json\nhelp\nquit\n"},
    {"shell_bad_command", {"shell"}, "new 5\nfoo\nshow\n"},
};

/// The case's command run in a scratch directory, in the golden layout, masked.
std::string run_case(const golden_case& c) {
  test::scratch_dir dir;
  std::string text = "# nqueens golden case " + c.name + " (tests/cli_golden_test.cpp)\n";
  for (const auto& [name, content] : c.input_files) test::spit(dir / name, content);
  const test::cli_result r = test::run_cli(dir, c.args, c.stdin_text);
  text += "args:" + test::golden_args(c.args) + "\nexit: " + std::to_string(r.code) + "\n";
  for (const auto& [name, content] : c.input_files)
    text += test::golden_section("input file " + name, content);
  if (!c.stdin_text.empty()) text += test::golden_section("stdin", c.stdin_text);
  const std::string scratch = dir.path().string();
  text += test::golden_section("stdout", test::golden_mask(r.out, scratch));
  text += test::golden_section("stderr", test::golden_mask(r.err, scratch));
  for (const auto& name : c.output_files) {
    if (!std::filesystem::exists(dir / name))
      text += "--- file " + name + ": missing\n";
    else
      text +=
          test::golden_section("file " + name, test::golden_mask(test::slurp(dir / name), scratch));
  }
  return text;
}

class CliGolden : public ::testing::TestWithParam<golden_case> {};

TEST_P(CliGolden, MatchesItsGoldenFile) {
  const golden_case& c = GetParam();
  const auto path = golden_dir / (c.name + ".txt");
  const std::string actual = run_case(c);
  if (updating()) {
    test::spit(path, actual);
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(path))
      << path << " is missing: write it with NQ_GOLDEN_UPDATE=1 (see cli_golden_test.cpp)";
  EXPECT_EQ(test::slurp(path), actual) << "golden file " << path;
}

INSTANTIATE_TEST_SUITE_P(Commands, CliGolden, ::testing::ValuesIn(cases),
                         [](const auto& info) { return info.param.name; });

// A golden file with no case (one renamed or removed) is stale, not silently kept.
TEST(CliGoldenFiles, EachBelongsToACase) {
  std::set<std::string> names;
  for (const auto& c : cases) EXPECT_TRUE(names.insert(c.name).second) << c.name << " twice";
  for (const auto& entry : std::filesystem::directory_iterator(golden_dir))
    EXPECT_TRUE(entry.path().extension() == ".txt" && names.contains(entry.path().stem().string()))
        << entry.path() << " belongs to no case in cli_golden_test.cpp";
}

}  // namespace
}  // namespace nq

namespace nq {
namespace {

// The masking rules (cli_golden.hpp) take what varies and leave every other figure alone.
TEST(CliGoldenMask, HidesTimingsRatesAndTheMachineOnly) {
  using test::golden_mask;
  EXPECT_EQ(
      golden_mask(R"({"steps":329,"seconds":2.8e-05,"cooling":0.95,"device_name":"AMD"})", ""),
      R"({"steps":329,"seconds":<masked>,"cooling":0.95,"device_name":<masked>})");
  EXPECT_EQ(golden_mask("  \"kernel_seconds\": null,\n  \"runs_per_second\": 1.5e+04\n", ""),
            "  \"kernel_seconds\": <masked>,\n  \"runs_per_second\": <masked>\n");
  EXPECT_EQ(golden_mask("n=8: solved in 12.345 s (seed 3, 0.950 steps)\n", ""),
            "n=8: solved in <s> s (seed 3, 0.950 steps)\n");
  EXPECT_EQ(golden_mask("(0.002 s, 2 threads)", ""), "(<s> s, 2 threads)");
  EXPECT_EQ(golden_mask("  0.000 s, 1.227e+05 runs/s on 1 CPU thread", ""),
            "  <s> s, <rate> runs/s on 1 CPU thread");
  EXPECT_EQ(golden_mask("p  runs  steps(failed)     runs/s\n0.1  20  2.76  4.922e+04\n"
                        "0.3  20     -       292\nhc 0.5 s\n",
                        ""),
            "p  runs  steps(failed)     runs/s\n0.1  20  2.76 <rate>\n0.3  20     - <rate>\n"
            "hc 0.5 s\n");
  EXPECT_EQ(golden_mask("nqueens 0.1.0 (Debug build, built without CUDA)\n", ""),
            "nqueens <version> (<build>)\n");
  EXPECT_EQ(golden_mask("nqueens solve: bad (see --help)", ""), "nqueens solve: bad (see --help)");
  EXPECT_EQ(golden_mask("threads (default: all 16 cores)", ""), "threads (default: all <n> cores)");
  EXPECT_EQ(golden_mask("cannot open /tmp/nq-cli-x/a.txt", "/tmp/nq-cli-x"),
            "cannot open <scratch>/a.txt");
}

}  // namespace
}  // namespace nq
