// The count shared by ranks (under mpirun): each rank counts with its own GPUs and threads,
// rank 0 hands out the frames, biggest first, and alone keeps the checkpoint and the progress.

#include <algorithm>

#include "cluster/count_cluster.hpp"
#include "cluster/start_gate.hpp"
#include "core/machine.hpp"
#include "cpu/frame_engine.hpp"
#include "engine/count_engines.hpp"
#include "engine/rank_work.hpp"
#include "engine/stop_bridge.hpp"

namespace nq::engine {
namespace {

/// What this rank counts with: its GPUs as a count on one machine would take them (choose_gpus:
/// auto takes them when there are any), and its CPU threads unless its GPUs count alone (gpu,
/// or auto with GPUs); all: both.
cluster::rank_engines rank_engines_for(const count_request& request, const gpu_engines& gpus) {
  cluster::rank_engines engines;
  engines.gpus = gpus.counters();
  engines.threads = gpus.empty() || request.device.kind == device_kind::all ? request.threads : 0;
  engines.simd = request.simd;
  return engines;
}

/// Rank 0: counts as `request` says with every rank's threads.
count_report lead_count(const count_request& request, cluster::count_leader& leader,
                        std::atomic<bool>* stop) {
  count_settings settings;
  settings.threads = request.threads;
  settings.checkpoint = request.checkpoint;
  settings.checkpoint_interval = request.checkpoint_interval;
  settings.simd = request.simd;
  settings.stop = stop;
  settings.progress = request.progress;
  // The CPU's frames and their split, so the checkpoint moves to and from a plain count.
  settings.slice_counters = {leader.counter()};
  settings.slice_frames = true;
  settings.slice_size = UINT32_MAX;  // one slice, handed out frame by frame
  count_report report;
  report.n = request.n;
  report.unique = request.unique;
  report.result = count_solutions(request.n, settings);
  report.by_rank = leader.finish();
  report.device_name = cpu_model_name();
  report.result.simd = detail::choose_frame_kernels(request.simd).name;
  // What counted, over every rank: with --device auto, ranks with GPUs and ranks without.
  const auto& ranks = report.by_rank;
  const auto any = [&](auto has) { return std::any_of(ranks.begin(), ranks.end(), has); };
  if (any([](const count_rank& r) { return r.gpus > 0; }))
    report.device = any([](const count_rank& r) { return r.threads > 0; }) ? "all" : "gpu";
  return report;
}

}  // namespace

count_report count_with_ranks(const count_request& request) {
  cluster::channel& world = *request.ranks.world;
  // Every rank takes its own GPUs before the start gate: one that has none for --device gpu
  // stops every rank there, with one message. Without device ids, the ranks on one machine
  // split its GPUs.
  std::vector<int> gpus = choose_gpus(request);
  if (request.device.ids.empty())
    gpus = cluster::local_share_of_gpus(gpus, world.local_rank(), world.local_size());
  const gpu_engines engines(request.n, gpus);
  if (request.ready) request.ready();
  cluster::start_together(world);  // every rank ready, or none starts
  const stop_bridge stop(request.stop);
  if (world.rank() != 0) {
    // A failure here would leave rank 0 waiting for frames that never come.
    shared_work(request.ranks, [&] {
      cluster::serve_count(world, request.n, rank_engines_for(request, engines), stop.flag());
    });
    count_report report;
    report.n = request.n;
    return report;
  }
  // From here on, whatever fails, the leader's destructor still ends the other ranks.
  cluster::count_leader leader(world, request.n, rank_engines_for(request, engines), stop.flag());
  return lead_count(request, leader, stop.flag());
}

void add_rank_fields(const count_report& report, nlohmann::ordered_json& record) {
  std::uint64_t threads = 0;
  for (const auto& r : report.by_rank) threads += r.threads;
  record["threads"] = threads;
  for (const char* key :
       {"devices", "kernel_seconds", "subproblems_by_device", "subproblems_on_cpu"})
    record.erase(key);
  record["ranks"] = report.by_rank.size();
  nlohmann::ordered_json by_rank = nlohmann::ordered_json::array();
  for (const auto& r : report.by_rank) {
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
}

}  // namespace nq::engine
