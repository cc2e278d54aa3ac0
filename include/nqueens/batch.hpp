#pragma once
/// @file
/// @brief Batches of independent local-search runs on CPU threads, and their statistics. Run i
/// draws from stream (seed, i), so every figure but the timings is the same for any number of
/// threads. Host-side API.

#include <functional>

#include "nqueens/backend.hpp"

namespace nq {

/// @brief How a batch is run.
struct batch_settings {
  std::uint64_t runs = 1000;  ///< independent runs
  unsigned threads = 0;       ///< worker threads; 0 means every hardware thread
  std::uint64_t seed = 1;     ///< run i uses stream (seed, i)
  search_limits limits;       ///< per run; max_steps 0 means the algorithm's default
  /// Called from the calling thread about four times a second: runs finished, seconds so far.
  std::function<void(std::uint64_t done, double seconds)> progress;
  /// When set, receives every run's record, in run order, a slice at a time: the first run's
  /// index, then the records. Once the stop is set, the runs it cut short or kept from starting
  /// are `interrupted`, and the last slice is the one it interrupted.
  std::function<void(std::uint64_t first, const std::vector<chain_outcome>& runs)> on_records;
  /// When set, receives the same records with the runs' final boards, n rows a run (see
  /// batch_backend::run); slices then hold at most 2^24 rows.
  std::function<void(std::uint64_t first, const std::vector<chain_outcome>& runs,
                     const std::vector<row_t>& boards)>
      on_boards;
  /// Stop runs once a lower-numbered run has solved (see batch_job); the statistics then
  /// describe a race, not independent runs.
  bool stop_after_first_solved = false;
  /// Runs per backend call: 0 means all at once, or 2^20 when records are kept.
  std::uint64_t slice_runs = 0;
  /// The first run's number: this batch is runs first_run..first_run + runs - 1 of a larger
  /// one (a rank's share under mpirun); records and streams use these numbers.
  std::uint64_t first_run = 0;
  /// When set, receives the tally of the runs the statistics describe, so that the shares of a
  /// batch run elsewhere add up to the statistics of the whole (batch_statistics).
  batch_tally* tally = nullptr;
};

/// @brief Steps of a group of runs (the successes, or the failures).
struct step_summary {
  std::uint64_t runs = 0;
  double mean = 0.0;    ///< 0 when there are no runs
  double median = 0.0;  ///< the middle value, or the mean of the two middle values
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  /// Quantiles, interpolated between the two nearest runs as numpy.quantile's default does
  /// (median is p50 so too); 0 when there are no runs.
  double p25 = 0.0;
  double p75 = 0.0;
  double p90 = 0.0;
};

/// @brief What a batch found.
struct batch_stats {
  /// The runs described: all of them, or when `*limits.stop` interrupted the batch, runs
  /// 0..runs-1, the longest prefix that finished (the runs it cut short are left out, so that
  /// the rates are not biased towards short runs).
  std::uint64_t runs = 0;
  bool interrupted = false;  ///< the stop ended the batch before its last run
  std::uint64_t solved = 0;
  double success_rate = 0.0;
  double success_low = 0.0;  ///< 95% Wilson score interval
  double success_high = 0.0;
  step_summary success;        ///< steps of the solved runs
  step_summary failure;        ///< steps of the unsolved runs
  std::uint64_t restarts = 0;  ///< over all runs
  double mean_restarts = 0.0;
  double seconds = 0.0;         ///< wall time of the whole batch
  double kernel_seconds = 0.0;  ///< GPU: time in the chain kernels (CUDA events); CPU: 0
  double runs_per_second = 0.0;
  unsigned threads = 0;
};

/// @brief The worker threads the CPU backend uses for a batch: the setting (or every hardware
/// thread), but no more than there are chunks of work.
unsigned batch_threads(const batch_settings& settings);

/// @brief Runs `settings.runs` independent runs of one algorithm on n queens (n >= 4, or 1)
/// on `backend` (which must support them) and summarises them. `threads` in the result is the
/// backend's workers.
batch_stats run_batch(index_t n, const local_search_settings& algorithm,
                      const batch_settings& settings, batch_backend& backend);

/// @brief The same on the CPU backend with `settings.threads` workers.
batch_stats run_batch(index_t n, const local_search_settings& algorithm,
                      const batch_settings& settings);

/// @brief The statistics of `runs` runs whose tally is `tally` (all but the timings and
/// threads, which stay 0): success rate and interval, steps, restarts; `interrupted` as given.
batch_stats batch_statistics(const batch_tally& tally, std::uint64_t runs, bool interrupted);

/// @brief The 95% Wilson score interval for `successes` out of `trials` (trials > 0).
std::pair<double, double> wilson_interval(std::uint64_t successes, std::uint64_t trials);

}  // namespace nq
