// The GPU batch backend: thread-per-run chains launched in slices, each slice's outcomes
// reduced on the device into the tally (steps sorted and run-length counted, restarts summed),
// so only a handful of (steps, runs) pairs cross back to the host. Kernel time is the launches'
// own (kernel_clock), not the host's work around them. Per-run records cross only
// when the caller asks for them: a stop alone needs none (tallies_finished_prefix).

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <vector>

#include "kernels/chains.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/gpu.hpp"
#include "kernels/population.cuh"
#include "kernels/runtime.cuh"
#include "kernels/thrust_policy.cuh"

namespace nq::cuda {
namespace {

constexpr std::uint64_t default_slice_runs = std::uint64_t{1} << 24;  // runs per launch
constexpr std::uint64_t solved_bit = std::uint64_t{1} << 63;

/// A run's key for the step histograms: solved in the top bit, steps below.
struct step_key {
  NQ_HD std::uint64_t operator()(const chain_outcome& run) const {
    return (run.solved ? solved_bit : 0) | run.steps;
  }
};

struct restarts_of {
  NQ_HD std::uint64_t operator()(const chain_outcome& run) const { return run.restarts; }
};

class gpu_backend final : public batch_backend {
 public:
  explicit gpu_backend(const gpu::backend_options& options)
      : device_(options.device),
        slice_runs_(options.slice_runs ? options.slice_runs : default_slice_runs) {
    sms_ = multiprocessors(device_);
    name_ = gpu::device_name(device_);
  }

  std::string_view device() const override { return "gpu"; }
  std::string device_name() const override { return name_; }
  unsigned workers() const override { return sms_; }
  bool supports(const local_search_settings& algorithm, index_t n) const override {
    return has_thread_chain(algorithm, n) || has_population_run(algorithm, n);
  }

  double kernel_seconds() const override { return kernel_seconds_; }
  bool tallies_finished_prefix() const override { return true; }

  std::string layout(const local_search_settings& algorithm, index_t n,
                     std::uint64_t runs) const override {
    if (!has_population_run(algorithm, n)) return {};
    const std::uint64_t per_launch =
        std::min({slice_runs_, runs, max_population_runs_per_launch(algorithm, n)});
    return gpu::resolved_population_shape(algorithm, n, per_launch) ==
                   gpu::population_shape::whole_grid
               ? "whole_grid"
               : "block_per_run";
  }

