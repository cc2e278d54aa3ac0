#pragma once
// The chain kernels, for the code that launches them (chains.cu, the backend): what one launch
// runs, and where each chain keeps its board.

#include <atomic>

#include "nqueens/local_search.hpp"

namespace nq::cuda {

/// One launch of chains: runs [first, first + count), run r drawing from stream (seed, r).
/// Pointers are device memory.
struct chain_launch {
  index_t n = 0;
  local_search_settings settings;
  std::uint64_t seed = 1;
  std::uint64_t first = 0;
  std::uint64_t count = 0;
  std::uint64_t max_steps = 0;      ///< resolved: 0 only for the algorithms that stop by themselves
  std::uint64_t time_limit_ns = 0;  ///< per run, as on the CPU; 0: none
  chain_outcome* outcomes = nullptr;  ///< count outcomes
  row_t* boards = nullptr;            ///< count * n rows, or null; a run not started leaves its
                                      ///< rows as they were
  /// The lowest-numbered run known to have solved (~0 at first), or null for no race: a run
  /// stops once a lower-numbered run has solved, and a solving run lowers it.
  unsigned long long* first_solved = nullptr;
  /// Mapped: raised to stop every run at its next check (every 1024 steps), or null.
  const unsigned* stop = nullptr;
  /// Whether a run also reads `stop` as it starts (and does not start once it is raised): not
  /// where chain_claims' stop keeps runs from starting, which spares a read of host memory a
  /// run.
  bool stop_at_start = true;
  /// count = 1 only: the run's trace, the chain_state of the start and of each step and
  /// restart (the CPU observer's calls), the first trace_capacity kept; or null.
  chain_state* trace = nullptr;
  std::uint64_t trace_capacity = 0;
  unsigned long long* trace_rows = nullptr;  ///< with trace: counts every row, kept or not
};

/// Where a batch's runs are tallied on the device (batch_tally's figures), so that the host
/// reads kilobytes whatever the runs: runs by (steps, solved) in dense bins, the steps past the
/// bins in a list, the restarts summed. One allocation of words, laid out as below and zeroed
/// (its head and bins) before each launch; the host reads the head after the launch, the bins
/// past head_steps when a run reached them, and the list when it holds keys.
struct device_tally {
  /// Steps whose bins come back with the head; a run with more raises most_steps.
  static constexpr std::uint64_t head_steps = 256;
  /// Words before the bins: restarts, runs claimed, most steps (of runs past head_steps),
  /// runs past the bins, a lane saw the host's stop.
  static constexpr std::uint64_t head_words = 5;
  enum word : unsigned { restarts, claimed, most_steps, past_bins, stopping };
  unsigned long long* words = nullptr;  ///< head_words, then bins[2 * steps + solved]
  std::uint64_t bin_steps = 0;          ///< steps the bins hold: 0..bin_steps-1 (>= head_steps)
  unsigned long long* past = nullptr;   ///< keys (solved << 63 | steps) of the runs past the bins
  std::uint64_t past_capacity = 0;

  NQ_HD unsigned long long* bins() const { return words + head_words; }
  /// Words the head and the bins take, zeroed before a launch.
  NQ_HD std::uint64_t zeroed_words() const { return head_words + 2 * bin_steps; }
  /// Words the host reads after every launch: the head and the bins below head_steps.
  static constexpr std::uint64_t head_read_words = head_words + 2 * head_steps;
};

/// How a launch's lanes take runs: `chunk` at a time from `counter`, in order; with `stop`,
/// no more once the host raises it (the runs taken still run to their end, so the runs that
/// ran are exactly the first ones). Every check_runs runs taken, one lane reads the host's
/// stop and publishes the runs taken to `progress`.
struct chain_claims {
  static constexpr std::uint64_t check_runs = 4096;
  unsigned long long* counter = nullptr;   ///< device: runs taken so far (zeroed before)
  const unsigned* stop = nullptr;          ///< mapped: raised by the host, or null
  unsigned long long* stopping = nullptr;  ///< device: a lane has seen the stop (with stop)
  unsigned long long* progress = nullptr;  ///< mapped: runs taken so far, or null
  std::uint32_t chunk = 1;                 ///< divides check_runs
};

/// Whether a thread-per-run or block-per-run chain exists for the algorithm on n queens.
bool has_thread_chain(const local_search_settings& settings, index_t n);

/// Bytes of global scratch one thread of the thread-per-run chains on n > 32 queens takes (a
/// board it reuses for each run it takes): its rows, then its three 16-bit line families,
/// padded so that the next thread's rows start 16-byte aligned.
NQ_HD constexpr std::uint64_t scratch_per_chain(std::uint64_t n) {
  const std::uint64_t bytes = n * sizeof(row_t) + (n + 2 * (2 * n - 1)) * sizeof(std::int16_t);
  return (bytes + 15) / 16 * 16;
}

/// Runs one launch may hold: 2^24 up to 32 queens; above, as many as a board each would fit in
/// the scratch budget, so that a stop (which drops the launch it reaches) loses little. The
/// scratch itself is per persistent thread, not per run.
std::uint64_t max_chains_per_launch(index_t n);

/// Launches `job` on the default stream: persistent threads taking runs from a counter, or
/// block-per-run chains for hc, hc-sideways and hc-restart on 33..8192. The thread chains wait
/// for the chains (their counter and scratch are the launch's own).
/// With `stop`, it waits for the chains, raising job.stop (which it sets) once `*stop` is set.
void launch_thread_chains(const chain_launch& job, const std::atomic<bool>* stop = nullptr);

/// Launches the thread-per-run chains of `job` (not block chains: has_block_chain false) as one
/// persistent grid on the default stream, each run tallied into `tally` (when its words are not
/// null) and, when job.outcomes is not null, its outcome stored; returns before the runs end.
/// The caller zeroes the claims' counter and stopping word and the tally's head and bins first
/// (device_tally::zeroed_words), and keeps them and `scratch` (chain_scratch_bytes(job) bytes,
/// null when that is 0) until the grid ends.
void launch_chain_runs(const chain_launch& job, const chain_claims& claims,
                       const device_tally& tally, unsigned char* scratch);

/// launch_chain_runs for hc, hc-sideways, hc-restart, sa and random on 4..16 queens with their
/// chains in registers (register_chains.cu), where register_chain_eligible(job) (chain_runs.cuh).
void launch_register_runs(const chain_launch& job, const chain_claims& claims,
                          const device_tally& tally);

/// Bytes of global scratch launch_chain_runs needs for `job`: a board a resident thread above
/// 32 queens, within 2 GiB; 0 up to 32, where the boards are the threads' own.
std::uint64_t chain_scratch_bytes(const chain_launch& job);

/// Launches a tally of `count` outcomes (a block chain's or a population run's) into `tally`.
void launch_outcome_tally(const chain_outcome* outcomes, std::uint64_t count,
                          const device_tally& tally);

/// Appends `row` to the traced chain's trace (a single chain: one thread writes it).
NQ_HD inline void record_trace_row(const chain_launch& job, const chain_state& row) {
  const unsigned long long at = (*job.trace_rows)++;
  if (at < job.trace_capacity) job.trace[at] = row;
}

}  // namespace nq::cuda
