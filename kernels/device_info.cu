#include "core/memory.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/gpu.hpp"

#if !defined(__CUDACC__)
#include <atomic>

#include "kernels/host_schedule.hpp"
#include "kernels/host_stream.hpp"
#endif

namespace nq::gpu {

#if defined(__CUDACC__)

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: not an error for callers
    return 0;
  }
  return count;
}

std::string device_name(int device) {
  cudaDeviceProp properties{};
  NQ_CUDA_TRY(cudaGetDeviceProperties(&properties, device));
  return properties.name;
}

bool set_host_devices(int) { return false; }

bool runs_in_order() { return false; }

std::uint64_t device_free_bytes() {
  std::size_t free = 0, total = 0;
  NQ_CUDA_TRY(cudaMemGetInfo(&free, &total));
  return free;
}

#else

namespace {
std::atomic<int> host_devices{1};
}  // namespace

// The host execution stands in for one device, or as many as a test asks for.
int device_count() { return host_devices.load(); }

std::string device_name(int device) {
  if (device < 0 || device >= device_count())
    throw cuda_error("invalid device ordinal " + std::to_string(device));
  return "host execution";
}

std::uint64_t device_free_bytes() {
  return available_memory_bytes().value_or(std::uint64_t{4} << 30);
}

bool runs_in_order() {
  const cuda::host::schedule plan = cuda::host::current_schedule();
  return plan.order == cuda::host::run_order::forward && plan.block_threads == 1;
}

bool set_host_devices(int count) {
  NQ_EXPECTS(count >= 1 && count <= cuda::max_host_devices, "the host execution plays 1 to 8");
  host_devices.store(count);
  return true;
}

#endif

}  // namespace nq::gpu
