// Every bad input the README lists gets one line on stderr, nothing on stdout, and its
// documented exit code.

#include <gtest/gtest.h>

#include <ostream>

#include "cli_runner.hpp"

namespace nq {
namespace {

using test::run_cli;
using test::scratch_dir;

struct bad_input {
  std::string name;
  std::vector<std::string> args;
  int code;
  std::string reason;             // a phrase the stderr line must contain
  std::string file_content = "";  // written to "input" in the scratch directory when not empty
  friend std::ostream& operator<<(std::ostream& os, const bad_input& b) { return os << b.name; }
};

class CliRejects : public ::testing::TestWithParam<bad_input> {};

TEST_P(CliRejects, WithOneLineAndItsExitCode) {
  const bad_input& c = GetParam();
  scratch_dir dir;
  if (!c.file_content.empty()) test::spit(dir / "input", c.file_content);
  const auto r = run_cli(dir, c.args);
  EXPECT_EQ(r.code, c.code) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(c.reason), std::string::npos) << "stderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  for (const auto& name : dir.files()) EXPECT_EQ(name, "input") << "left a file behind";
}

const std::string elf_header(
    "\x7f"
    "ELF\x02\x01\x01\x00\x00\x00\x00\x00",
    12);

INSTANTIATE_TEST_SUITE_P(
    BadInput, CliRejects,
    ::testing::Values(
        bad_input{"n_zero", {"solve", "-n", "0"}, 2, "-n must be a positive whole number"},
        bad_input{"n_negative", {"solve", "-n", "-5"}, 2, "got '-5'"},
        bad_input{"n_text", {"solve", "-n", "abc"}, 2, "got 'abc'"},
        bad_input{"n_fraction", {"solve", "-n", "2.5"}, 2, "got '2.5'"},
        bad_input{"n_missing", {"solve"}, 2, "missing -n"},
        bad_input{"n_no_value", {"solve", "-n"}, 2, "missing an argument"},
        bad_input{"n_beyond_rows", {"solve", "-n", "5e9"}, 2, "at most 4294967295 queens"},
        bad_input{"n_beyond_memory",
                  {"solve", "-n", "1e9", "--memory-limit", "1G"},
                  3,
                  "needs about 4.20 GiB of memory"},
        bad_input{"memory_limit_bad",
                  {"solve", "-n", "8", "--memory-limit", "lots"},
                  2,
                  "expected a size"},
        bad_input{"unknown_algorithm",
                  {"solve", "-n", "8", "--algo", "magic"},
                  2,
                  "unknown algorithm 'magic'"},
        bad_input{"unknown_format", {"solve", "-n", "8", "-f", "yaml"}, 2, "unknown format 'yaml'"},
        bad_input{"grid_too_big", {"solve", "-n", "20000", "-f", "grid"}, 2, "n*n cells"},
        bad_input{"time_limit_zero",
                  {"solve", "-n", "8", "--time-limit", "0"},
                  2,
                  "positive number of seconds"},
        bad_input{"time_limit_negative", {"solve", "-n", "8", "--time-limit", "-1"}, 2, "got '-1'"},
        bad_input{"time_limit_text", {"solve", "-n", "8", "--time-limit", "soon"}, 2, "got 'soon'"},
        bad_input{
            "max_steps_zero", {"solve", "-n", "8", "--max-steps", "0"}, 2, "--max-steps must be"},
        bad_input{"seed_negative", {"solve", "-n", "8", "--seed", "-1"}, 2, "--seed must be"},
        bad_input{
            "unknown_option", {"solve", "-n", "8", "--fast"}, 2, "Option 'fast' does not exist"},
        bad_input{
            "stray_argument", {"solve", "-n", "8", "please"}, 2, "unexpected argument 'please'"},
        bad_input{"unknown_command", {"sovle", "-n", "8"}, 2, "unknown command 'sovle'"},
        bad_input{"output_in_missing_dir",
                  {"solve", "-n", "8", "-o", "no/such/dir/out.txt"},
                  2,
                  "cannot write"},
        bad_input{"output_is_directory", {"solve", "-n", "8", "-o", "."}, 2, "it is a directory"},
        bad_input{"verify_missing_file", {"verify", "absent.txt"}, 2, "cannot open absent.txt"},
        bad_input{"verify_directory", {"verify", "."}, 2, "cannot read"},
        bad_input{"verify_empty_file", {"verify", "input"}, 2, "empty input", "\n\n"},
        bad_input{"verify_text", {"verify", "input"}, 2, "expected a row number", "eight queens\n"},
        bad_input{"verify_binary", {"verify", "input"}, 2, "byte 0x7f", elf_header},
        bad_input{"verify_row_out_of_range", {"verify", "input"}, 2, "outside 1..4", "1 3 5 2\n"},
        bad_input{"verify_row_zero", {"verify", "input"}, 2, "1-based", "0 2 4 1\n"},
        bad_input{"verify_wrong_row_count",
                  {"verify", "input"},
                  2,
                  "\"n\" is 8 but \"rows\" has 4",
                  R"({"n": 8, "rows": [1, 3, 0, 2]})"},
        bad_input{"verify_grid_not_square",
                  {"verify", "input"},
                  2,
                  "a board is square",
                  ". Q .\nQ . .\n"},
        bad_input{
            "verify_json_without_rows", {"verify", "input"}, 2, "no \"rows\" array", R"({"n": 4})"},
        bad_input{
            "verify_json_broken", {"verify", "input"}, 2, "invalid JSON", R"({"rows": [1, 2)"},
        bad_input{"verify_unknown_format",
                  {"verify", "input", "-f", "xml"},
                  2,
                  "unknown board format",
                  "1\n"},
        bad_input{
            "verify_two_files", {"verify", "input", "input"}, 2, "unexpected argument", "1\n"},
        bad_input{
            "algorithms_unknown_format", {"algorithms", "-f", "xml"}, 2, "unknown format 'xml'"},
        bad_input{"randomize_bfs",
                  {"solve", "-n", "8", "--algo", "bfs", "--randomize"},
                  2,
                  "--randomize applies to"},
        bad_input{"max_memory_not_bfs",
                  {"solve", "-n", "8", "--algo", "dfs", "--max-memory", "1G"},
                  2,
                  "--max-memory applies to bfs only"},
        bad_input{
            "systematic_too_big", {"solve", "-n", "6000", "--algo", "dfs"}, 2, "above its limit"},
        bad_input{"solutions_limit_zero",
                  {"solutions", "-n", "8", "--limit", "0"},
                  2,
                  "--limit must be a positive whole number"},
        bad_input{"solutions_limit_negative",
                  {"solutions", "-n", "8", "--limit", "-1"},
                  2,
                  "--limit must be a positive whole number"},
        bad_input{"solutions_unknown_format",
                  {"solutions", "-n", "8", "-f", "grid"},
                  2,
                  "unknown format 'grid'"},
        bad_input{"count_n_zero", {"count", "-n", "0"}, 2, "-n must be a positive whole number"},
        bad_input{"count_n_too_big", {"count", "-n", "33"}, 2, "counting supports n from 1 to 32"},
        bad_input{"count_n_text", {"count", "-n", "lots"}, 2, "got 'lots'"},
        bad_input{"count_threads_zero",
                  {"count", "-n", "8", "--threads", "0"},
                  2,
                  "--threads must be a positive whole number"},
        bad_input{"count_checkpoint_missing_dir",
                  {"count", "-n", "8", "--checkpoint", "no/such/dir/ck.json"},
                  2,
                  "cannot write no/such/dir/ck.json"},
        bad_input{
            "count_checkpoint_corrupt",
            {"count", "-n", "8", "--checkpoint", "input"},
            2,
            "not a usable count checkpoint",
            "{\"format\": \"nqueens-count-checkpoint\", \"version\": 3, \"n\": 8, \"done\": 7}"},
        bad_input{"count_checkpoint_garbage",
                  {"count", "-n", "8", "--checkpoint", "input"},
                  2,
                  "not a JSON object",
                  "\x7f\x45\x4c\x46 junk"},
        bad_input{
            "count_checkpoint_other_n",
            {"count", "-n", "9", "--checkpoint", "input"},
            2,
            "belongs to a count for n=8",
            R"({"format": "nqueens-count-checkpoint", "version": 3, "n": 8, "split": "frames", "subproblems": 78, "done": []})"},
        bad_input{
            "count_unknown_format", {"count", "-n", "8", "-f", "xml"}, 2, "unknown format 'xml'"},
        bad_input{"p_above_one",
                  {"solve", "-n", "8", "--algo", "hc-random-p", "--p", "1.5"},
                  2,
                  "--p must be a probability in [0, 1], got '1.5'"},
        bad_input{"p_negative",
                  {"batch", "-n", "8", "--algo", "hc-anneal-p", "--p=-0.1"},
                  2,
                  "--p must be a probability"},
        bad_input{"cooling_one",
                  {"solve", "-n", "8", "--algo", "sa", "--cooling", "1"},
                  2,
                  "--cooling must be strictly between 0 and 1"},
        bad_input{"cooling_zero",
                  {"batch", "-n", "8", "--algo", "sa", "--cooling", "0"},
                  2,
                  "--cooling must be strictly between 0 and 1"},
        bad_input{"beam_width_zero",
                  {"solve", "-n", "8", "--algo", "beam", "--beam-width", "0"},
                  2,
                  "--beam-width must be a whole number of at least 1"},
        bad_input{"population_zero",
                  {"batch", "-n", "8", "--algo", "ga", "--population", "0"},
                  2,
                  "--population must be a whole number of at least 1"},
        bad_input{"tournament_too_large",
                  {"solve", "-n", "8", "--algo", "ga", "--population", "5", "--tournament", "10"},
                  2,
                  "--tournament 10 is larger than the population (5)"},
        bad_input{"runs_negative",
                  {"batch", "-n", "8", "--algo", "hc", "--runs", "-5"},
                  2,
                  "--runs must be"},
        bad_input{
            "runs_zero", {"batch", "-n", "8", "--algo", "hc", "--runs", "0"}, 2, "--runs must be"},
        bad_input{"option_of_another_algorithm",
                  {"solve", "-n", "8", "--algo", "sa", "--sideways", "5"},
                  2,
                  "--sideways does not apply to sa (it is an option of hc-sideways, hc-restart)"},
        bad_input{"q_for_hc",
                  {"batch", "-n", "8", "--algo", "hc", "--q", "3"},
                  2,
                  "--q does not apply to hc"},
        bad_input{"restarts_for_permutation",
                  {"solve", "-n", "8", "--algo", "min-conflicts", "--restarts", "3"},
                  2,
                  "--restarts does not apply to min-conflicts --variant permutation"},
        bad_input{"option_for_systematic",
                  {"solve", "-n", "8", "--algo", "backtrack", "--p", "0.1"},
                  2,
                  "--p does not apply to backtrack"},
        bad_input{"unknown_variant",
                  {"solve", "-n", "8", "--algo", "min-conflicts", "--variant", "row"},
                  2,
                  "unknown --variant 'row'"},
        bad_input{"batch_systematic",
                  {"batch", "-n", "8", "--algo", "backtrack"},
                  2,
                  "batch runs the local-search algorithms"},
        bad_input{"trace_for_backtrack",
                  {"solve", "-n", "8", "--algo", "backtrack", "--trace", "t.csv"},
                  2,
                  "--trace is available for the local-search algorithms"},
        bad_input{"climber_too_large",
                  {"solve", "-n", "100000", "--algo", "hc"},
                  2,
                  "hc takes n up to 65535"},
        bad_input{"sweep_unknown_parameter",
                  {"batch", "-n", "8", "--algo", "hc-random-p", "--sweep", "z=1:2"},
                  2,
                  "unknown parameter 'z'"},
        bad_input{"sweep_parameter_of_another_algorithm",
                  {"batch", "-n", "8", "--algo", "hc", "--sweep", "p=0.1:0.2:0.1"},
                  2,
                  "--p does not apply to hc"},
        bad_input{"sweep_bad_range",
                  {"batch", "-n", "8", "--algo", "sa", "--sweep", "cooling=0.9:0.5"},
                  2,
                  "needs first <= last"},
        bad_input{"sweep_out_of_range_value",
                  {"batch", "-n", "8", "--algo", "sa", "--sweep", "cooling=0.9:1.1:0.1"},
                  2,
                  "--cooling must be strictly between 0 and 1, got '1'"},
        bad_input{"batch_no_solution",
                  {"batch", "-n", "3", "--algo", "hc"},
                  1,
                  "no solution exists for n=3"},
        bad_input{"chains_for_systematic",
                  {"solve", "-n", "8", "--algo", "backtrack", "--chains", "4"},
                  2,
                  "--chains applies to the local-search algorithms (not backtrack)"},
        bad_input{"chains_and_chain",
                  {"solve", "-n", "8", "--algo", "hc", "--chains", "4", "--chain", "2"},
                  2,
                  "give one of them"},
        bad_input{"chains_zero",
                  {"solve", "-n", "8", "--algo", "hc", "--chains", "0"},
                  2,
                  "--chains must be a positive whole number"},
        bad_input{"count_unknown_device",
                  {"count", "-n", "8", "--device", "fpga"},
                  2,
                  "unknown --device 'fpga'"},
        bad_input{"batch_unknown_device",
                  {"batch", "-n", "8", "--algo", "hc", "--device", "tpu"},
                  2,
                  "unknown --device 'tpu' (expected cpu, gpu or auto)"},
        bad_input{"runs_csv_with_sweep",
                  {"batch", "-n", "8", "--algo", "sa", "--sweep", "cooling=0.5", "--runs-csv",
                   "runs.csv"},
                  2,
                  "--runs-csv takes one batch, not a --sweep"},
        bad_input{"repeated_n",
                  {"solve", "-n", "8", "-n", "9"},
                  2,
                  "--queens is given more than once ('8', then '9'): give it once"},
        bad_input{"repeated_p",
                  {"batch", "-n", "8", "--algo", "hc-random-p", "--p", "0.1", "--p", "0.2"},
                  2,
                  "--p is given more than once"},
        bad_input{"repeated_threads",
                  {"count", "-n", "8", "-t", "1", "--threads", "2"},
                  2,
                  "--threads is given more than once"},
        bad_input{"repeated_format",
                  {"verify", "--format", "grid", "--format", "json", "input"},
                  2,
                  "--format is given more than once",
                  "1\n"},
        bad_input{"batch_without_algo", {"batch", "-n", "8"}, 2, "missing --algo"},
        bad_input{"option_of_the_column_variant",
                  {"solve", "-n", "8", "--algo", "hc", "--restarts", "3"},
                  2,
                  "(it is an option of min-conflicts --variant column)"},
        bad_input{"batch_beyond_memory",
                  {"batch", "-n", "5000", "--algo", "ga", "--population", "10000000", "-t", "2"},
                  3,
                  "needs about 745.06 GiB for 2 threads"}),
    [](const auto& info) { return info.param.name; });

TEST(CliRejects, NoCommandPrintsUsageToStderr) {
  scratch_dir dir;
  const auto r = run_cli(dir, {});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("Usage: nqueens <command>"), std::string::npos);
}

}  // namespace
}  // namespace nq
