// nqueens count: how many solutions n queens have, and how many are fundamentally different.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "cli/backend_choice.hpp"
#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/machine.hpp"
#include "core/temp_files.hpp"
#include "cpu/frame_engine.hpp"
#include "dist/count_cluster.hpp"
#include "dist/start_gate.hpp"
#include "nqueens/count.hpp"
#include "nqueens/error.hpp"

#if NQ_WITH_CUDA
#include "kernels/gpu.hpp"
#endif

namespace nq::cli {
namespace {

struct count_request {
  int n = 0;
  bool unique = false;
  unsigned threads = 1;
  std::string checkpoint;
  double checkpoint_interval = 10.0;
  bool json = false;
  std::string output;
  bool quiet = false;
  std::string device = "auto";
  std::vector<int> devices;  ///< --devices; empty: every device
  std::string simd = "auto";
};

/// Where the count ran.
struct count_device {
  std::string device = "cpu";  ///< cpu, gpu, or all (GPUs and CPU threads)
  std::string name;
  std::vector<int> gpus;                 ///< the GPUs that counted
  double kernel_seconds = 0.0;           ///< summed over the GPUs
  std::vector<dist::rank_report> ranks;  ///< under mpirun: what each rank did, by rank
};

count_request parse_request(int argc, char** argv) {
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
  if (!args.count("queens")) throw usage_error("missing -n: how many queens? (see --help)");
  count_request request;
  const index_t n = parse_board_size(args["queens"].as<std::string>());
  check_count_size(static_cast<std::int64_t>(n));
  request.n = static_cast<int>(n);
  request.unique = args.count("unique") > 0;
  const std::uint64_t threads = parse_positive(
      "--threads", args.count("threads") ? args["threads"].as<std::string>() : cores);
  if (threads > 1024)
    throw usage_error("--threads must be at most 1024, got " + std::to_string(threads));
  request.threads = static_cast<unsigned>(threads);
  request.checkpoint = file_option(args, "checkpoint");
  request.checkpoint_interval =
      parse_seconds("--checkpoint-interval", args["checkpoint-interval"].as<std::string>());
  request.json = parse_text_or_json(args["format"].as<std::string>());
  request.output = file_option(args, "output");
  request.quiet = args.count("quiet") > 0;
  request.device = parse_device(args["device"].as<std::string>(), true);
  if (args.count("devices")) {
    request.devices = parse_device_list(args["devices"].as<std::string>());
    if (request.device == "cpu") throw usage_error("--devices needs --device gpu, all or auto");
  }
  request.simd = args["simd"].as<std::string>();
  detail::choose_frame_kernels(request.simd);  // an unknown name, or one this CPU cannot run
  return request;
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
std::string rank_engines_text(const std::vector<dist::rank_report>& ranks) {
  std::uint64_t threads = 0, gpus = 0;
  for (const auto& r : ranks) threads += r.threads, gpus += r.gpus;
  const std::string t = count_of(threads, "thread"), g = count_of(gpus, "GPU");
  return gpus == 0 ? t : threads == 0 ? g : t + " and " + g;
}

std::string text_line(const count_request& request, const count_result& result,
                      const count_device& where) {
  char line[256];
  std::string text =
      "n=" + std::to_string(request.n) + ": " + count_of(result.solutions, "solution");
  if (request.unique) text += ", " + std::to_string(result.unique) + " unique";
  if (!where.ranks.empty())
    std::snprintf(line, sizeof line, " (%.3f s, %zu rank%s, %s in all, simd %s%s)\n",
                  result.seconds, where.ranks.size(), where.ranks.size() == 1 ? "" : "s",
                  rank_engines_text(where.ranks).c_str(), result.simd.c_str(),
                  result.resumed ? ", resumed from the checkpoint" : "");
  else if (where.device == "gpu")
    std::snprintf(line, sizeof line, " (%.3f s, %.3f s in kernels on %s%s)\n", result.seconds,
                  where.kernel_seconds, where.name.c_str(),
                  result.resumed ? ", resumed from the checkpoint" : "");
  else if (where.device == "all")
    std::snprintf(line, sizeof line,
                  " (%.3f s, %.3f s in kernels on %s, and %u CPU thread%s, simd %s, counting %llu "
                  "of the subproblems%s)\n",
                  result.seconds, where.kernel_seconds, where.name.c_str(), result.threads,
                  result.threads == 1 ? "" : "s", result.simd.c_str(),
                  static_cast<unsigned long long>(result.by_cpu),
                  result.resumed ? ", resumed from the checkpoint" : "");
  else
    std::snprintf(line, sizeof line, " (%.3f s, %u thread%s, simd %s%s)\n", result.seconds,
                  result.threads, result.threads == 1 ? "" : "s", result.simd.c_str(),
                  result.resumed ? ", resumed from the checkpoint" : "");
  return text + line;
}

nlohmann::ordered_json json_record(const count_request& request, const count_result& result,
                                   const count_device& where) {
  nlohmann::ordered_json record;
  record["n"] = request.n;
  record["solutions"] = result.solutions;
  if (request.unique) record["unique"] = result.unique;
  record["seconds"] = result.seconds;
  std::uint64_t threads = result.threads;  // under mpirun: every rank's
  if (!where.ranks.empty()) {
    threads = 0;
    for (const auto& r : where.ranks) threads += r.threads;
  }
  record["threads"] = threads;
  record["device"] = where.device;
  record["device_name"] = where.name;
  if (where.device != "cpu" && where.ranks.empty()) {  // under mpirun: by_rank's gpus
    record["devices"] = where.gpus;
    record["kernel_seconds"] = where.kernel_seconds;
    record["subproblems_by_device"] = result.by_slice_counter;
  }
  if (where.device != "gpu") record["simd"] = result.simd;
  if (where.device == "all" && where.ranks.empty()) record["subproblems_on_cpu"] = result.by_cpu;
  record["subproblems"] = result.subproblems;
  record["resumed_subproblems"] = result.resumed;
  if (!where.ranks.empty()) {
    record["ranks"] = where.ranks.size();
    nlohmann::ordered_json by_rank = nlohmann::ordered_json::array();
    for (const auto& r : where.ranks) {
      nlohmann::ordered_json entry;
      entry["rank"] = r.rank;
      entry["threads"] = r.threads;
      entry["gpus"] = r.gpus;
      entry["subproblems"] = r.subproblems;
      entry["solutions"] = r.solutions;
      entry["solutions_per_second"] =
          static_cast<double>(r.solutions) / std::max(result.seconds, 1e-9);
      entry["busy_seconds"] = r.busy_seconds;
      entry["idle_at_end_seconds"] = r.idle_at_end_seconds;
      entry["messages_sent"] = r.messages_sent;
      entry["bytes_sent"] = r.bytes_sent;
      if (!r.answered) entry["answered"] = false;
      by_rank.push_back(std::move(entry));
    }
    record["by_rank"] = std::move(by_rank);
  }
  return record;
}

/// The GPUs the count runs on: --devices, else every one; none for --device cpu, or for auto
/// and all without a GPU. Boards below 4 have no subproblems and stay on the CPU. --device gpu
/// or --devices without a GPU: exit 3; a device number past the last: exit 2. (An auto or all
/// count that falls back says so once it has finished, so that errors stay one line.)
std::vector<int> choose_gpus(const count_request& request) {
  if (request.device == "cpu" || request.n < 4) return {};
  const bool needed = request.device == "gpu" || !request.devices.empty();
#if NQ_WITH_CUDA
  const int present = gpu::device_count();
  if (present == 0) {
    if (needed) throw device_error("no CUDA device available");
    return {};
  }
  if (request.devices.empty()) {
    std::vector<int> every(static_cast<std::size_t>(present));
    for (int d = 0; d < present; ++d) every[static_cast<std::size_t>(d)] = d;
    return every;
  }
  for (const int d : request.devices)
    if (d >= present)
      throw usage_error("--devices: there is no CUDA device " + std::to_string(d) +
                        " (this machine has " + std::to_string(present) + ", numbered 0 to " +
                        std::to_string(present - 1) + ")");
  return request.devices;
#else
  if (needed) throw device_error("no CUDA device available (this nqueens was built without CUDA)");
  return {};
#endif
}

#if NQ_WITH_CUDA
/// "NAME", "2 x NAME" when the GPUs are alike, else the names one after another.
std::string describe_gpus(const std::vector<std::string>& names) {
  if (names.size() == 1) return names[0];
  if (std::all_of(names.begin(), names.end(), [&](const auto& name) { return name == names[0]; }))
    return std::to_string(names.size()) + " x " + names[0];
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}
#endif

/// A frame counter on each of `gpus` (none without CUDA), each a slice counter taking the
/// CPU's frames (so a checkpoint moves between --device cpu and gpu) from a host thread of its
/// own; made before the count (or, under mpirun, the start gate), so that a GPU that fails fails
/// there.
class gpu_engines {
 public:
  gpu_engines(int n, const std::vector<int>& gpus) {
#if NQ_WITH_CUDA
    for (const int d : gpus) {
      counters_.push_back(std::make_unique<gpu::frame_counter>(n, -1, d));
      names_.push_back(gpu::device_name(d));
    }
#else
    (void)n;
    NQ_EXPECTS(gpus.empty(), "GPUs need a CUDA build");
#endif
  }
  bool empty() const { return size() == 0; }
  std::size_t size() const {
#if NQ_WITH_CUDA
    return counters_.size();
#else
    return 0;
#endif
  }
  std::vector<slice_counter_fn> counters() const {
    std::vector<slice_counter_fn> out;
#if NQ_WITH_CUDA
    for (const auto& c : counters_)
      out.push_back([counter = c.get()](const std::vector<std::uint32_t>& indices,
                                        const std::atomic<bool>* stop, const auto& finished) {
        counter->count(indices, stop, finished);
      });
#endif
    return out;
  }
  std::size_t frames() const {
#if NQ_WITH_CUDA
    if (!counters_.empty()) return counters_.front()->frames();
#endif
    return 0;
  }
  std::string name() const {
#if NQ_WITH_CUDA
    if (!names_.empty()) return describe_gpus(names_);
#endif
    return "";
  }
  double kernel_seconds() const {
    double seconds = 0.0;
#if NQ_WITH_CUDA
    for (const auto& c : counters_) seconds += c->kernel_seconds();
#endif
    return seconds;
  }

 private:
#if NQ_WITH_CUDA
  std::vector<std::unique_ptr<gpu::frame_counter>> counters_;
  std::vector<std::string> names_;
#endif
};

/// Under mpirun: what this rank counts with. Its GPUs as a count on one machine would take them
/// (choose_gpus: auto takes them when there are any), and its CPU threads unless its GPUs count
/// alone (gpu, or auto with GPUs); all: both.
dist::rank_engines rank_engines_for(const count_request& request, const gpu_engines& gpus) {
  dist::rank_engines engines;
  engines.gpus = gpus.counters();
  engines.threads = gpus.empty() || request.device == "all" ? request.threads : 0;
  engines.simd = request.simd;
  return engines;
}

/// Counts as `request` says, stopping early once `*stop` is raised.
count_result count_as_asked(const count_request& request, const std::atomic<bool>* stop,
                            bool& shown, count_device& where) {
  count_settings settings;
  settings.threads = request.threads;
  settings.checkpoint = request.checkpoint;
  settings.checkpoint_interval = request.checkpoint_interval;
  settings.simd = request.simd;
  settings.stop = stop;
  if (!request.quiet && stderr_is_terminal())
    settings.progress = [&](const count_progress& p) { show_progress(p, shown); };
  where.name = cpu_model_name();
  where.gpus = choose_gpus(request);
  const gpu_engines gpus(request.n, where.gpus);
  if (!gpus.empty()) {
    // One counter (and host thread) per GPU, all taking frames from one source: a lone GPU
    // takes every frame left in one persistent launch, several take shares, biggest frames
    // first.
    settings.slice_counters = gpus.counters();
    settings.slice_frames = true;
    settings.slice_size = gpus.frames();
    settings.cpu_beside_slices = request.device == "all";
    where.device = request.device == "all" ? "all" : "gpu";
    where.name = gpus.name();
  }
  const count_result result = count_solutions(request.n, settings);
  where.kernel_seconds = gpus.kernel_seconds();
  return result;
}

/// Under mpirun, another rank than 0: counts the frames rank 0 sends. A failure here would leave
/// rank 0 waiting for frames that never come: it ends the whole job, with the rank named.
int serve_as_rank(const count_request& request, dist::channel& world, const gpu_engines& gpus) {
  try {
    dist::serve_count(world, request.n, rank_engines_for(request, gpus), &interrupted);
  } catch (const std::exception& e) {
    abort_ranks("nqueens count", world, e);
  }
  return exit_ok;
}

/// Under mpirun, rank 0: counts as `request` says with every rank's threads, rank 0 handing out
/// the frames, biggest first, and alone keeping the checkpoint and the progress line.
count_result count_with_ranks(const count_request& request, dist::count_leader& leader, bool& shown,
                              count_device& where) {
  count_settings settings;
  settings.threads = request.threads;
  settings.checkpoint = request.checkpoint;
  settings.checkpoint_interval = request.checkpoint_interval;
  settings.simd = request.simd;
  settings.stop = &interrupted;
  if (!request.quiet && stderr_is_terminal())
    settings.progress = [&](const count_progress& p) { show_progress(p, shown); };
  // The CPU's frames and their split, so the checkpoint moves to and from a plain count.
  settings.slice_counters = {leader.counter()};
  settings.slice_frames = true;
  settings.slice_size = UINT32_MAX;  // one slice, handed out frame by frame
  count_result result = count_solutions(request.n, settings);
  where.ranks = leader.finish();
  where.name = cpu_model_name();
  result.simd = detail::choose_frame_kernels(request.simd).name;
  // What counted, over every rank: with --device auto, ranks with GPUs and ranks without.
  const auto any = [&](auto has) {
    return std::any_of(where.ranks.begin(), where.ranks.end(), has);
  };
  if (any([](const dist::rank_report& r) { return r.gpus > 0; }))
    where.device = any([](const dist::rank_report& r) { return r.threads > 0; }) ? "all" : "gpu";
  return result;
}

}  // namespace

int run_count(int argc, char** argv) {
  const count_request request = parse_request(argc, argv);
  dist::channel* world = dist::process_world();
  if (!world || world->rank() == 0)
    refuse_shared_outputs({{"-o", request.output.empty() ? "-" : request.output},
                           {"--checkpoint", request.checkpoint}});
  // Under mpirun every rank takes its own GPUs before the start gate: one that has none for
  // --device gpu stops every rank there, with one message. Without --devices, the ranks on one
  // machine split its GPUs.
  std::optional<gpu_engines> rank_gpus;
  if (world) {
    std::vector<int> gpus = choose_gpus(request);
    if (request.devices.empty())
      gpus = dist::local_share_of_gpus(gpus, world->local_rank(), world->local_size());
    rank_gpus.emplace(request.n, gpus);
  }
  if (world && world->rank() != 0) {
    dist::start_together(*world);
    stop_on_signal(&interrupted);
    return serve_as_rank(request, *world, *rank_gpus);
  }
  output_target output(request.output);  // a bad path fails before the count starts
  // Every rank ready (or none starts); from here on, whatever fails, the leader's destructor
  // still ends the other ranks.
  std::optional<dist::count_leader> leader;
  if (world) {
    dist::start_together(*world);
    leader.emplace(*world, request.n, rank_engines_for(request, *rank_gpus), &interrupted);
  }
  // Ctrl-C or a polite kill: stop (the CPU drops its unfinished frames), save the checkpoint,
  // say so.
  stop_on_signal(&interrupted);
  bool shown = false;
  count_device where;
  const count_result result = leader ? count_with_ranks(request, *leader, shown, where)
                                     : count_as_asked(request, &interrupted, shown, where);
  remove_temp_files_on_signal();
  for (const auto& r : where.ranks)
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
    return exit_interrupted;
  }
  output.sink().write(request.json ? json_record(request, result, where).dump() + "\n"
                                   : text_line(request, result, where));
  output.commit();
  // Said once the result is written: a failure to write it is the one line a refusal makes.
  if (where.gpus.empty() && where.ranks.empty() &&
      (request.device == "auto" || request.device == "all") && request.n >= 4 && !request.quiet)
    std::fputs("nqueens count: no CUDA device; counted on the CPU\n", stderr);
  if (result.solutions == 0) {
    std::fprintf(stderr, "nqueens count: no solution exists for n=%d\n", request.n);
    return exit_unsolved;
  }
  return exit_ok;
}

nlohmann::ordered_json count_record(int argc, char** argv, const std::atomic<bool>* stop) {
  const count_request request = parse_request(argc, argv);
  bool shown = false;
  count_device where;
  const count_result result = count_as_asked(request, stop, shown, where);
  nlohmann::ordered_json record = json_record(request, result, where);
  record["complete"] = result.complete;
  return record;
}

}  // namespace nq::cli
