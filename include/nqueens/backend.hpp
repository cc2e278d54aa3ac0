#pragma once
/// @file
/// @brief Where the runs of a batch execute: the CPU reference (worker threads) or a GPU. For
/// the same (seed, run) both produce the same record; the controller (run_batch) slices the
/// batch, reports progress, and turns the tallies into statistics. No CUDA types here.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nqueens/local_search.hpp"

namespace nq {

/// @brief Step counts of one group of runs, exact: a dense table for small counts, a map above.
/// Mergeable, so tallies from threads, slices or devices add up to the same statistics.
class step_histogram {
 public:
  void add(std::uint64_t steps, std::uint64_t runs = 1);
  void merge(const step_histogram& other);
  std::uint64_t runs() const { return runs_; }
  std::uint64_t sum() const { return sum_; }
  /// The k-th smallest step count (0-based, k < runs()).
  std::uint64_t nth(std::uint64_t k) const;
  /// Every step count with its number of runs, fewest steps first: add() them to another
  /// histogram (one in another process) to rebuild this one.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> counts() const;

 private:
  std::uint64_t runs_ = 0;
  std::uint64_t sum_ = 0;
  std::vector<std::uint64_t> dense_;
  std::map<std::uint64_t, std::uint64_t> sparse_;
};

/// @brief What a slice of runs adds to a batch.
struct batch_tally {
  step_histogram success;  ///< steps of the solved runs
  step_histogram failure;  ///< steps of the unsolved runs
  std::uint64_t restarts = 0;
  void add(const chain_outcome& run) {
    (run.solved ? success : failure).add(run.steps);
    restarts += run.restarts;
  }
  void merge(const batch_tally& other) {
    success.merge(other.success);
    failure.merge(other.failure);
    restarts += other.restarts;
  }
};

/// @brief Runs [first, first + count) of a batch: run i draws from stream (seed, i).
struct batch_job {
  index_t n = 0;
  local_search_settings algorithm;
  std::uint64_t seed = 1;
  std::uint64_t first = 0;
  std::uint64_t count = 0;
  search_limits limits;  ///< per run; max_steps 0 means the algorithm's default
  /// Stop runs once a lower-numbered run has solved (solve --chains): the lowest-numbered run
  /// that solves is then the same as without stopping, and the runs stopped report `stopped`.
  bool stop_after_first_solved = false;
};

/// @brief A place batches run.
class batch_backend {
 public:
  virtual ~batch_backend() = default;
  /// @brief "cpu" or "gpu".
  virtual std::string_view device() const = 0;
  /// @brief The processor's name, e.g. "Intel(R) Xeon(R) ..." or "NVIDIA H100 80GB HBM3".
  virtual std::string device_name() const = 0;
  /// @brief CPU worker threads, or GPU streaming multiprocessors.
  virtual unsigned workers() const = 0;
  /// @brief Whether this backend runs `algorithm` on n queens (the CPU runs everything).
  virtual bool supports(const local_search_settings& algorithm, index_t n) const = 0;
  /// @brief Runs the job, adds it to `tally` and, when `records` is not null, stores the runs'
  /// records in run order (records->size() becomes job.count) and, when `boards` is not null
  /// too, their final boards, n rows a run (those of a run that never started are unspecified).
  /// Once `*job.limits.stop` is set, no more runs start, and the runs in flight end at their
  /// next check (the CPU; the GPU above 32 queens) or run to their end (the GPU up to 32
  /// queens, whose runs are short); a run that ends unsolved once it is set (the stop may have
  /// cut it short), or never starts, is recorded `interrupted` (never started: cost 0,
  /// unsolved). `progress` (may be empty) hears the
  /// runs finished so far, from the calling thread, a few times a second.
  virtual void run(const batch_job& job, batch_tally& tally, std::vector<chain_outcome>* records,
                   const std::function<void(std::uint64_t done)>& progress,
                   std::vector<row_t>* boards) = 0;
  /// @brief Runs run `stream` of `seed` alone, as `solve --chain` does on the CPU: its record,
  /// its final board (n rows, into `board`) and, when `trace` is not empty, its trace (on a
  /// GPU the rows come after the run, without the board). `limits.stop` ends it at its next
  /// check.
  virtual chain_outcome run_alone(index_t n, const local_search_settings& algorithm,
                                  std::uint64_t seed, std::uint64_t stream,
                                  const search_limits& limits, std::vector<row_t>& board,
                                  const trace_fn& trace) = 0;
  /// @brief Whether run() without records, once `*job.limits.stop` is set, tallies only the
  /// runs before the first one the stop cut short or kept from starting: then the tally's runs
  /// are the finished prefix, and a stoppable batch needs no per-run records to describe it.
  /// The GPU takes runs in order and, up to 32 queens, runs every run it took to its end, so
  /// the runs it ran are the first ones (above, it drops the launch the stop reaches whole); the
  /// CPU's workers interleave and cut their runs short, so it needs the records.
  virtual bool tallies_finished_prefix() const { return false; }
  /// @brief Seconds the device spent in the chain kernels during the last run() (CUDA events);
  /// 0 on the CPU, where there is no separate device time.
  virtual double kernel_seconds() const { return 0.0; }
  /// @brief How the device lays out a job of `runs` runs (the GPU's ga and beam:
  /// "block_per_run" or "whole_grid"); empty where there is no choice.
  virtual std::string layout(const local_search_settings& algorithm, index_t n,
                             std::uint64_t runs) const {
    (void)algorithm, (void)n, (void)runs;
    return {};
  }
};

/// @brief The CPU reference backend: `threads` workers (0: every hardware thread) pulling
/// chunks of runs from a shared counter.
std::unique_ptr<batch_backend> make_cpu_backend(unsigned threads);

}  // namespace nq
