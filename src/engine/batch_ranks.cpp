// A batch where its request says: in this process, or shared by ranks (under mpirun), rank r
// running a contiguous share of the runs and rank 0 merging the shares' tallies.

#include <algorithm>

#include "cluster/batch_share.hpp"
#include "nqueens/detail/stopwatch.hpp"
#include "engine/batch_job.hpp"

namespace nq::engine {
namespace {

/// This rank's share of the runs, the same (seed, run) streams as one process; rank 0 merges
/// the shares' tallies (and hands every rank's records to on_records), then tells every rank
/// whether to go on.
batch_outcome run_share(const batch_request& request, const local_search_settings& algorithm,
                        batch_settings settings, batch_backend& backend) {
  cluster::channel& world = *request.ranks.world;
  const bool leader = world.rank() == 0;
  const cluster::run_share share = cluster::share_of(settings.runs, world.rank(), world.size());
  const detail::stopwatch clock;
  cluster::batch_part part;
  part.requested = share.count;
  std::vector<std::uint64_t> my_records;
  const auto on_records = settings.on_records;
  if (share.count > 0) {
    // The progress is rank 0's share, scaled to the whole.
    const auto progress = settings.progress;
    settings.progress = nullptr;
    if (leader && progress)
      settings.progress = [&, total = settings.runs](std::uint64_t done, double seconds) {
        progress(done * total / share.count, seconds);
      };
    settings.first_run = share.first;
    settings.runs = share.count;
    settings.tally = &part.tally;
    if (on_records && !leader)
      settings.on_records = [&](std::uint64_t, const std::vector<chain_outcome>& runs) {
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
  const std::vector<cluster::batch_part> parts =
      cluster::gather_parts(world, part, my_records, on_records);
  if (leader) {
    out.stats = cluster::merge_parts(parts);
    out.stats.seconds = clock.seconds();
    out.stats.runs_per_second =
        static_cast<double>(out.stats.runs) / std::max(out.stats.seconds, 1e-9);
    for (const auto& p : parts) {
      out.stats.threads += p.threads;
      out.stats.kernel_seconds += p.kernel_seconds;
      out.by_rank.push_back(batch_rank{p.runs, p.seconds, p.threads});
    }
  }
  const std::atomic<bool>* stop = settings.limits.stop;
  out.stopped = !cluster::agree(world, !(out.stats.interrupted || (stop && stop->load())));
  return out;
}

}  // namespace

batch_outcome run_where(const batch_request& request, const local_search_settings& algorithm,
                        batch_settings settings, batch_backend& backend) {
  if (request.ranks.world) return run_share(request, algorithm, std::move(settings), backend);
  batch_outcome out;
  out.stats = run_batch(request.n, algorithm, settings, backend);
  const std::atomic<bool>* stop = settings.limits.stop;
  out.stopped = out.stats.interrupted || (stop && stop->load());
  return out;
}

}  // namespace nq::engine
