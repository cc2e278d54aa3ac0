// The batch controller (slices, progress, statistics) and the CPU backend (worker threads
// pulling chunks of runs from a shared counter).

#include "nqueens/batch.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "core/machine.hpp"
#include "core/stopwatch.hpp"
#include "core/worker_threads.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

constexpr std::uint64_t chunk_runs = 256;        // runs a CPU worker claims at a time
constexpr std::uint64_t record_slice = 1 << 20;  // runs per slice with records
constexpr std::uint64_t board_rows = 1 << 24;    // rows per slice when boards are kept (64 MiB)
constexpr std::uint64_t dense_steps = 4096;      // step counts kept in the dense table
/// Worker threads for `runs` runs: `threads`, but no more than there are chunks of work.
unsigned threads_for(std::uint64_t threads, std::uint64_t runs) {
  const std::uint64_t chunks = std::max<std::uint64_t>(1, (runs + chunk_runs - 1) / chunk_runs);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(threads, 1, chunks));
}

constexpr auto progress_period = std::chrono::milliseconds(250);

step_summary summarise(const step_histogram& h) {
  step_summary s;
  s.runs = h.runs();
  if (s.runs == 0) return s;
  s.mean = static_cast<double>(h.sum()) / static_cast<double>(s.runs);
  s.min = h.nth(0);
  s.max = h.nth(s.runs - 1);
  s.median = 0.5 * static_cast<double>(h.nth((s.runs - 1) / 2) + h.nth(s.runs / 2));
  return s;
}

class cpu_backend final : public batch_backend {
 public:
  explicit cpu_backend(unsigned threads)
      : threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

  std::string_view device() const override { return "cpu"; }
  std::string device_name() const override { return cpu_model_name(); }
  unsigned workers() const override { return threads_; }
  bool supports(const local_search_settings& algorithm, index_t n) const override {
    return n >= 1 && n <= max_local_n(algorithm.algorithm);
  }

  void run(const batch_job& job, batch_tally& tally, std::vector<chain_outcome>* records,
           const std::function<void(std::uint64_t)>& progress,
           std::vector<row_t>* boards) override {
    // Every run is "never started" until it has run.
    chain_outcome not_started;
    not_started.stopped = not_started.interrupted = true;
    if (records) records->assign(job.count, not_started);
    if (records && boards) boards->assign(job.count * job.n, 0);
    const std::atomic<bool>* stop = job.limits.stop;
    const unsigned threads = threads_for(threads_, job.count);
    std::vector<batch_tally> tallies(threads);
    std::atomic<std::uint64_t> next{0}, done{0};
    std::atomic<std::uint64_t> first_solved{UINT64_MAX};  // lowest run solved (early stop)
    std::mutex mutex;
    std::condition_variable finished;
    unsigned active = threads;
    std::exception_ptr failure;

    const auto work = [&](unsigned t) {
      try {
        local_workspace workspace(job.n, job.algorithm);
        local_run run;
        run.seed = job.seed;
        run.limits = job.limits;
        if (job.stop_after_first_solved) run.first_solved = &first_solved;
        for (;;) {
          if (job.limits.stop && job.limits.stop->load(std::memory_order_relaxed)) break;
          const std::uint64_t begin = next.fetch_add(chunk_runs);
          if (begin >= job.count) break;
          const std::uint64_t end = std::min(job.count, begin + chunk_runs);
          for (std::uint64_t i = begin; i < end; ++i) {
            if (stop && stop->load(std::memory_order_relaxed)) break;  // the rest never start
            run.stream = job.first + i;
            chain_outcome out;
            if (job.stop_after_first_solved && first_solved.load() < run.stream) {
              out.stopped = true;  // a lower-numbered run solved first: not started
            } else {
              out = workspace.run(run);
              // Unsolved once the stop is up: it may have cut this run short.
              out.interrupted = !out.solved && stop && stop->load();
              if (records && boards)
                std::copy(workspace.board(), workspace.board() + job.n,
                          boards->begin() + static_cast<std::ptrdiff_t>(i * job.n));
              if (out.solved && job.stop_after_first_solved) {
                std::uint64_t seen = first_solved.load();
                while (run.stream < seen && !first_solved.compare_exchange_weak(seen, run.stream)) {
                }
              }
            }
            tallies[t].add(out);
            if (records) (*records)[i] = out;
          }
          done.fetch_add(end - begin, std::memory_order_relaxed);
        }
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        next.store(job.count);  // the others stop at their next claim
      }
      const std::lock_guard lock(mutex);
      if (--active == 0) finished.notify_all();
    };

    detail::worker_threads workers(threads, work);
    {
      std::unique_lock lock(mutex);
      while (!finished.wait_for(lock, progress_period, [&] { return active == 0; }))
        if (progress) {
          lock.unlock();
          progress(done.load());
          lock.lock();
        }
    }
    workers.join();
    if (failure) std::rethrow_exception(failure);
    for (const batch_tally& t : tallies) tally.merge(t);
  }

  chain_outcome run_alone(index_t n, const local_search_settings& algorithm, std::uint64_t seed,
                          std::uint64_t stream, const search_limits& limits,
                          std::vector<row_t>& board, const trace_fn& trace) override {
    local_workspace workspace(n, algorithm);
    local_run run;
    run.seed = seed;
    run.stream = stream;
    run.limits = limits;
    run.trace = trace;
    const chain_outcome out = workspace.run(run);
    board.assign(workspace.board(), workspace.board() + n);
    return out;
  }

 private:
  unsigned threads_;
};

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

std::unique_ptr<batch_backend> make_cpu_backend(unsigned threads) {
  return std::make_unique<cpu_backend>(threads);
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

unsigned batch_threads(const batch_settings& settings) {
  const unsigned threads =
      settings.threads ? settings.threads : std::max(1u, std::thread::hardware_concurrency());
  return threads_for(threads, settings.runs);
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
  stats.threads =
      backend.device() == "cpu" ? threads_for(backend.workers(), settings.runs) : backend.workers();
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
