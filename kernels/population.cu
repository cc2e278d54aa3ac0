// Block-per-run ga and beam: a block holds one run's population (in shared memory when it fits,
// else in its slice of global scratch) and breeds or scores it generation by generation, its
// threads in parallel, drawing from the streams keyed by (seed, run, generation, individual) that
// the CPU reference draws from (nqueens/detail/population.hpp). Only a summary per generation leaves
// the block, and only when a trace asks for it.
// The bodies are ga_runs.cuh and beam_runs.cuh, with what they share in population_runs.cuh;
// this file sizes the runs, launches them and serves gpu::run_population_runs.

#include <atomic>

#include "kernels/beam_runs.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/ga_runs.cuh"
#include "kernels/gpu.hpp"
#include "kernels/population.cuh"
#include "kernels/population_runs.cuh"
#include "nqueens/error.hpp"
#include "nqueens/detail/population.hpp"

namespace nq::cuda {
namespace {

constexpr std::uint64_t scratch_budget = std::uint64_t{2} << 30;
constexpr std::uint64_t most_runs = std::uint64_t{1} << 24;

std::uint64_t run_bytes(const local_search_settings& s, index_t n) {
  return s.algorithm == local_algorithm::ga ? ga_layout_of(n, s.genetic).total
                                            : beam_layout_of(n, s.beam).total;
}

bool in_shared(const local_search_settings& s, index_t n) {
  return run_bytes(s, n) <= population_shared_budget;
}

}  // namespace

bool has_population_run(const local_search_settings& s, index_t n) {
  if (s.algorithm != local_algorithm::ga && s.algorithm != local_algorithm::beam) return false;
  if (n < 1 || n > gpu::max_global_chain_n) return false;
  if (s.algorithm == local_algorithm::beam && s.beam.width == 0) return false;
  return run_bytes(s, n) <= scratch_budget / 2;
}

std::uint64_t population_run_bytes(const local_search_settings& s, index_t n) {
  return run_bytes(s, n);
}

std::uint64_t max_population_runs_per_launch(const local_search_settings& s, index_t n) {
  if (in_shared(s, n)) return most_runs;
  const std::uint64_t fit = scratch_budget / run_bytes(s, n);
  return fit < 1 ? 1 : fit < most_runs ? fit : most_runs;
}

void launch_population_runs(const population_launch& request, const std::atomic<bool>* stop) {
  const chain_launch& job = request.job;
  NQ_EXPECTS(has_population_run(job.settings, job.n), "a population run the kernels run");
  NQ_EXPECTS(job.count >= 1 && job.count <= max_population_runs_per_launch(job.settings, job.n),
             "one launch holds 1..max_population_runs_per_launch runs");
  NQ_EXPECTS(!request.history || job.count == 1, "a history for one run");
  if (whole_grid_population(request)) {
    for (std::uint64_t slot = 0; slot < job.count; ++slot) {
      if (job.settings.algorithm == local_algorithm::ga)
        run_whole_grid(request, slot, stop);
      else
        run_whole_grid_beam(request, slot, stop);
    }
    return;
  }
  const bool shared = in_shared(job.settings, job.n);
  const std::uint64_t bytes = run_bytes(job.settings, job.n);
  device_buffer<unsigned char> scratch(shared ? 0 : job.count * bytes);
  mapped_buffer<unsigned> stop_flag(stop ? 1 : 0);
  population_launch launch = request;
  launch.stop = stop ? stop_flag.device() : nullptr;
  if (stop && stop->load(std::memory_order_relaxed)) raise_flag(stop_flag.host());
  const run_base base{launch, shared ? nullptr : scratch.data(), bytes};
  const auto blocks = static_cast<unsigned>(job.count);
  if (job.settings.algorithm == local_algorithm::ga)
    launch_blocks<population_threads>("ga_runs", blocks, shared ? bytes : 0,
                                      ga_runs{base, ga_layout_of(job.n, job.settings.genetic)});
  else
    launch_blocks<population_threads>("beam_runs", blocks, shared ? bytes : 0,
                                      beam_runs{base, beam_layout_of(job.n, job.settings.beam)});
  wait_raising(stop, stop_flag.host());  // before the scratch and the flag are freed
}

}  // namespace nq::cuda

