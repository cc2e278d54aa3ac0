// nqueens batch: many independent runs of one algorithm and their statistics, or a sweep of
// batches over a grid of parameter values.

#include <atomic>
#include <cstdio>
#include <optional>
#include <thread>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/local_options.hpp"
#include "core/atomic_file.hpp"
#include "core/temp_files.hpp"
#include "nqueens/settings.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"

namespace nq::cli {
namespace {

/// The batch (or sweep) as asked, and how the command shows it.
struct batch_command {
  batch_request job;
  std::vector<sweep_axis> sweep;  // one batch per point, when set
  bool json = false;
  std::string output;
  bool quiet = false;
  bool progress = false;  // the progress line on stderr (progress_wanted)
  std::string runs_csv;   // every run's record, when set
};

batch_command parse_request(int argc, char** argv) {
  cxxopts::Options options("nqueens batch",
                           "Run a local-search algorithm many times, independently, and report "
                           "its success rate and steps. Run i uses random stream (seed, i), so "
                           "results do not depend on --threads.");
  const std::string cores = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  // clang-format off
  options.add_options()
      ("n,queens", "number of queens", cxxopts::value<std::string>())
      ("a,algo", "algorithm (required): a local search from `nqueens algorithms`", cxxopts::value<std::string>())
      ("r,runs", "independent runs", cxxopts::value<std::string>()->default_value("1000"))
      ("t,threads", "worker threads (default: all " + cores + " cores)", cxxopts::value<std::string>())
      ("s,seed", "random seed; run i uses stream (seed, i)", cxxopts::value<std::string>()->default_value("1"))
      ("max-steps", "per run: give up after this many steps (default: the algorithm's)", cxxopts::value<std::string>())
      ("time-limit", "per run: give up after this many seconds", cxxopts::value<std::string>())
      ("sweep", "one batch per point of a grid, e.g. p=0.05:0.30:0.05,q=1:4 (any numeric algorithm option, max-steps, time-limit; q=10%:30%:5% as shares of n)", cxxopts::value<std::string>())
      ("device", "cpu, gpu, or auto: the GPU when there is one that runs the algorithm, else the CPU", cxxopts::value<std::string>()->default_value("auto"))
      ("runs-csv", "write every run's record (run,solved,steps,restarts,cost) to FILE, atomically", cxxopts::value<std::string>())
      ("f,format", "text or json", cxxopts::value<std::string>()->default_value("text"))
      ("o,output", "write the result to FILE (atomically) instead of standard output", cxxopts::value<std::string>())
      ("q,quiet", "no progress line on stderr")
      ("progress", "show the progress line on stderr even where it is not a terminal")
      ("h,help", "show this help");
  // clang-format on
  add_local_options(options);
  const auto args = parse_local_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(local_help(options.help()));
  // The batch itself as the engine reads it (the command's own options after it).
  const engine::named_settings given = named_from(
      args, {"queens", "algo", "runs", "threads", "seed", "max-steps", "time-limit", "device"});
  batch_command request;
  request.job = engine::batch_request_from(given, args.count("sweep") > 0);
  request.json = parse_text_or_json(args["format"].as<std::string>());
  request.output = file_option(args, "output");
  request.quiet = args.count("quiet") > 0;
  request.progress = progress_wanted(args);
  if (args.count("runs-csv")) {
    if (args.count("sweep")) throw usage_error("--runs-csv takes one batch, not a --sweep");
    request.runs_csv = file_option(args, "runs-csv");
  }
  if (args.count("sweep"))
    request.sweep = engine::sweep_from(args["sweep"].as<std::string>(), given, request.job);
  return request;
}

/// Every run's record as CSV, written as the slices come in.
class runs_csv_writer {
 public:
  explicit runs_csv_writer(const std::string& path) : file_(path), sink_(file_.fd()) {
    sink_.write("run,solved,steps,restarts,cost\n");
  }
  /// Writes the runs up to the first one a stop cut short (or kept from starting): the runs the
  /// statistics describe.
  void write(std::uint64_t first, const std::vector<chain_outcome>& runs) {
    for (std::size_t i = 0; i < runs.size() && !cut_; ++i) {
      if (runs[i].interrupted) {
        cut_ = true;
        break;
      }
      sink_.write_number(first + i);
      sink_.write(runs[i].solved ? ",1," : ",0,");
      sink_.write_number(runs[i].steps);
      sink_.write(",");
      sink_.write_number(runs[i].restarts);
      sink_.write(",");
      sink_.write_number(runs[i].cost);
      sink_.write("\n");
    }
  }
  void commit() {
    sink_.flush();
    file_.commit();
  }

