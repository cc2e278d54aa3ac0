#pragma once
// The subcommands of nqueens. Each returns its exit code; errors travel as exceptions that
// main() maps to exit codes. Some are also callable with their results as values (the Python
// module): the same command line, parsed and checked by the same code, so the same messages.

#include <atomic>
#include <functional>
#include <span>
#include <string>

#include "nqueens/local_search.hpp"
#include "nqueens/verify.hpp"

namespace nq::cli {

/// Thrown by a subcommand asked for --help: main prints `text` and exits 0.
struct help_requested {
  std::string text;
};

int run_solve(int argc, char** argv);

/// How the shell's `run` (or the Python module) drives solve: from its board, quietly unless
/// asked.
struct shell_solve {
  std::span<const row_t> start;  ///< one chain of a local search starts here (empty: random)
  trace_fn narrate;              ///< called per step with the trace, when set
  /// The caller wants the trace: an algorithm without one is refused as --trace would be.
  bool trace_wanted = false;
  const std::atomic<bool>* stop = nullptr;  ///< when raised, the run stops unsolved soon
  solve_result result;                      ///< what the run left, filled in
  std::string stop_reason;                  ///< why it stopped unsolved ("" when solved), filled in
  std::string device;         ///< where it ran (the chosen chain, with --chains): cpu or gpu
  bool pairs_counted = true;  ///< false where JSON's `conflicts` is null (not counted), filled in
};
/// nqueens solve with argv as for solve. The result is written only when --format or
/// --output is given, and an unsolved run is not reported on stderr: the shell reports.
int run_solve_in_shell(int argc, char** argv, shell_solve& shell);
int run_verify(int argc, char** argv);
int run_algorithms(int argc, char** argv);
int run_solutions(int argc, char** argv);
int run_count(int argc, char** argv);
int run_batch_command(int argc, char** argv);
int run_shell(int argc, char** argv);
int run_bench(int argc, char** argv);

}  // namespace nq::cli
