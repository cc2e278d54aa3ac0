#pragma once
// nqueens solve's request as the command line gives it, and the pieces of the command: its
// parsing (solve_options.cpp), its reports (solve_report.cpp) and its run (solve_command.cpp).

#include <optional>
#include <string>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"

namespace nq::cli::solve {

inline constexpr index_t default_grid_limit = 32;  // default format: grid up to here, summary above
inline constexpr index_t max_cell_format_n = 10000;  // grid and matrix print n^2 cells

enum class solve_format { summary, grid, matrix, positions, json, npy, raw };

/// The command line's solve: the engine's request (its settings read by the engine's rules,
/// nqueens/settings.hpp) and what the command does with the result.
struct solve_command {
  nq::solve_request job;  // the algorithm resolved; a local search's settings in job.local
  bool local = false;     // a local search
  bool chain = false;     // a local search run as a chain (all but min-conflicts' permutation)
  solve_format format = solve_format::summary;
  std::string output;
  bool quiet = false;
  bool progress = false;  // the progress line on stderr (progress_wanted)
  std::string trace;
  bool format_given = false;     // -f or -o on the command line
  shell_solve* shell = nullptr;  // set when the shell's run drives solve
};

/// The command line parsed and checked: every usage_error solve gives before it runs.
/// `trace_wanted`: the shell's run wants a trace, as --trace does.
solve_command parse_request(int argc, char** argv, bool trace_wanted);

/// The engine's request for what the command line asked, with its progress and the shell's
/// board.
nq::solve_request job_of(const solve_command& request);

/// The result as asked: the record, the summary line or the board.
void write_result(byte_sink& out, const solve_command& request, const solve_report& report);

/// Why the run stopped (engine::failure_reason) on stderr, with a hint where trying again may
/// help.
void report_failure(const solve_command& request, const solve_report& report);

}  // namespace nq::cli::solve
