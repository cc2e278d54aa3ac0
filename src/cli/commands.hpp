#pragma once
// The subcommands of nqueens. Each returns its exit code; errors travel as exceptions that
// main() maps to exit codes.

#include <span>
#include <string>

#include "nqueens/local_search.hpp"

namespace nq::cli {

/// Thrown by a subcommand asked for --help: main prints `text` and exits 0.
struct help_requested {
  std::string text;
};

int run_solve(int argc, char** argv);

/// How the shell's `run` drives solve: from its board, quietly unless asked.
struct shell_solve {
  std::span<const row_t> start;  ///< one chain of a local search starts here
  trace_fn narrate;              ///< called per step with the trace, when set
  solve_result result;           ///< what the run left, filled in
  std::string stop_reason;       ///< why it stopped unsolved ("" when solved), filled in
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

}  // namespace nq::cli
