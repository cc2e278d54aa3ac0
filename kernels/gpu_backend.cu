// The GPU batch backend: thread-per-run chains launched in slices, each slice's outcomes
// reduced on the device into the tally (steps sorted and run-length counted, restarts summed),
// so only a handful of (steps, runs) pairs cross back to the host.

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <vector>

#include "kernels/chains.cuh"
#include "kernels/cuda_check.cuh"
#include "kernels/cuda_event.cuh"
#include "kernels/device_buffer.cuh"
#include "kernels/gpu.hpp"

namespace nq::cuda {
namespace {

constexpr std::uint64_t slice_runs = std::uint64_t{1} << 24;  // runs per launch
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
  explicit gpu_backend(int device) : device_(device) {
    NQ_CUDA_TRY(cudaSetDevice(device));
    int sms = 0;
    NQ_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    sms_ = static_cast<unsigned>(sms);
    name_ = gpu::device_name(device);
  }

  std::string_view device() const override { return "gpu"; }
  std::string device_name() const override { return name_; }
  unsigned workers() const override { return sms_; }
  bool supports(const local_search_settings& algorithm, index_t n) const override {
    return has_thread_chain(algorithm, n);
  }

  double kernel_seconds() const override { return kernel_seconds_; }

  void run(const batch_job& job, batch_tally& tally, std::vector<chain_outcome>* records,
           const std::function<void(std::uint64_t)>& progress) override {
    kernel_seconds_ = 0.0;
    cuda_event start, stop;
    const std::uint64_t max_steps =
        job.limits.max_steps ? job.limits.max_steps : default_max_steps(job.algorithm.algorithm);
    const std::uint64_t capacity = std::min({slice_runs, job.count, max_chains_per_launch(job.n)});
    device_buffer<chain_outcome> outcomes(capacity);
    device_buffer<std::uint64_t> keys(capacity), unique_keys(capacity), counts(capacity);
    if (records) records->assign(job.count, chain_outcome{});
    device_buffer<unsigned long long> first_solved(job.stop_after_first_solved ? 1 : 0);
    if (job.stop_after_first_solved)
      NQ_CUDA_TRY(cudaMemset(first_solved.data(), 0xFF, sizeof(unsigned long long)));
    std::vector<std::uint64_t> host_keys, host_counts;
    for (std::uint64_t done = 0; done < job.count;) {
      const std::uint64_t count = std::min(capacity, job.count - done);
      start.record();
      launch_thread_chains(job.n, job.algorithm, job.seed, job.first + done, count, max_steps,
                           outcomes.data(), nullptr, first_solved.data());
      stop.record();
      kernel_seconds_ += elapsed_seconds(start, stop);
      try {
        tally.restarts += thrust::transform_reduce(thrust::device, outcomes.data(),
                                                   outcomes.data() + count, restarts_of{},
                                                   std::uint64_t{0}, thrust::plus<std::uint64_t>{});
        thrust::transform(thrust::device, outcomes.data(), outcomes.data() + count, keys.data(),
                          step_key{});
        thrust::sort(thrust::device, keys.data(), keys.data() + count);
        const auto ends = thrust::reduce_by_key(thrust::device, keys.data(), keys.data() + count,
                                                thrust::constant_iterator<std::uint64_t>(1),
                                                unique_keys.data(), counts.data());
        const auto distinct = static_cast<std::size_t>(ends.first - unique_keys.data());
        host_keys.resize(distinct);
        host_counts.resize(distinct);
        NQ_CUDA_TRY(cudaMemcpy(host_keys.data(), unique_keys.data(),
                               distinct * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
        NQ_CUDA_TRY(cudaMemcpy(host_counts.data(), counts.data(), distinct * sizeof(std::uint64_t),
                               cudaMemcpyDeviceToHost));
      } catch (const thrust::system_error& e) {
        throw cuda_error(std::string("CUDA error in the batch reduction: ") + e.what());
      }
      for (std::size_t i = 0; i < host_keys.size(); ++i)
        (host_keys[i] & solved_bit ? tally.success : tally.failure)
            .add(host_keys[i] & ~solved_bit, host_counts[i]);
      if (records)
        NQ_CUDA_TRY(cudaMemcpy(records->data() + done, outcomes.data(),
                               count * sizeof(chain_outcome), cudaMemcpyDeviceToHost));
      done += count;
      if (progress) progress(done);
    }
  }

 private:
  int device_;
  unsigned sms_ = 0;
  std::string name_;
  double kernel_seconds_ = 0.0;
};

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

std::unique_ptr<batch_backend> make_gpu_backend(int device) {
  return std::make_unique<cuda::gpu_backend>(device);
}

}  // namespace nq::gpu
