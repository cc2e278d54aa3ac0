// nqueens solve's reports: the JSON record (the engine's, its rows streamed), the summary line
// (the engine's), the boards, and why an unsolved run stopped (the engine's phrase, with a
// hint).

#include <cstdio>

#include "cli/solve.hpp"
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

}  // namespace

void write_result(byte_sink& out, const solve_command& request, const solve_report& report) {
  const solve_result& result = report.result;
  switch (request.format) {
    case solve_format::json:
      write_json(out, report);
      break;
    case solve_format::summary:
      out.write(to_text(report));
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

void report_failure(const solve_command& request, const solve_report& report) {
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
