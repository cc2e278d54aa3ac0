#pragma once
// Block-per-run population searches (ga and beam), for the code that launches them (the
// backend, gpu::run_population_runs): what one launch runs, and where a run keeps its
// population.

#include <atomic>

#include "kernels/chains.cuh"
#include "kernels/gpu.hpp"

namespace nq::cuda {

/// A generation's summary, the only thing a run sends back per generation: its best cost and
/// the fitness summed over its population (the trace's best and mean fitness).
struct generation_summary {
  std::uint64_t best_cost;
  std::uint64_t fitness_sum;
};

/// One launch of population runs: `job` as for the chains (its first_solved is ignored, as the
/// CPU's population searches ignore it); pointers are device (or mapped) memory.
struct population_launch {
  chain_launch job;  ///< settings.genetic.population resolved (not 0)
  /// count = 1 only: job.max_steps + 1 summaries (the start, then each generation), or null.
  generation_summary* history = nullptr;
  /// Mapped: raised to stop every run at its next generation, or null (set by the launcher).
  const unsigned* stop = nullptr;
  gpu::population_shape shape = gpu::population_shape::automatic;
};

/// Bytes of a run's workspace that block-per-run keeps in shared memory (past them, global).
inline constexpr std::uint64_t population_shared_budget = 160 * 1024;  // an A100's opt-in too
/// The automatic shape takes the whole grid for launches of fewer runs than this (about one
/// block per multiprocessor of an H100) whose runs do not fit in shared memory.
inline constexpr std::uint64_t whole_grid_below_runs = 128;

/// Whether ga or beam on n queens with these settings runs block-per-run on the GPU.
bool has_population_run(const local_search_settings& settings, index_t n);

/// Bytes of workspace one run takes: its two populations (or beams), costs, parents or
/// successor keys, and each thread's line counters.
std::uint64_t population_run_bytes(const local_search_settings& settings, index_t n);

/// Runs one launch may hold (the workspace of those that do not fit in shared memory is
/// global scratch, within a budget).
std::uint64_t max_population_runs_per_launch(const local_search_settings& settings, index_t n);

/// Whether `launch` runs whole-grid (one run at a time, the grid on its population or beam)
/// rather than one block per run.
bool whole_grid_population(const population_launch& launch);

/// Runs run job.first + slot of `launch` whole-grid and waits for it: outcome `slot` and, when
/// job.boards is not null, its best board, exactly as the CPU's genetic_search. The device
/// checks the stop (raised from `*stop` while the host waits) and the time limit after every
/// generation (grid_control.cuh). ga only (population_grid.cu).
void run_whole_grid(const population_launch& launch, std::uint64_t slot,
                    const std::atomic<bool>* stop);

/// The same for beam (beam_grid.cu): outcome `slot`, its best board and its history exactly as
/// the CPU's beam_search of the same (seed, run), plain or stochastic.
void run_whole_grid_beam(const population_launch& launch, std::uint64_t slot,
                         const std::atomic<bool>* stop);

/// Launches `launch` one block per run (on the default stream) and waits for it: outcome i and,
/// when job.boards is not null, the best board of run job.first + i, exactly as the CPU's
/// genetic_search or beam_search of the same (seed, run). Once `*stop` is set (polled every
/// millisecond), every run stops at its next generation, `stopped`.
void launch_population_runs(const population_launch& launch,
                            const std::atomic<bool>* stop = nullptr);

}  // namespace nq::cuda
