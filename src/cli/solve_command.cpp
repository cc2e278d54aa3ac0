// nqueens solve: one board, by one algorithm, in one of five output formats.

#include <cstdio>

#include "cli/solve.hpp"
#include "core/trace_writer.hpp"
#include "core/temp_files.hpp"
#include "nqueens/settings.hpp"
#include "nqueens/construction.hpp"

namespace nq::cli {
namespace {

using namespace solve;

int solve_main(int argc, char** argv, shell_solve* shell) {
  solve_command request = parse_request(argc, argv, shell && shell->trace_wanted);
  request.shell = shell;
  if (shell) request.job.limits.stop = shell->stop;
  const bool exists = solution_exists(request.job.n);
  const bool record =
      request.format == solve_format::json || request.format == solve_format::summary;
  // The shell shows the board itself; it writes the result only when asked to.
  const bool write = !shell || request.format_given;
  refuse_shared_outputs(
      {{"-o", request.output.empty() && write ? "-" : request.output}, {"--trace", request.trace}});
  if (exists) engine::check_solve_memory(job_of(request));
  // Ctrl-C or a polite kill stops the run (every chain of --chains) where it stands, as a
  // limit would, and the board it holds (the best a chain holds) is written. The shell keeps
  // its own handling of the terminal. Set before the outputs are opened: a signal that comes once
  // their temporaries exist stops the run, never the process.
  const bool stoppable = exists && !shell;
  if (stoppable) {
    request.job.limits.stop = &interrupted;
    stop_on_signal(&interrupted);
  }
  // Board formats have no board to show when none exists, so no file is created for them.
  std::optional<output_target> output;
  if (write && (record || exists)) output.emplace(request.output);
  std::optional<trace_writer> trace;
  if (exists && !request.trace.empty()) trace.emplace(request.trace, request.job.local.algorithm);
  nq::solve_request job = job_of(request);
  if (trace) {
    job.trace = [written = trace->callback(), narrate = job.trace](const trace_row& row) {
      written(row);
      if (narrate) narrate(row);
    };
  }
  progress_line progress(request.progress);
  job.progress = [&](const solve_progress& p) {
    if (progress.due(p.seconds))
      progress.show("%s %5.1f%% | %.3g steps | %llu restarts | %.1f s", p.phase, 100.0 * p.fraction,
                    static_cast<double>(p.steps), static_cast<unsigned long long>(p.restarts),
                    p.seconds);
  };
  solve_report report = nq::run(job);
  progress.finish();
  const solve_result& result = report.result;
  const bool stopped = stoppable && interrupted.load() && !result.solved;
  // A signal while the outputs are written lets them finish whole (then exit 130); a second
  // one ends the process, their temporaries removed and the old files kept.
  if (trace) trace->commit();
  // An unsolved run shows the board it was left with, as a solved one does.
  if (output && (record || !result.queen_row.empty())) {
    write_result(output->sink(), request, report);
    output->commit();
  }
  if (stoppable) remove_temp_files_on_signal();  // from here on, a signal ends the process
  if (stoppable && !stopped && interrupted.load()) {
    std::fprintf(stderr,
                 "nqueens solve: interrupted while writing the result, which was "
                 "written whole\n");
    return exit_interrupted;
  }
  if (!report.note.empty() && !request.quiet)
    std::fprintf(stderr, "nqueens solve: %s\n", report.note.c_str());
  const bool solved = result.solved;
  // A board written to a file leaves the terminal silent: one line says what was written where.
  if (!shell && solved && !request.output.empty() && request.output != "-" && !request.quiet) {
    const std::string what = to_text(report);
    std::fprintf(stderr, "nqueens solve: %.*s; written to %s\n", static_cast<int>(what.size() - 1),
                 what.c_str(), printable(request.output).c_str());
  }
  if (shell) {
    shell->device = report.device;
    shell->pairs_counted = report.pairs_counted;
    if (exists && !solved)
      shell->stop_reason = engine::failure_reason(request.job.limits, report, true);
    shell->result = std::move(report.result);  // the board is not copied: it may be 10^9 queens
  } else if (!exists) {
    std::fprintf(stderr, "nqueens solve: no solution exists for n=%llu\n",
                 static_cast<unsigned long long>(request.job.n));
  } else if (stopped) {
    std::fprintf(stderr, "nqueens solve: interrupted after %s (%.3f s), unsolved\n",
                 count_of(result.steps, "step").c_str(), result.seconds);
    return exit_interrupted;
  } else if (!result.solved) {
    report_failure(request, report);
  }
  return solved ? exit_ok : exit_unsolved;
}

}  // namespace

int run_solve(int argc, char** argv) { return solve_main(argc, argv, nullptr); }

int run_solve_in_shell(int argc, char** argv, shell_solve& shell) {
  return solve_main(argc, argv, &shell);
}

}  // namespace nq::cli
