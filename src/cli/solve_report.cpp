// nqueens solve's reports: the JSON record (the engine's, its rows streamed), the summary line,
// the boards, and why an unsolved run stopped (the engine's phrase, with a hint).

#include <cstdio>

#include "cli/solve_request.hpp"
#include "nqueens/settings.hpp"
#include "nqueens/construction.hpp"

namespace nq::cli::solve {
namespace {

void write_json(byte_sink& out, const solve_report& report) {
  const solve_result& result = report.result;
  // The rows follow, streamed: a board of 10^8 queens is no document tree.
  out.write(engine::solve_json_head(report));
  out.write(",\"rows\":");
  if (result.queen_row.empty())
    out.write("null");
  else
    write_rows_array(out, result.queen_row);
  out.write("}\n");
}

std::string summary_line(const solve_report& report) {
  const solve_result& result = report.result;
  char line[320];
  const char* outcome = result.solved ? "solved" : "no solution found";
  std::string by = report.algorithm;
  if (report.chains)
    by += " chain " + std::to_string(report.chain) + " of " + std::to_string(report.chains) +
          " on the " + report.device;
  else if (report.chain)
    by += " chain " + std::to_string(report.chain);
  std::snprintf(line, sizeof line, "n=%llu: %s by %s in %.3f s (seed %llu, %s, %s",
                static_cast<unsigned long long>(report.n), outcome, by.c_str(), result.seconds,
                static_cast<unsigned long long>(report.seed),
                count_of(result.steps, "step").c_str(),
                count_of(result.restarts, "restart").c_str());
  std::string text = line;
  if (report.chains) text += ", replay with --chain " + std::to_string(report.chain);
  if (report.threaded && report.device == "gpu" && report.kernel_seconds >= 0) {
    char kernels[64];
    std::snprintf(kernels, sizeof kernels, ", on the gpu (kernels %.3f s)", report.kernel_seconds);
    text += kernels;
  } else if (report.threaded) {
    text += report.device == "gpu" ? ", on the gpu"
                                   : ", " + count_of(report.threads, "thread") + " on the cpu";
  }
  if (report.stopped_placing)
    text += ", " + count_of(result.unplaced, "queen") + " not yet placed";
  else if (!result.solved && result.queen_row.empty())
    text += ", no board: stopped before placing every queen";
  else if (!report.pairs_counted)
    text += ", attacking pairs not counted";
  else if (!result.solved)
    text += ", " + count_of(result.conflicts, "attacking pair") + " left";
  return text + ")\n";
}

}  // namespace

void write_result(byte_sink& out, const solve_request& request, const solve_report& report) {
  const solve_result& result = report.result;
  switch (request.format) {
    case solve_format::json:
      write_json(out, report);
      break;
    case solve_format::summary:
      out.write(solution_exists(report.n)
                    ? summary_line(report)
                    : "n=" + std::to_string(report.n) + ": no solution exists\n");
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
    case solve_format::npy:
    case solve_format::raw:
      write_board(out, result.queen_row,
                  request.format == solve_format::npy ? board_format::npy : board_format::raw);
      break;
  }
}

void report_failure(const solve_request& request, const solve_report& report) {
  std::string text = engine::failure_reason(request.job.limits, report, request.shell != nullptr);
  if (text.starts_with("no solution found:"))
    text += " (try another --seed, or a restarting algorithm)";
  // A board format with no board to show (a systematic search stopped with a partial
  // placement): said, since nothing is written.
  const bool board_format =
      request.format != solve_format::json && request.format != solve_format::summary;
  if (board_format && report.result.queen_row.empty())
    text += "; no board to show: " + report.algorithm + " stopped before placing every queen";
  std::fprintf(stderr, "nqueens solve: %s\n", text.c_str());
}

}  // namespace nq::cli::solve