namespace nq::gpu {

bool has_population_run(const local_search_settings& settings, index_t n) {
  return cuda::has_population_run(settings, n);
}

population_shape resolved_population_shape(const local_search_settings& settings, index_t n,
                                           std::uint64_t runs, population_shape requested) {
  cuda::population_launch launch;
  launch.shape = requested;
  launch.job.n = n;
  launch.job.settings = settings;
  if (!launch.job.settings.genetic.population)
    launch.job.settings.genetic.population = default_population(n);
  launch.job.count = runs;
  return cuda::whole_grid_population(launch) ? population_shape::whole_grid
                                             : population_shape::block_per_run;
}

std::vector<chain_outcome> run_population_runs(index_t n, const local_search_settings& settings,
                                               std::uint64_t seed, std::uint64_t first,
                                               std::uint64_t count, const chain_options& options,
                                               std::vector<row_t>* boards,
                                               std::vector<trace_row>* trace,
                                               const std::atomic<bool>* stop) {
  if (!cuda::has_population_run(settings, n))
    throw usage_error(std::string(algorithm_name(settings.algorithm)) +
                      " on n=" + std::to_string(n) + " has no block-per-run GPU search");
  NQ_EXPECTS(!trace || count == 1, "a trace of one run");
  std::vector<chain_outcome> outcomes(count);
  if (count == 0) return outcomes;
  cuda::population_launch launch;
  launch.shape = options.shape;
  cuda::chain_launch& job = launch.job;
  job.n = n;
  job.settings = settings;
  if (!job.settings.genetic.population) job.settings.genetic.population = default_population(n);
  job.seed = seed;
  job.max_steps = options.max_steps ? options.max_steps : default_max_steps(settings.algorithm);
  job.time_limit_ns = cuda::limit_ns(options.time_limit);
  cuda::device_buffer<chain_outcome> d_outcomes(count);
  cuda::device_buffer<row_t> d_boards(boards ? count * n : 0);
  cuda::device_buffer<cuda::generation_summary> history(trace ? job.max_steps + 1 : 0);
  launch.history = trace ? history.data() : nullptr;
  const std::uint64_t fit = cuda::max_population_runs_per_launch(job.settings, n);
  const std::uint64_t per_launch =
      options.runs_per_launch ? std::min(options.runs_per_launch, fit) : fit;
  for (std::uint64_t done = 0; done < count; done += per_launch) {
    job.first = first + done;
    job.count = std::min(per_launch, count - done);
    job.outcomes = d_outcomes.data() + done;
    job.boards = boards ? d_boards.data() + done * n : nullptr;
    cuda::launch_population_runs(launch, stop);
  }
  cuda::copy_to_host(outcomes.data(), d_outcomes.data(), count);
  if (boards) {
    boards->resize(count * n);
    cuda::copy_to_host(boards->data(), d_boards.data(), count * n);
  }
  if (trace) {
    const std::uint64_t rows = outcomes[0].steps + 1;
    std::vector<cuda::generation_summary> summaries(rows);
    cuda::copy_to_host(summaries.data(), history.data(), rows);
    const std::uint32_t size = settings.algorithm == local_algorithm::ga
                                   ? job.settings.genetic.population
                                   : settings.beam.width;
    trace->clear();
    for (std::uint64_t g = 0; g < rows; ++g) {
      trace_row row;
      row.step = g;
      row.cost = summaries[g].best_cost;
      row.best_fitness = static_cast<double>(fitness_of(n, row.cost));
      row.mean_fitness = static_cast<double>(summaries[g].fitness_sum) / size;
      trace->push_back(row);
    }
  }
  return outcomes;
}

}  // namespace nq::gpu
