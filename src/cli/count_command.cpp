// nqueens count: how many solutions n queens have, and how many are fundamentally different.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cluster/count_cluster.hpp"
#include "cluster/start_gate.hpp"
#include "core/machine.hpp"
#include "core/temp_files.hpp"
#include "cpu/frame_engine.hpp"
#include "engine/count_engines.hpp"
#include "engine/named_settings.hpp"
#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"

namespace nq::cli {
namespace {

/// The count as asked, and how the command shows it.
struct count_command {
  count_request job;
  bool json = false;
  std::string output;
  bool quiet = false;
};

/// Under mpirun: what each rank did, by rank.
using rank_reports = std::vector<cluster::rank_report>;

count_command parse_request(int argc, char** argv) {
  cxxopts::Options options("nqueens count",
                           "Count every solution for n queens (n from 1 to 28), and with --unique "
                           "those distinct under rotations and reflections.");
  const std::string cores = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  // clang-format off
  options.add_options()
      ("n,queens", "number of queens, 1 to 28", cxxopts::value<std::string>())
      ("u,unique", "also count the fundamental solutions")
      ("t,threads", "worker threads (default: all " + cores + " cores)", cxxopts::value<std::string>())
      ("checkpoint", "record finished work in FILE and resume from it", cxxopts::value<std::string>())
      ("checkpoint-interval", "seconds between checkpoint writes", cxxopts::value<std::string>()->default_value("10"))
      ("f,format", "text or json", cxxopts::value<std::string>()->default_value("text"))
      ("o,output", "write the result to FILE (atomically) instead of standard output", cxxopts::value<std::string>())
      ("device", "cpu, gpu (every GPU shares the count), all (the GPUs and --threads CPU threads), or auto (the GPUs when there are any, else the CPU)", cxxopts::value<std::string>()->default_value("auto"))
      ("devices", "the GPUs to count on, by number: LIST such as 0,2 (default: all of them)", cxxopts::value<std::string>())
      ("simd", "CPU vector kernels: auto (the widest this CPU has), off, avx2 or avx512", cxxopts::value<std::string>()->default_value("auto"))
      ("q,quiet", "no progress line on stderr")
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(options.help());
  // The count as the engine reads it (the command's output options after it).
  engine::named_settings given;
  for (const char* name :
       {"queens", "threads", "checkpoint", "checkpoint-interval", "device", "devices", "simd"})
    if (args.count(name)) given.set(name, args[name].as<std::string>());
  if (args.count("unique")) given.set("unique", "true");
  count_command command;
  command.job = engine::count_request_from(given);
  command.json = parse_text_or_json(args["format"].as<std::string>());
  command.output = file_option(args, "output");
  command.quiet = args.count("quiet") > 0;
  return command;
}

void show_progress(const count_progress& p, bool& shown) {
  if (p.seconds < 1.0 || p.total == 0) return;
  const std::uint64_t fresh = p.done - p.resumed;
  const double rate = p.seconds > 0 ? fresh / p.seconds : 0.0;
  const double eta = rate > 0 ? (p.total - p.done) / rate : 0.0;
  std::fprintf(
      stderr,
      "\rsubproblems %llu/%llu (%.1f%%) | %.3g solutions | %.3g solutions/s | ETA %.0f s\033[K",
      static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.total),
      100.0 * p.done / p.total, static_cast<double>(p.solutions), p.solutions / p.seconds, eta);
  shown = true;
}

/// "5 threads", "2 GPUs", or "4 threads and 2 GPUs": what the ranks counted with together.
std::string rank_engines_text(const std::vector<cluster::rank_report>& ranks) {
  std::uint64_t threads = 0, gpus = 0;
  for (const auto& r : ranks) threads += r.threads, gpus += r.gpus;
  const std::string t = count_of(threads, "thread"), g = count_of(gpus, "GPU");
  return gpus == 0 ? t : threads == 0 ? g : t + " and " + g;
}

std::string text_line(const count_report& report, const rank_reports& ranks) {
  const count_result& result = report.result;
  char line[256];
  std::string text =
      "n=" + std::to_string(report.n) + ": " + count_of(result.solutions, "solution");
  if (report.unique) text += ", " + std::to_string(result.unique) + " unique";
  if (!ranks.empty())
    std::snprintf(line, sizeof line, " (%.3f s, %zu rank%s, %s in all, simd %s%s)\n",
                  result.seconds, ranks.size(), ranks.size() == 1 ? "" : "s",
                  rank_engines_text(ranks).c_str(), result.simd.c_str(),
                  result.resumed ? ", resumed from the checkpoint" : "");
  else if (report.device == "gpu")
    std::snprintf(line, sizeof line, " (%.3f s, %.3f s in kernels on %s%s)\n", result.seconds,
                  report.kernel_seconds, report.device_name.c_str(),
                  result.resumed ? ", resumed from the checkpoint" : "");
  else if (report.device == "all")
    std::snprintf(line, sizeof line,
                  " (%.3f s, %.3f s in kernels on %s, and %u CPU thread%s, simd %s, counting %llu "
                  "of the subproblems%s)\n",
                  result.seconds, report.kernel_seconds, report.device_name.c_str(), result.threads,
                  result.threads == 1 ? "" : "s", result.simd.c_str(),
                  static_cast<unsigned long long>(result.by_cpu),
                  result.resumed ? ", resumed from the checkpoint" : "");
  else
    std::snprintf(line, sizeof line, " (%.3f s, %u thread%s, simd %s%s)\n", result.seconds,
                  result.threads, result.threads == 1 ? "" : "s", result.simd.c_str(),
                  result.resumed ? ", resumed from the checkpoint" : "");
  return text + line;
}

/// The engine's record, and under mpirun the ranks': every rank's threads, by_rank in place of
/// the one machine's devices.
nlohmann::ordered_json json_record(const count_report& report, const rank_reports& ranks) {
  nlohmann::ordered_json record = engine::count_json(report);
  if (ranks.empty()) return record;
  std::uint64_t threads = 0;
  for (const auto& r : ranks) threads += r.threads;
  record["threads"] = threads;
  for (const char* key :
       {"devices", "kernel_seconds", "subproblems_by_device", "subproblems_on_cpu"})
    record.erase(key);
  record["ranks"] = ranks.size();
  nlohmann::ordered_json by_rank = nlohmann::ordered_json::array();
  for (const auto& r : ranks) {
    nlohmann::ordered_json entry;
    entry["rank"] = r.rank;
    entry["threads"] = r.threads;
    entry["gpus"] = r.gpus;
    entry["subproblems"] = r.subproblems;
    entry["solutions"] = r.solutions;
    entry["solutions_per_second"] =
        static_cast<double>(r.solutions) / std::max(report.result.seconds, 1e-9);
    entry["busy_seconds"] = r.busy_seconds;
    entry["idle_at_end_seconds"] = r.idle_at_end_seconds;
    entry["messages_sent"] = r.messages_sent;
    entry["bytes_sent"] = r.bytes_sent;
    if (!r.answered) entry["answered"] = false;
    by_rank.push_back(std::move(entry));
  }
  record["by_rank"] = std::move(by_rank);
  return record;
}

/// Under mpirun: what this rank counts with. Its GPUs as a count on one machine would take them
/// (choose_gpus: auto takes them when there are any), and its CPU threads unless its GPUs count
/// alone (gpu, or auto with GPUs); all: both.
cluster::rank_engines rank_engines_for(const count_request& request,
                                       const engine::gpu_engines& gpus) {
  cluster::rank_engines engines;
  engines.gpus = gpus.counters();
  engines.threads = gpus.empty() || request.device.kind == device_kind::all ? request.threads : 0;
  engines.simd = request.simd;
  return engines;
}

/// Under mpirun, another rank than 0: counts the frames rank 0 sends. A failure here would leave
/// rank 0 waiting for frames that never come: it ends the whole job, with the rank named.
int serve_as_rank(const count_request& request, cluster::channel& world,
                  const engine::gpu_engines& gpus) {
  try {
    cluster::serve_count(world, request.n, rank_engines_for(request, gpus), &interrupted);
  } catch (const std::exception& e) {
    abort_ranks("nqueens count", world, e);
  }
  return exit_ok;
}

/// Under mpirun, rank 0: counts as `request` says with every rank's threads, rank 0 handing out
/// the frames, biggest first, and alone keeping the checkpoint and the progress line.
count_report count_with_ranks(const count_request& request, cluster::count_leader& leader,
                              rank_reports& ranks) {
  count_settings settings;
  settings.threads = request.threads;
  settings.checkpoint = request.checkpoint;
  settings.checkpoint_interval = request.checkpoint_interval;
  settings.simd = request.simd;
  settings.stop = &interrupted;
  settings.progress = request.progress;
  // The CPU's frames and their split, so the checkpoint moves to and from a plain count.
  settings.slice_counters = {leader.counter()};
  settings.slice_frames = true;
  settings.slice_size = UINT32_MAX;  // one slice, handed out frame by frame
  count_report report;
  report.n = request.n;
  report.unique = request.unique;
  report.result = count_solutions(request.n, settings);
  ranks = leader.finish();
  report.device_name = cpu_model_name();
  report.result.simd = detail::choose_frame_kernels(request.simd).name;
  // What counted, over every rank: with --device auto, ranks with GPUs and ranks without.
  const auto any = [&](auto has) { return std::any_of(ranks.begin(), ranks.end(), has); };
  if (any([](const cluster::rank_report& r) { return r.gpus > 0; }))
    report.device =
        any([](const cluster::rank_report& r) { return r.threads > 0; }) ? "all" : "gpu";
  return report;
}

}  // namespace

