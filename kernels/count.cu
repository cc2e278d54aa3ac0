// Counting on the GPU: one thread per subproblem, pulled from an atomic counter, each running
// the same NQ_HD bitboard search over canonical frames as the CPU (constellation.hpp).

#include "kernels/cuda_check.cuh"
#include "kernels/cuda_event.cuh"
#include "kernels/device_buffer.cuh"
#include "kernels/gpu.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned count_block = 128;

__global__ void count_kernel(int n, const count_prefix* subs, const std::uint32_t* indices,
                             std::uint32_t count, const std::uint16_t* frame_class,
                             count_tally* out, unsigned* next) {
  for (;;) {
    const unsigned i = atomicAdd(next, 1u);
    if (i >= count) return;
    out[i] = count_prefix_completions(n, subs[indices[i]], frame_class);
  }
}

template <class T>
device_buffer<T> upload(const std::vector<T>& host) {
  device_buffer<T> device(host.size());
  if (!host.empty())
    NQ_CUDA_TRY(
        cudaMemcpy(device.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

struct subproblem_counter::impl {
  int n;
  cuda::device_buffer<count_prefix> subs;
  cuda::device_buffer<std::uint16_t> frame_class;
  unsigned blocks;
  double kernel_seconds = 0.0;
};

subproblem_counter::subproblem_counter(int n, const std::vector<count_prefix>& subs,
                                       const std::vector<std::uint16_t>& frame_class) {
  int sms = 0;
  NQ_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  // Enough resident threads to keep every SM busy while the slow subproblems finish.
  const auto blocks = static_cast<unsigned>(sms) * 16;
  impl_ = std::make_unique<impl>(
      impl{n, cuda::upload(subs), cuda::upload(frame_class), blocks == 0 ? 1 : blocks});
}

subproblem_counter::~subproblem_counter() = default;

std::vector<count_tally> subproblem_counter::count(const std::vector<std::uint32_t>& indices) {
  std::vector<count_tally> tallies(indices.size());
  if (indices.empty()) return tallies;
  const auto d_indices = cuda::upload(indices);
  cuda::device_buffer<count_tally> out(indices.size());
  cuda::device_buffer<unsigned> next(1);
  NQ_CUDA_TRY(cudaMemset(next.data(), 0, sizeof(unsigned)));
  cuda::cuda_event start, stop;
  start.record();
  cuda::count_kernel<<<impl_->blocks, cuda::count_block>>>(
      impl_->n, impl_->subs.data(), d_indices.data(), static_cast<std::uint32_t>(indices.size()),
      impl_->frame_class.data(), out.data(), next.data());
  NQ_CUDA_TRY(cudaGetLastError());
  stop.record();
  impl_->kernel_seconds += cuda::elapsed_seconds(start, stop);
  NQ_CUDA_TRY(cudaMemcpy(tallies.data(), out.data(), tallies.size() * sizeof(count_tally),
                         cudaMemcpyDeviceToHost));
  return tallies;
}

double subproblem_counter::kernel_seconds() const { return impl_->kernel_seconds; }

}  // namespace nq::gpu
