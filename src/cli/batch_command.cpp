// nqueens batch: many independent runs of one algorithm and their statistics, or a sweep of
// batches over a grid of parameter values.

#include <atomic>
#include <cstdio>
#include <optional>
#include <thread>

#include "cli/batch_report.hpp"
#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/local_options.hpp"
#include "cluster/batch_share.hpp"
#include "cluster/start_gate.hpp"
#include "core/atomic_file.hpp"
#include "core/stopwatch.hpp"
#include "core/temp_files.hpp"
#include "engine/batch_job.hpp"
#include "engine/named_settings.hpp"
#include "engine/sweep.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/error.hpp"

namespace nq::cli {
namespace {

struct batch_request {
  index_t n = 0;
  local_search_settings algorithm;
  batch_settings batch;
  bool json = false;
  std::string output;
  bool quiet = false;
  std::vector<engine::sweep_axis> sweep;
  device_kind device = device_kind::any;
  std::string runs_csv;  // every run's record, when set
};

batch_request parse_request(int argc, char** argv) {
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
      ("h,help", "show this help");
  // clang-format on
  add_local_options(options);
  const auto args = parse_local_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(local_help(options.help()));
  // The batch itself as the engine reads it (the command's own options after it).
  const engine::named_settings given = named_from(
      args, {"queens", "algo", "runs", "threads", "seed", "max-steps", "time-limit", "device"});
  const nq::batch_request job = engine::batch_request_from(given, args.count("sweep") > 0);
  batch_request request;
  request.n = job.n;
  request.algorithm = job.algorithm;
  request.batch = job.settings;
  request.device = job.device;
  request.json = parse_text_or_json(args["format"].as<std::string>());
  request.output = file_option(args, "output");
  request.quiet = args.count("quiet") > 0;
  if (args.count("runs-csv")) {
    if (args.count("sweep")) throw usage_error("--runs-csv takes one batch, not a --sweep");
    request.runs_csv = file_option(args, "runs-csv");
  }
  if (args.count("sweep"))
    request.sweep = engine::sweep_from(args["sweep"].as<std::string>(), given, job);
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

/// One batch (or sweep point) and, under mpirun, what each rank's share came to.
struct batch_outcome {
  batch_stats stats;
  std::vector<cluster::batch_part> parts;  ///< by rank; empty for one process
  bool stopped = false;  ///< no more batches: the stop, or (under mpirun) rank 0's verdict
};

/// Under mpirun: this rank's share of the runs, the same (seed, run) streams as one process;
/// rank 0 merges the shares' tallies (and writes every rank's records to --runs-csv), then
/// tells every rank whether to go on.
batch_outcome run_share(const batch_request& request, const local_search_settings& algorithm,
                        batch_settings settings, batch_backend& backend, runs_csv_writer* csv,
                        cluster::channel& world) {
  const bool leader = world.rank() == 0;
  const cluster::run_share share = cluster::share_of(settings.runs, world.rank(), world.size());
  const detail::stopwatch clock;
  cluster::batch_part part;
  part.requested = share.count;
  std::vector<std::uint64_t> my_records;
  const bool keep_records = !request.runs_csv.empty();
  if (share.count > 0) {
    // The progress line is rank 0's share.
    batch_progress progress(share.count, leader && !request.quiet && stderr_is_terminal());
    settings.progress = [&](std::uint64_t done, double seconds) { progress.update(done, seconds); };
    settings.first_run = share.first;
    settings.runs = share.count;
    settings.tally = &part.tally;
    if (keep_records)
      settings.on_records = [&](std::uint64_t first, const std::vector<chain_outcome>& runs) {
        if (csv) return csv->write(first, runs);
        for (const chain_outcome& run : runs) cluster::pack_record(run, my_records);
      };
    const batch_stats mine = run_batch(request.n, algorithm, settings, backend);
    part.runs = mine.runs;
    part.interrupted = mine.interrupted;
    part.seconds = mine.seconds;
    part.kernel_seconds = mine.kernel_seconds;
    part.threads = mine.threads;
  }
  batch_outcome out;
  const auto others = [&](std::uint64_t first, const std::vector<chain_outcome>& runs) {
    if (csv) csv->write(first, runs);
  };
  out.parts = cluster::gather_parts(world, part, my_records,
                                    keep_records ? std::function(others) : nullptr);
  if (leader) {
    out.stats = cluster::merge_parts(out.parts);
    out.stats.seconds = clock.seconds();
    out.stats.runs_per_second =
        static_cast<double>(out.stats.runs) / std::max(out.stats.seconds, 1e-9);
    for (const auto& p : out.parts) {
      out.stats.threads += p.threads;
      out.stats.kernel_seconds += p.kernel_seconds;
    }
  }
  const std::atomic<bool>* stop = settings.limits.stop;
  out.stopped = !cluster::agree(world, !(out.stats.interrupted || (stop && stop->load())));
  return out;
}

batch_outcome run_one(const batch_request& request, const local_search_settings& algorithm,
                      batch_settings settings, batch_backend& backend,
                      runs_csv_writer* csv = nullptr) {
  if (cluster::channel* world = cluster::process_world())
    return run_share(request, algorithm, settings, backend, csv, *world);
  batch_progress progress(request.batch.runs, !request.quiet && stderr_is_terminal());
  settings.progress = [&](std::uint64_t done, double seconds) { progress.update(done, seconds); };
  if (csv)
    settings.on_records = [&](std::uint64_t first, const std::vector<chain_outcome>& runs) {
      csv->write(first, runs);
    };
  batch_outcome out;
  out.stats = run_batch(request.n, algorithm, settings, backend);
  const std::atomic<bool>* stop = settings.limits.stop;
  out.stopped = out.stats.interrupted || (stop && stop->load());
  return out;
}

/// The record of one batch; under mpirun with `ranks` and each rank's share and throughput.
nlohmann::ordered_json record_of(const batch_request& request,
                                 const local_search_settings& algorithm,
                                 const batch_settings& settings, const batch_outcome& outcome,
                                 const batch_backend& backend) {
  nlohmann::ordered_json record = engine::batch_json(
      engine::batch_report_of(request.n, algorithm, settings, outcome.stats, backend));
  if (outcome.parts.empty()) return record;
  record["ranks"] = outcome.parts.size();
  nlohmann::ordered_json by_rank = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < outcome.parts.size(); ++r) {
    const cluster::batch_part& p = outcome.parts[r];
    nlohmann::ordered_json entry;
    entry["rank"] = r;
    entry["runs"] = p.runs;
    entry["seconds"] = p.seconds;
    entry["runs_per_second"] = static_cast<double>(p.runs) / std::max(p.seconds, 1e-9);
    entry["threads"] = p.threads;
    by_rank.push_back(std::move(entry));
  }
  record["by_rank"] = std::move(by_rank);
  return record;
}

/// Every point's record, and the table the text format prints.
void run_sweep(const batch_request& request, batch_backend& backend,
               nlohmann::ordered_json& records, std::string& text) {
  records = nlohmann::ordered_json::array();
  std::string table;
  for (const auto& axis : request.sweep) {
    char cell[32];
    std::snprintf(cell, sizeof cell, "%-10s ", axis.name.c_str());
    table += cell;
  }
  table += "      runs    solved  success%  steps(solved)  steps(failed)     runs/s\n";
  for (const auto& point : engine::grid_points(request.sweep)) {
    auto algorithm = request.algorithm;
    batch_settings settings = request.batch;
    std::string row;
    for (std::size_t i = 0; i < point.size(); ++i) {
      engine::set_sweep_value(algorithm, settings.limits, request.n, request.sweep[i].name,
                              point[i]);
      char cell[32];
      std::snprintf(cell, sizeof cell, "%-10s ", point[i].c_str());
      row += cell;
    }
    const batch_outcome outcome = run_one(request, algorithm, settings, backend);
    const batch_stats& stats = outcome.stats;
    records.push_back(record_of(request, algorithm, settings, outcome, backend));
    // A mean over no runs is "-", as the summary's "none" and JSON's null.
    const auto mean = [](const step_summary& steps) {
      char cell[32];
      if (steps.runs == 0) return std::string("             -");
      std::snprintf(cell, sizeof cell, "%14.2f", steps.mean);
      return std::string(cell);
    };
    char line[200];
    std::snprintf(line, sizeof line, "%10llu %9llu %9.2f %s %s %10.4g\n",
                  static_cast<unsigned long long>(stats.runs),
                  static_cast<unsigned long long>(stats.solved), 100 * stats.success_rate,
                  mean(stats.success).c_str(), mean(stats.failure).c_str(), stats.runs_per_second);
    table += row + line;
    // Rows as they finish, for a person watching while the table goes elsewhere.
    if (!request.quiet && stderr_is_terminal() && (request.json || !request.output.empty()))
      std::fputs((row + line).c_str(), stderr);
    if (outcome.stopped) break;
  }
  const auto name = algorithm_name(request.algorithm.algorithm);
  text = std::string(name) + " on n=" + std::to_string(request.n) + ", " +
         std::to_string(request.batch.runs) + " runs per point\n" + table;
}

std::string no_solution(const batch_request& request) {
  return "no solution exists for n=" + std::to_string(request.n) + "; no runs made";
}

/// Refuses (exit 3) a batch that would not fit in memory, then picks its backend; its note
/// says why --device auto took the CPU.
engine::batch_job prepare(const batch_request& request) {
  return engine::batch_job(request.n, request.algorithm, request.device,
                           batch_threads(request.batch));
}

/// The batch, or every point of its sweep: the JSON record (an array for a sweep) and the text.
void run_request(const batch_request& request, batch_backend& backend, runs_csv_writer* csv,
                 nlohmann::ordered_json& records, std::string& text) {
  if (!request.sweep.empty()) return run_sweep(request, backend, records, text);
  const batch_outcome outcome = run_one(request, request.algorithm, request.batch, backend, csv);
  records = record_of(request, request.algorithm, request.batch, outcome, backend);
  text = batch_summary(request.n, request.algorithm, outcome.stats, backend);
  if (!outcome.parts.empty())
    text += "  shared by " + std::to_string(outcome.parts.size()) + " MPI ranks (" +
            std::to_string(outcome.stats.threads) + " threads in all)\n";
}

/// Under mpirun, a rank other than 0: runs its share of every batch; rank 0 writes the output.
int run_batch_as_rank(const batch_request& request, batch_backend& backend,
                      cluster::channel& world) {
  cluster::start_together(world);  // every rank ready, rank 0's outputs open: or none starts
  try {
    nlohmann::ordered_json records;
    std::string text;
    run_request(request, backend, nullptr, records, text);
  } catch (const std::exception& e) {
    abort_ranks("nqueens batch", world, e);  // rank 0 waits for this rank's share
  }
  return exit_ok;
}

}  // namespace

int run_batch_command(int argc, char** argv) {
  batch_request request = parse_request(argc, argv);
  cluster::channel* world = cluster::process_world();
  const bool leader = !world || world->rank() == 0;
  request.quiet = request.quiet || !leader;  // one progress line and one note, rank 0's
  if (leader)
    refuse_shared_outputs(
        {{"-o", request.output.empty() ? "-" : request.output}, {"--runs-csv", request.runs_csv}});
  if (!solution_exists(request.n)) {
    if (leader) std::fprintf(stderr, "nqueens batch: %s\n", no_solution(request).c_str());
    return exit_unsolved;
  }
  engine::batch_job job = prepare(request);
  batch_backend* const backend = &job.backend();
  const std::string& note = job.note();
  // Ctrl-C or a polite kill stops the batch: the runs it cut short are dropped, and the report
  // (and --runs-csv) describe runs 0..k-1, all finished, written whole. Set before the outputs
  // open, so that a signal that comes once their temporaries exist stops the batch.
  batch_request stoppable = request;
  stoppable.batch.limits.stop = &interrupted;
  stop_on_signal(&interrupted);
  // From the end of the outputs on (or an error), a signal ends the process again.
  struct signal_ends_process {
    ~signal_ends_process() { remove_temp_files_on_signal(); }
  };
  std::optional<signal_ends_process> restore(std::in_place);
  if (!leader) return run_batch_as_rank(stoppable, *backend, *world);
  std::optional<output_target> output(std::in_place, request.output);
  std::optional<runs_csv_writer> csv;
  if (!request.runs_csv.empty()) csv.emplace(request.runs_csv);
  if (world) cluster::start_together(*world);
  nlohmann::ordered_json records;
  std::string text;
  if (!world) {
    run_request(stoppable, *backend, csv ? &*csv : nullptr, records, text);
  } else {
    try {
      run_request(stoppable, *backend, csv ? &*csv : nullptr, records, text);
    } catch (const std::exception& e) {
      output.reset();  // their temporaries removed: MPI_Abort runs no destructor
      csv.reset();
      abort_ranks("nqueens batch", *world, e);  // the other ranks wait for rank 0's verdicts
    }
  }
  // A signal while the report is written lets it finish whole (then exit 130, below); a
  // second one ends the process, the temporaries removed and the old files kept.
  output->sink().write(!request.json        ? text
                       : records.is_array() ? records.dump(2) + "\n"
                                            : records.dump() + "\n");
  if (csv) csv->commit();
  output->commit();
  restore.reset();
  // Said once the report is written: a failure to write it is the one line a refusal makes.
  if (!note.empty() && !request.quiet) std::fprintf(stderr, "nqueens batch: %s\n", note.c_str());
  if (interrupted.load()) {
    const nlohmann::ordered_json& last = records.is_array() ? records.back() : records;
    const auto runs = last["runs"].get<std::uint64_t>();
    const std::string covered =
        !last.value("interrupted", false) ? "every run had finished"
        : runs == 0                       ? "none to describe"
                    : "the statistics describe runs 0 to " + std::to_string(runs - 1);
    std::fprintf(stderr, "nqueens batch: interrupted after %s that finished: %s\n",
                 count_of(runs, "run").c_str(), covered.c_str());
    return exit_interrupted;
  }
  return exit_ok;
}

}  // namespace nq::cli
