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
inline constexpr index_t max_clash_check_n =
    10000000;  // a failure names its first clash up to here
inline constexpr index_t default_lattice_n = index_t{1} << 20;  // no --algo: lattice from here on

enum class solve_format { summary, grid, matrix, positions, json };

struct solve_request {
  index_t n = 0;
  std::string algorithm;
  std::uint64_t seed = 1;
  search_limits limits;
  solve_format format = solve_format::summary;
  std::string output;
  std::optional<std::uint64_t> memory_limit;
  bool randomize = false;
  std::uint64_t max_memory = std::uint64_t{1} << 30;  // bfs frontier
  bool quiet = false;
  std::optional<local_algorithm> local;  // a local search, with its settings
  local_search_settings local_settings;
  std::string trace;
  std::uint64_t chains = 0;  // --chains C: C chains in parallel; 0: one chain, no backend
  std::uint64_t chain = 0;   // the stream of the (single) chain to run
  device_kind device = device_kind::cpu;  // where --chains (or parallel) run
  unsigned threads = 0;                   // parallel: worker threads; 0: every core
  bool format_given = false;              // -f or -o on the command line
  shell_solve* shell = nullptr;           // set when the shell's run drives solve
};

inline bool is_parallel(const solve_request& request) { return request.algorithm == "parallel"; }
inline bool is_lattice(const solve_request& request) { return request.algorithm == "lattice"; }
/// The huge-board algorithms that run on --threads.
inline bool is_threaded(const solve_request& request) {
  return is_parallel(request) || is_lattice(request);
}

inline bool is_chain(const solve_request& request) {
  return request.local && *request.local != local_algorithm::min_conflicts;
}

/// The command line parsed and checked: every usage_error solve gives before it runs.
solve_request parse_request(int argc, char** argv);

/// --trace (or the Python module's trace=True) for an algorithm without a trace.
usage_error no_trace(const solve_request& request);

/// The engine's request for what the command line asked.
nq::solve_request job_of(const solve_request& request);

/// The result as asked: the record, the summary line or the board.
void write_result(byte_sink& out, const solve_request& request, const solve_report& report);

/// Why an unsolved run stopped, in a phrase: "no solution found within ...".
std::string failure_reason(const solve_request& request, const solve_report& report);

/// failure_reason on stderr, with a hint where trying again may help.
void report_failure(const solve_request& request, const solve_report& report);

}  // namespace nq::cli::solve
