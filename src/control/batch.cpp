// The batch controller over any backend: slices, progress, statistics (the CPU's backend is
// src/cpu/batch_backend.cpp, the GPU's kernels/gpu_backend.cu).

#include "nqueens/batch.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "nqueens/detail/stopwatch.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

constexpr std::uint64_t record_slice = 1 << 20;  // runs per slice with records
constexpr std::uint64_t board_rows = 1 << 24;    // rows per slice when boards are kept (64 MiB)
constexpr std::uint64_t dense_steps = 4096;      // step counts kept in the dense table
constexpr auto progress_period = std::chrono::milliseconds(250);

step_summary summarise(const step_histogram& h) {
  step_summary s;
  s.runs = h.runs();
  if (s.runs == 0) return s;
  s.mean = static_cast<double>(h.sum()) / static_cast<double>(s.runs);
  s.min = h.nth(0);
  s.max = h.nth(s.runs - 1);
  s.median = 0.5 * static_cast<double>(h.nth((s.runs - 1) / 2) + h.nth(s.runs / 2));
  // At p, the runs ranked floor and ceil of p (runs - 1), weighted by the fraction between.
  const auto quantile = [&](std::uint64_t percent) {
    const std::uint64_t scaled = percent * (s.runs - 1);
    const std::uint64_t below = scaled / 100;
    const double low = static_cast<double>(h.nth(below));
    if (scaled % 100 == 0) return low;
    const double high = static_cast<double>(h.nth(below + 1));
    return low + (high - low) * static_cast<double>(scaled % 100) / 100.0;
  };
  s.p25 = quantile(25);
  s.p75 = quantile(75);
  s.p90 = quantile(90);
  return s;
}

}  // namespace

void step_histogram::add(std::uint64_t steps, std::uint64_t runs) {
  runs_ += runs;
  sum_ += steps * runs;
  if (steps < dense_steps) {
    if (dense_.empty()) dense_.resize(dense_steps);
    dense_[steps] += runs;
  } else {
    sparse_[steps] += runs;
  }
}

void step_histogram::merge(const step_histogram& other) {
  runs_ += other.runs_;
  sum_ += other.sum_;
  if (!other.dense_.empty()) {
    if (dense_.empty()) dense_.resize(dense_steps);
    for (std::uint64_t s = 0; s < dense_steps; ++s) dense_[s] += other.dense_[s];
  }
  for (const auto& [steps, count] : other.sparse_) sparse_[steps] += count;
}

std::uint64_t step_histogram::nth(std::uint64_t k) const {
  for (std::uint64_t s = 0; s < dense_.size(); ++s) {
    if (k < dense_[s]) return s;
    k -= dense_[s];
  }
  for (const auto& [steps, count] : sparse_) {
    if (k < count) return steps;
    k -= count;
  }
  return 0;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> step_histogram::counts() const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (std::uint64_t s = 0; s < dense_.size(); ++s)
    if (dense_[s]) out.emplace_back(s, dense_[s]);
  for (const auto& [steps, count] : sparse_) out.emplace_back(steps, count);
  return out;
}

