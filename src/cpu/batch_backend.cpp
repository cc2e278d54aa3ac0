// The CPU's batch backend: worker threads pulling chunks of runs from a shared counter.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "core/machine.hpp"
#include "core/worker_threads.hpp"
#include "nqueens/batch.hpp"
#include "nqueens/error.hpp"

namespace nq {
namespace {

constexpr std::uint64_t chunk_runs = 256;        // runs a CPU worker claims at a time

/// Worker threads for `runs` runs: `threads`, but no more than there are chunks of work.
unsigned threads_for(std::uint64_t threads, std::uint64_t runs) {
  const std::uint64_t chunks = std::max<std::uint64_t>(1, (runs + chunk_runs - 1) / chunk_runs);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(threads, 1, chunks));
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

std::unique_ptr<batch_backend> make_cpu_backend(unsigned threads) {
  return std::make_unique<cpu_backend>(threads);
}

unsigned batch_threads(const batch_settings& settings) {
  const unsigned threads =
      settings.threads ? settings.threads : std::max(1u, std::thread::hardware_concurrency());
  return threads_for(threads, settings.runs);
}

}  // namespace nq