  void run(const batch_job& job, batch_tally& tally, std::vector<chain_outcome>* records,
           const std::function<void(std::uint64_t)>& progress,
           std::vector<row_t>* boards) override {
    use_device(device_);  // the device is the calling thread's, which may not be the creator
    const std::atomic<bool>* halt = job.limits.stop;
    kernel_seconds_ = 0.0;
    kernel_clock clock;  // the launches alone: not the allocations, waits and Thrust around them
    const bool population = has_population_run(job.algorithm, job.n);
    const std::uint64_t capacity =
        std::min({slice_runs_, job.count,
                  population ? max_population_runs_per_launch(job.algorithm, job.n)
                             : max_chains_per_launch(job.n)});
    // One shape for every launch, the last (smaller) one included: the one layout() names.
    const gpu::population_shape shape =
        population ? gpu::resolved_population_shape(job.algorithm, job.n, capacity)
                   : gpu::population_shape::automatic;
    device_buffer<chain_outcome> outcomes(capacity);
    device_buffer<std::uint64_t> keys(capacity), unique_keys(capacity), counts(capacity);
    device_buffer<row_t> d_boards(records && boards ? capacity * job.n : 0);
    // Every run is "never started" until its launch has run.
    chain_outcome not_started;
    not_started.stopped = not_started.interrupted = true;
    if (records) records->assign(job.count, not_started);
    if (records && boards) boards->assign(job.count * job.n, 0);
    // One race for the whole job, across its launches.
    device_buffer<unsigned long long> first_solved(job.stop_after_first_solved ? 1 : 0);
    fill_bytes(first_solved.data(), 0xFF, first_solved.size());
    chain_launch launch;
    launch.n = job.n;
    launch.settings = job.algorithm;
    if (!launch.settings.genetic.population)
      launch.settings.genetic.population = default_population(job.n);
    launch.seed = job.seed;
    launch.max_steps =
        job.limits.max_steps ? job.limits.max_steps : default_max_steps(job.algorithm.algorithm);
    launch.time_limit_ns = limit_ns(job.limits.time_limit);
    launch.outcomes = outcomes.data();
    launch.first_solved = first_solved.data();
    std::vector<std::uint64_t> host_keys, host_counts;
    launch.boards = d_boards.size() ? d_boards.data() : nullptr;
    for (std::uint64_t done = 0; done < job.count;) {
      if (halt && halt->load()) break;  // the runs left never start
      const std::uint64_t count = std::min(capacity, job.count - done);
      launch.first = job.first + done;
      launch.count = count;
      {
        const kernel_clock::timing timing(clock);
        if (population)
          launch_population_runs(population_launch{.job = launch, .shape = shape}, halt);
        else
          launch_thread_chains(launch, halt);
      }
      kernel_seconds_ += clock.take_seconds();
      // Once the stop is up the whole launch is dropped (below, for records): without them
      // the tally then holds exactly the runs before it, the finished prefix.
      if (!records && halt && halt->load()) break;
      tally.restarts += thrust_step("summing the restarts", [&] {
        return thrust::transform_reduce(on_device(), outcomes.data(), outcomes.data() + count,
                                        restarts_of{}, std::uint64_t{0},
                                        thrust::plus<std::uint64_t>{});
      });
      thrust_step("keying the steps", [&] {
        thrust::transform(on_device(), outcomes.data(), outcomes.data() + count, keys.data(),
                          step_key{});
      });
      thrust_step("sorting the steps",
                  [&] { thrust::sort(on_device(), keys.data(), keys.data() + count); });
      const auto ends = thrust_step("counting the steps", [&] {
        return thrust::reduce_by_key(on_device(), keys.data(), keys.data() + count,
                                     thrust::constant_iterator<std::uint64_t>(1),
                                     unique_keys.data(), counts.data());
      });
      const auto distinct = static_cast<std::size_t>(ends.first - unique_keys.data());
      host_keys.resize(distinct);
      host_counts.resize(distinct);
      copy_to_host(host_keys.data(), unique_keys.data(), distinct);
      copy_to_host(host_counts.data(), counts.data(), distinct);
      for (std::size_t i = 0; i < host_keys.size(); ++i)
        (host_keys[i] & solved_bit ? tally.success : tally.failure)
            .add(host_keys[i] & ~solved_bit, host_counts[i]);
      if (records) {
        chain_outcome* mine = records->data() + done;
        copy_to_host(mine, outcomes.data(), count);
        // Once the stop is up the whole launch is dropped: its runs ran side by side, so the
        // ones that finished before the stop are the short ones, and keeping them would lean
        // the statistics towards runs that solve quickly.
        if (halt && halt->load())
          for (std::uint64_t i = 0; i < count; ++i) mine[i].interrupted = true;
        if (boards) copy_to_host(boards->data() + done * job.n, d_boards.data(), count * job.n);
      }
      done += count;
      if (progress) progress(done);
    }
  }

  chain_outcome run_alone(index_t n, const local_search_settings& algorithm, std::uint64_t seed,
                          std::uint64_t stream, const search_limits& limits,
                          std::vector<row_t>& board, const trace_fn& trace) override {
    use_device(device_);
    const gpu::chain_options options{.max_steps = limits.max_steps,
                                     .time_limit = limits.time_limit};
    std::vector<trace_row> rows;
    std::vector<trace_row>* wanted = trace ? &rows : nullptr;
    const chain_outcome out = has_population_run(algorithm, n)
                                  ? gpu::run_population_runs(n, algorithm, seed, stream, 1, options,
                                                             &board, wanted, limits.stop)[0]
                                  : gpu::run_thread_chains(n, algorithm, seed, stream, 1, options,
                                                           &board, wanted, limits.stop)[0];
    for (const trace_row& row : rows) trace(row);
    return out;
  }

 private:
  int device_;
  std::uint64_t slice_runs_;
  unsigned sms_ = 0;
  std::string name_;
  double kernel_seconds_ = 0.0;
};

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

std::unique_ptr<batch_backend> make_gpu_backend(const backend_options& options) {
  return std::make_unique<cuda::gpu_backend>(options);
}

}  // namespace nq::gpu
