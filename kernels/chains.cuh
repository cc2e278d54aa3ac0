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
  /// count = 1 only: the run's trace, the chain_state of the start and of each step and
  /// restart (the CPU observer's calls), the first trace_capacity kept; or null.
  chain_state* trace = nullptr;
  std::uint64_t trace_capacity = 0;
  unsigned long long* trace_rows = nullptr;  ///< with trace: counts every row, kept or not
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

/// Appends `row` to the traced chain's trace (a single chain: one thread writes it).
NQ_HD inline void record_trace_row(const chain_launch& job, const chain_state& row) {
  const unsigned long long at = (*job.trace_rows)++;
  if (at < job.trace_capacity) job.trace[at] = row;
}

}  // namespace nq::cuda