int run_count(int argc, char** argv) {
  count_command command = parse_request(argc, argv);
  count_request& request = command.job;
  cluster::channel* world = cluster::process_world();
  if (!world || world->rank() == 0)
    refuse_shared_outputs({{"-o", command.output.empty() ? "-" : command.output},
                           {"--checkpoint", request.checkpoint}});
  // Under mpirun every rank takes its own GPUs before the start gate: one that has none for
  // --device gpu stops every rank there, with one message. Without --devices, the ranks on one
  // machine split its GPUs.
  std::optional<engine::gpu_engines> rank_gpus;
  if (world) {
    std::vector<int> gpus = engine::choose_gpus(request);
    if (request.device.ids.empty())
      gpus = cluster::local_share_of_gpus(gpus, world->local_rank(), world->local_size());
    rank_gpus.emplace(request.n, gpus);
  }
  if (world && world->rank() != 0) {
    cluster::start_together(*world);
    stop_on_signal(&interrupted);
    return serve_as_rank(request, *world, *rank_gpus);
  }
  output_target output(command.output);  // a bad path fails before the count starts
  // Every rank ready (or none starts); from here on, whatever fails, the leader's destructor
  // still ends the other ranks.
  std::optional<cluster::count_leader> leader;
  if (world) {
    cluster::start_together(*world);
    leader.emplace(*world, request.n, rank_engines_for(request, *rank_gpus), &interrupted);
  }
  // Ctrl-C or a polite kill: stop (the CPU drops its unfinished frames), save the checkpoint,
  // say so.
  stop_on_signal(&interrupted);
  bool shown = false;
  if (!command.quiet && stderr_is_terminal())
    request.progress = [&](const count_progress& p) { show_progress(p, shown); };
  request.stop.flag = &interrupted;
  rank_reports ranks;
  const count_report report = leader ? count_with_ranks(request, *leader, ranks) : nq::run(request);
  const count_result& result = report.result;
  for (const auto& r : ranks)
    if (!r.answered)
      std::fprintf(stderr,
                   "nqueens count: rank %d did not answer at the end (lost?); the frames it held "
                   "are left for the resume\n",
                   r.rank);
  if (shown) std::fputs("\r\033[K", stderr);
  if (!result.complete) {
    std::fprintf(
        stderr, "nqueens count: interrupted after %llu of %llu subproblems%s\n",
        static_cast<unsigned long long>(result.subproblems_done),
        static_cast<unsigned long long>(result.subproblems),
        request.checkpoint.empty() ? "" : "; run the same command to resume from the checkpoint");
    remove_temp_files_on_signal();
    return exit_interrupted;
  }
  // A signal while the result is written lets it finish whole (then exit 130); a second one
  // ends the process, the temporary removed and the old file kept.
  output.sink().write(command.json ? json_record(report, ranks).dump() + "\n"
                                   : text_line(report, ranks));
  output.commit();
  remove_temp_files_on_signal();  // from here on, a signal ends the process
  if (interrupted.load()) {
    std::fprintf(stderr,
                 "nqueens count: interrupted while writing the result, which was "
                 "written whole\n");
    return exit_interrupted;
  }
  // Said once the result is written: a failure to write it is the one line a refusal makes.
  if (!report.note.empty() && ranks.empty() && !command.quiet)
    std::fprintf(stderr, "nqueens count: %s\n", report.note.c_str());
  if (result.solutions == 0) {
    std::fprintf(stderr, "nqueens count: no solution exists for n=%d\n", request.n);
    return exit_unsolved;
  }
  return exit_ok;
}

}  // namespace nq::cli