 private:
  atomic_file file_;
  byte_sink sink_;
  bool cut_ = false;
};

/// The batch, or every point of its sweep: the JSON record (an array for a sweep) and the text;
/// the runs of the last batch (or point), for the interrupted line.
struct batch_result {
  std::string json, text, note;
  std::uint64_t runs = 0;
  bool interrupted = false;
};

batch_result run_request(const batch_command& command, const batch_request& job,
                         progress_line& progress) {
  batch_result out;
  if (command.sweep.empty()) {
    const batch_report report = nq::run(job);
    out.json = to_json(report) + "\n";
    out.text = to_text(report);
    out.runs = report.stats.runs;
    out.interrupted = report.stats.interrupted;
    out.note = report.note;
    return out;
  }
  // Rows as they finish, for a person watching while the table goes elsewhere.
  const bool echo = command.progress && (command.json || !command.output.empty());
  sweep_request sweep{job, command.sweep,
                      [&](const std::vector<std::string>& values, const batch_report& report) {
                        progress.finish();  // each point's own line
                        if (echo) std::fputs(to_text(sweep_point{values, report}).c_str(), stderr);
                      }};
  const sweep_report report = nq::run(sweep);
  out.json = to_json(report, 2) + "\n";
  out.text = to_text(report);
  out.note = report.note;
  if (!report.points.empty()) {
    out.runs = report.points.back().report.stats.runs;
    out.interrupted = report.points.back().report.stats.interrupted;
  }
  return out;
}

}  // namespace

int run_batch_command(int argc, char** argv) {
  batch_command command = parse_request(argc, argv);
  batch_request& job = command.job;
  job.ranks = process_ranks();
  const bool leader = job.ranks.leader();
  command.quiet = command.quiet || !leader;  // one progress line and one note, rank 0's
  command.progress = command.progress && leader;
  if (leader)
    refuse_shared_outputs(
        {{"-o", command.output.empty() ? "-" : command.output}, {"--runs-csv", command.runs_csv}});
  if (!solution_exists(job.n)) {
    if (leader)
      std::fprintf(stderr, "nqueens batch: no solution exists for n=%s; no runs made\n",
                   std::to_string(job.n).c_str());
    return exit_unsolved;
  }
  // Ctrl-C or a polite kill stops the batch: the runs it cut short are dropped, and the report
  // (and --runs-csv) describe runs 0..k-1, all finished, written whole. Raised before the
  // outputs open, so that a signal that comes once their temporaries exist stops the batch.
  job.stop.flag = &interrupted;
  stop_on_signal(&interrupted);
  // From the end of the outputs on (or an error), a signal ends the process again.
  struct signal_ends_process {
    ~signal_ends_process() { remove_temp_files_on_signal(); }
  };
  std::optional<signal_ends_process> restore(std::in_place);
  // The outputs open once the engine has checked the batch and chosen its backend (refusing,
  // exit 3, one that would not fit in memory); rank 0 alone writes them.
  std::optional<output_target> output;
  std::optional<runs_csv_writer> csv;
  job.ready = [&] {
    if (!leader) return;
    output.emplace(command.output);
    if (!command.runs_csv.empty()) csv.emplace(command.runs_csv);
  };
  job.ranks.abort = [&](const std::exception& e) {
    output.reset();  // their temporaries removed: the abort runs no destructor
    csv.reset();
    abort_ranks("nqueens batch", job.ranks, e);
  };
  // Every rank's records reach rank 0's file, in run order; the other ranks send theirs.
  if (!command.runs_csv.empty())
    job.settings.on_records = [&](std::uint64_t first, const std::vector<chain_outcome>& runs) {
      if (csv) csv->write(first, runs);
    };
  progress_line progress(command.progress);
  if (command.progress)
    job.settings.progress = [&, runs = job.settings.runs](std::uint64_t done, double seconds) {
      if (done == 0 || !progress.due(seconds)) return;
      const double rate = static_cast<double>(done) / seconds;
      progress.show("batch %5.1f%% | %llu of %llu runs | %.3g runs/s | about %.0f s left",
                    100.0 * static_cast<double>(done) / static_cast<double>(runs),
                    static_cast<unsigned long long>(done), static_cast<unsigned long long>(runs),
                    rate, static_cast<double>(runs - done) / rate);
    };
  const batch_result result = run_request(command, job, progress);
  progress.finish();
  if (!leader) return exit_ok;  // rank 0 writes the output
  // A signal while the report is written lets it finish whole (then exit 130, below); a
  // second one ends the process, the temporaries removed and the old files kept.
  output->sink().write(command.json ? result.json : result.text);
  if (csv) csv->commit();
  output->commit();
  restore.reset();
  // Said once the report is written: a failure to write it is the one line a refusal makes.
  if (!result.note.empty() && !command.quiet)
    std::fprintf(stderr, "nqueens batch: %s\n", result.note.c_str());
  if (interrupted.load()) {
    const std::string covered = !result.interrupted ? "every run had finished"
                                : result.runs == 0  ? "none to describe"
                                : "the statistics describe runs 0 to " +
                                      std::to_string(result.runs - 1);
    std::fprintf(stderr, "nqueens batch: interrupted after %s that finished: %s\n",
                 count_of(result.runs, "run").c_str(), covered.c_str());
    return exit_interrupted;
  }
  return exit_ok;
}

}  // namespace nq::cli
