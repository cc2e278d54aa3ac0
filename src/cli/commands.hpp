#pragma once
// The subcommands of nqueens. Each returns its exit code; errors travel as exceptions that
// main() maps to exit codes.

#include <string>

namespace nq::cli {

/// Thrown by a subcommand asked for --help: main prints `text` and exits 0.
struct help_requested {
  std::string text;
};

int run_solve(int argc, char** argv);
int run_verify(int argc, char** argv);
int run_algorithms(int argc, char** argv);
int run_solutions(int argc, char** argv);
int run_count(int argc, char** argv);
int run_batch_command(int argc, char** argv);
int run_shell(int argc, char** argv);

}  // namespace nq::cli
