// nqueens solve's reports: the JSON record (the engine's, its rows streamed), the summary line,
// the boards, and why an unsolved run stopped.

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/solve_request.hpp"
#include "engine/solve_job.hpp"
#include "nqueens/climb.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/verify.hpp"

namespace nq::cli::solve {
namespace {

void write_json(byte_sink& out, const solve_report& report) {
  const solve_result& result = report.result;
  const nlohmann::ordered_json record = engine::solve_json_head(report);
  std::string head = record.dump();
  head.pop_back();  // the rows follow, streamed: a board of 10^8 queens is no document tree
  out.write(head);
  out.write(",\"rows\":");
  if (result.queen_row.empty())
    out.write("null");
  else
    write_rows_array(out, result.queen_row);
  out.write("}\n");
}

std::string summary_line(const solve_request& request, const solve_report& report) {
  const solve_result& result = report.result;
  char line[320];
  const char* outcome = result.solved ? "solved" : "no solution found";
  std::string by = request.algorithm;
  if (request.chains)
    by += " chain " + std::to_string(request.chain) + " of " + std::to_string(request.chains) +
          " on the " + report.device;
  else if (request.chain)
    by += " chain " + std::to_string(request.chain);
  std::snprintf(line, sizeof line, "n=%llu: %s by %s in %.3f s (seed %llu, %s, %s",
                static_cast<unsigned long long>(request.n), outcome, by.c_str(), result.seconds,
                static_cast<unsigned long long>(request.seed),
                count_of(result.steps, "step").c_str(),
                count_of(result.restarts, "restart").c_str());
  std::string text = line;
  if (request.chains) text += ", replay with --chain " + std::to_string(request.chain);
  if (is_threaded(request) && report.device == "gpu" && report.kernel_seconds >= 0) {
    char kernels[64];
    std::snprintf(kernels, sizeof kernels, ", on the gpu (kernels %.3f s)", report.kernel_seconds);
    text += kernels;
  } else if (is_threaded(request)) {
    text += report.device == "gpu" ? ", on the gpu"
                                   : ", " + count_of(report.threads, "thread") + " on the cpu";
  }
  if (report.stopped_placing)
    text += ", " + count_of(result.unplaced, "queen") + " not yet placed";
  else if (!report.pairs_counted)
    text += ", attacking pairs not counted";
  else if (!result.solved)
    text += ", " + count_of(result.conflicts, "attacking pair") + " left";
  return text + ")\n";
}

/// Whether a queen of `board` can move within its column without raising the attacking pairs.
/// hc-sideways stops unsolved where no move lowers them; if one keeps them, only its sideways
/// limit stopped it (whether the limit counts moves in a row or in all, plateau jumps or not).
bool has_sideways_move(const std::vector<row_t>& board) {
  const index_t n = board.size();
  std::vector<row_t> rows(board);
  std::vector<std::int32_t> row_count(n), diag(2 * n - 1), anti(2 * n - 1);
  const climber_view<std::int32_t> b{rows.data(), row_count.data(), diag.data(), anti.data(), n};
  recount(b);
  for (index_t col = 0; col < n; ++col)
    if (detail::least_load(b, col) - queen_pairs(b, col) <= 0) return true;
  return false;
}

/// Why a hill climber that stopped by itself stopped, for the shell's --verbose.
std::string climber_stop(const solve_request& request, const solve_result& result) {
  const hill_climbing_settings& hill = request.local_settings.hill;
  switch (*request.local) {
    case local_algorithm::hc:
      return " (no move lowers the cost: a local minimum or a plateau)";
    case local_algorithm::hc_sideways:
      return !result.queen_row.empty() && has_sideways_move(result.queen_row)
                 ? " (the sideways limit: " + count_of(hill.max_sideways, "sideways move") +
                       (hill.total_sideways ? " in all)" : " in a row)")
                 : " (no move keeps or lowers the cost)";
    case local_algorithm::first_choice:
      return " (no neighbour lowers the cost)";
    default:
      return "";
  }
}

}  // namespace

void write_result(byte_sink& out, const solve_request& request, const solve_report& report) {
  const solve_result& result = report.result;
  switch (request.format) {
    case solve_format::json:
      write_json(out, report);
      break;
    case solve_format::summary:
      out.write(solution_exists(request.n)
                    ? summary_line(request, report)
                    : "n=" + std::to_string(request.n) + ": no solution exists\n");
      break;
    case solve_format::grid:
      write_board(out, result.queen_row, board_format::grid);
      break;
    case solve_format::matrix:
      write_board(out, result.queen_row, board_format::matrix);
      break;
    case solve_format::positions:
      write_board(out, result.queen_row, board_format::positions);
      break;
  }
}

std::string failure_reason(const solve_request& request, const solve_report& report) {
  const solve_result& result = report.result;
  const auto& lim = request.limits;
  std::uint64_t max_steps = lim.max_steps;
  if (!max_steps && request.local) max_steps = default_max_steps(*request.local);
  const std::string steps = count_of(result.steps, "step");
  // lattice adds up its sub-boards' steps, each bounded by --max-steps on its own: the time
  // limit is asked first, and the step limit is named per sub-board.
  if (is_lattice(request) && lim.time_limit > 0 && result.seconds >= lim.time_limit) max_steps = 0;
  if (is_lattice(request) && max_steps)
    return "no solution found: a sub-board reached the step limit (" + count_of(max_steps, "step") +
           " each; " + steps + " in all)";
  if (max_steps && result.steps >= max_steps)
    return "no solution found within the step limit (" + steps +
           (lim.max_steps ? "" : ", the algorithm's default; see --max-steps") + ")";
  if (lim.time_limit > 0 && result.seconds >= lim.time_limit) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f s", result.seconds);
    return "no solution found within the time limit (" + steps + ", " + seconds + ")";
  }
  std::string text =
      "no solution found: " + request.algorithm + " stopped after " + steps +
      (report.pairs_counted ? " with " + count_of(result.conflicts, "attacking pair") + " left"
                            : ", its attacking pairs not counted");
  if (request.shell && request.local) text += climber_stop(request, result);
  // The first clash of the board it was left with, as verify names it.
  if (!result.queen_row.empty() && result.queen_row.size() <= max_clash_check_n) {
    const auto check = verify_board(result.queen_row);
    if (check.first_clash) {
      const clash& c = *check.first_clash;
      text += ", first between columns " + std::to_string(c.col_a + 1) + " and " +
              std::to_string(c.col_b + 1) + " on " +
              (c.kind == line_kind::anti_diagonal ? "an " : "a ") + line_kind_name(c.kind);
    }
  }
  return text;
}

void report_failure(const solve_request& request, const solve_report& report) {
  std::string text = failure_reason(request, report);
  if (text.starts_with("no solution found:"))
    text += " (try another --seed, or a restarting algorithm)";
  std::fprintf(stderr, "nqueens solve: %s\n", text.c_str());
}

}  // namespace nq::cli::solve