std::pair<double, double> wilson_interval(std::uint64_t successes, std::uint64_t trials) {
  NQ_EXPECTS(trials > 0, "an interval needs trials");
  constexpr double z = 1.959963984540054;
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double half = z / (1 + z * z / n) * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

batch_stats run_batch(index_t n, const local_search_settings& algorithm,
                      const batch_settings& settings, batch_backend& backend) {
  NQ_EXPECTS(settings.runs > 0, "a batch needs runs");
  NQ_EXPECTS(backend.supports(algorithm, n), "the backend does not run this algorithm");
  const detail::stopwatch clock;
  const std::atomic<bool>* stop = settings.limits.stop;
  batch_tally tally;
  double kernel_seconds = 0.0;
  std::vector<chain_outcome> records;
  std::vector<row_t> boards;
  // With a stop, a slice it interrupts counts the runs before the first one it cut short, so
  // that the statistics describe runs 0..k-1, all finished: found in the slice's records, or
  // the slice's tally where the backend tallies only those (a GPU: no record crosses back).
  const bool prefix_tally = stop && backend.tallies_finished_prefix();
  const bool keep_records = settings.on_records || settings.on_boards || (stop && !prefix_tally);
  // Slices of 2^20 runs where records are kept (they are handed over a slice at a time); a
  // backend that tallies the finished prefix takes a stoppable batch whole.
  const std::uint64_t slice =
      settings.slice_runs  ? settings.slice_runs
      : settings.on_boards ? std::max<std::uint64_t>(1, std::min(record_slice, board_rows / n))
      : keep_records       ? record_slice
                           : settings.runs;
  std::uint64_t finished = 0;  // runs 0..finished-1 ran to their end
  bool interrupted = false;
  for (std::uint64_t first = 0; first < settings.runs && !interrupted; first += slice) {
    if (stop && stop->load()) {
      interrupted = true;
      break;
    }
    batch_job job{n,
                  algorithm,
                  settings.seed,
                  settings.first_run + first,
                  std::min(slice, settings.runs - first),
                  settings.limits,
                  settings.stop_after_first_solved};
    const auto progress = [&](std::uint64_t done) {
      if (settings.progress) settings.progress(first + done, clock.seconds());
    };
    batch_tally slice_tally;
    if (settings.stop_after_first_solved && tally.success.runs() != 0) {
      // A run of an earlier slice solved, and every run here is numbered above it: none of
      // them starts, as within a slice.
      chain_outcome stopped;
      stopped.stopped = true;
      slice_tally.failure.add(0, job.count);
      if (keep_records) records.assign(job.count, stopped);
      if (settings.on_boards) boards.assign(job.count * n, 0);
      progress(job.count);
    } else {
      backend.run(job, slice_tally, keep_records ? &records : nullptr, progress,
                  settings.on_boards ? &boards : nullptr);
      kernel_seconds += backend.kernel_seconds();
    }
    std::uint64_t ran = job.count;
    if (stop && stop->load() && !keep_records) {
      ran = slice_tally.success.runs() + slice_tally.failure.runs();
      interrupted = ran < job.count;
    } else if (stop && stop->load()) {
      ran = static_cast<std::uint64_t>(
          std::find_if(records.begin(), records.end(),
                       [](const chain_outcome& r) { return r.interrupted; }) -
          records.begin());
      if (ran < job.count) {
        interrupted = true;
        slice_tally = batch_tally{};
        for (std::uint64_t i = 0; i < ran; ++i) slice_tally.add(records[i]);
      }
    }
    tally.merge(slice_tally);
    finished += ran;
    if (settings.on_records) settings.on_records(job.first, records);
    if (settings.on_boards) settings.on_boards(job.first, records, boards);
  }
  if (settings.tally) *settings.tally = tally;
  batch_stats stats = batch_statistics(tally, finished, interrupted);
  stats.seconds = clock.seconds();
  stats.kernel_seconds = kernel_seconds;
  stats.runs_per_second = static_cast<double>(stats.runs) / std::max(stats.seconds, 1e-9);
  // The CPU's threads, no more than it had chunks of runs for (batch_threads).
  batch_settings sized = settings;
  sized.threads = backend.workers();
  stats.threads = backend.device() == "cpu" ? batch_threads(sized) : backend.workers();
  return stats;
}

batch_stats batch_statistics(const batch_tally& tally, std::uint64_t runs_described,
                             bool interrupted) {
  batch_stats stats;
  stats.runs = runs_described;
  stats.interrupted = interrupted;
  stats.success = summarise(tally.success);
  stats.failure = summarise(tally.failure);
  stats.solved = stats.success.runs;
  const double runs = static_cast<double>(std::max<std::uint64_t>(stats.runs, 1));
  stats.success_rate = static_cast<double>(stats.solved) / runs;
  std::tie(stats.success_low, stats.success_high) =
      stats.runs ? wilson_interval(stats.solved, stats.runs) : std::pair{0.0, 1.0};
  stats.restarts = tally.restarts;
  stats.mean_restarts = static_cast<double>(tally.restarts) / runs;
  return stats;
}

batch_stats run_batch(index_t n, const local_search_settings& algorithm,
                      const batch_settings& settings) {
  const auto backend = make_cpu_backend(batch_threads(settings));
  return run_batch(n, algorithm, settings, *backend);
}

}  // namespace nq
