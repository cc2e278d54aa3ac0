#include "nqueens/batch.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "core/stopwatch.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

constexpr std::uint64_t chunk_runs = 256;  // runs a worker claims at a time
constexpr std::uint64_t dense_steps = 4096;

/// Step counts of one group of runs: exact, in a dense table for small counts and a map above.
class step_histogram {
 public:
  void add(std::uint64_t steps) {
    ++runs_;
    sum_ += steps;
    if (steps < dense_steps) {
      if (dense_.empty()) dense_.resize(dense_steps);
      ++dense_[steps];
    } else {
      ++sparse_[steps];
    }
  }

  void merge(const step_histogram& other) {
    runs_ += other.runs_;
    sum_ += other.sum_;
    if (!other.dense_.empty()) {
      if (dense_.empty()) dense_.resize(dense_steps);
      for (std::uint64_t s = 0; s < dense_steps; ++s) dense_[s] += other.dense_[s];
    }
    for (const auto& [steps, count] : other.sparse_) sparse_[steps] += count;
  }

  step_summary summary() const {
    step_summary s;
    s.runs = runs_;
    if (runs_ == 0) return s;
    s.mean = static_cast<double>(sum_) / static_cast<double>(runs_);
    s.min = nth(0);
    s.max = nth(runs_ - 1);
    s.median = 0.5 * static_cast<double>(nth((runs_ - 1) / 2) + nth(runs_ / 2));
    return s;
  }

 private:
  /// The k-th smallest step count (0-based).
  std::uint64_t nth(std::uint64_t k) const {
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

  std::uint64_t runs_ = 0;
  std::uint64_t sum_ = 0;
  std::vector<std::uint64_t> dense_;
  std::map<std::uint64_t, std::uint64_t> sparse_;
};

struct tally {
  step_histogram success, failure;
  std::uint64_t restarts = 0;
};

}  // namespace

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
      settings.threads ? settings.threads : std::thread::hardware_concurrency();
  return static_cast<unsigned>(std::clamp<std::uint64_t>(
      threads, 1, std::max<std::uint64_t>(1, (settings.runs + chunk_runs - 1) / chunk_runs)));
}

batch_stats run_batch(index_t n, const local_search_settings& algorithm,
                      const batch_settings& settings) {
  NQ_EXPECTS(settings.runs > 0, "a batch needs runs");
  const detail::stopwatch clock;
  const unsigned threads = batch_threads(settings);
  std::vector<tally> tallies(threads);
  std::atomic<std::uint64_t> next{0}, done{0};
  std::mutex mutex;
  std::condition_variable finished;
  unsigned active = threads;
  std::exception_ptr failure;

  const auto work = [&](unsigned t) {
    try {
      local_workspace workspace(n, algorithm);
      local_run run;
      run.seed = settings.seed;
      run.limits = settings.limits;
      for (;;) {
        const std::uint64_t first = next.fetch_add(chunk_runs);
        if (first >= settings.runs) break;
        const std::uint64_t last = std::min(settings.runs, first + chunk_runs);
        for (std::uint64_t i = first; i < last; ++i) {
          run.stream = i;
          const chain_outcome out = workspace.run(run);
          (out.solved ? tallies[t].success : tallies[t].failure).add(out.steps);
          tallies[t].restarts += out.restarts;
        }
        done.fetch_add(last - first, std::memory_order_relaxed);
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      next.store(settings.runs);  // the others stop at their next claim
    }
    const std::lock_guard lock(mutex);
    if (--active == 0) finished.notify_all();
  };

  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) workers.emplace_back(work, t);
  {
    std::unique_lock lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(250), [&] { return active == 0; }))
      if (settings.progress) {
        lock.unlock();
        settings.progress(done.load(), clock.seconds());
        lock.lock();
      }
  }
  for (auto& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);

  tally total;
  for (const tally& t : tallies) {
    total.success.merge(t.success);
    total.failure.merge(t.failure);
    total.restarts += t.restarts;
  }
  batch_stats stats;
  stats.runs = settings.runs;
  stats.success = total.success.summary();
  stats.failure = total.failure.summary();
  stats.solved = stats.success.runs;
  stats.success_rate = static_cast<double>(stats.solved) / static_cast<double>(stats.runs);
  std::tie(stats.success_low, stats.success_high) = wilson_interval(stats.solved, stats.runs);
  stats.restarts = total.restarts;
  stats.mean_restarts = static_cast<double>(total.restarts) / static_cast<double>(stats.runs);
  stats.seconds = clock.seconds();
  stats.runs_per_second = static_cast<double>(stats.runs) / std::max(stats.seconds, 1e-9);
  stats.threads = threads;
  return stats;
}

}  // namespace nq
