#include "kernels/costs.cuh"
#include "kernels/cuda_check.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/detail/memory.hpp"

#if !defined(__CUDACC__)
#include <atomic>

#include "kernels/host/schedule.hpp"
#include "kernels/host/stream.hpp"
#include "kernels/runtime.cuh"
#endif

namespace nq::gpu {

unsigned multiprocessor_count(int device) { return cuda::multiprocessors(device); }

gpu_costs costs() {
  const cuda::detail::cost_tally& tally = cuda::detail::costs();
  gpu_costs out;
  out.launches = tally.launches.load();
  out.syncs = tally.syncs.load();
  out.to_host_copies = tally.to_host_copies.load();
  out.to_host_bytes = tally.to_host_bytes.load();
  out.to_device_copies = tally.to_device_copies.load();
  out.allocations = tally.allocations.load();
  out.allocated_bytes = tally.allocated_bytes.load();
  out.block_phases = tally.block_phases.load();
  out.thrust_calls = tally.thrust_calls.load();
  return out;
}

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

device_facts facts(int device) {
  cudaDeviceProp properties{};
  NQ_CUDA_TRY(cudaGetDeviceProperties(&properties, device));
  device_facts out;
  out.name = properties.name;
  out.multiprocessors = static_cast<unsigned>(properties.multiProcessorCount);
  out.memory_bytes = properties.totalGlobalMem;
  out.major = properties.major;
  out.minor = properties.minor;
  int khz = 0;  // the clocks are attributes since CUDA 13 (no longer in cudaDeviceProp)
  NQ_CUDA_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  out.clock_mhz = static_cast<unsigned>(khz / 1000);
  NQ_CUDA_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device));
  out.memory_clock_mhz = static_cast<unsigned>(khz / 1000);
  NQ_CUDA_TRY(cudaDriverGetVersion(&out.driver));
  NQ_CUDA_TRY(cudaRuntimeGetVersion(&out.runtime));
  return out;
}

int current_device() {
  int device = 0;
  NQ_CUDA_TRY(cudaGetDevice(&device));
  return device;
}

bool set_host_device_memory(std::uint64_t) { return false; }

bool runs_in_order() { return false; }

bool counts_phases() { return false; }

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

int current_device() { return cuda::current_host_device(); }

device_facts facts(int device) {
  device_facts out;
  out.name = device_name(device);
  out.multiprocessors = multiprocessor_count(device);
  out.memory_bytes = device_free_bytes();
  return out;
}

std::uint64_t device_free_bytes() {
  const std::uint64_t memory = cuda::detail::host_device_memory.load();
  if (memory == 0) return available_memory_bytes().value_or(std::uint64_t{4} << 30);
  const std::uint64_t used = cuda::detail::host_device_used.load();
  return used < memory ? memory - used : 0;
}

bool counts_phases() { return true; }

bool runs_in_order() {
  const cuda::host::schedule plan = cuda::host::current_schedule();
  return plan.order == cuda::host::run_order::forward && plan.block_threads == 1;
}

bool set_host_devices(int count) {
  NQ_EXPECTS(count >= 1 && count <= cuda::max_host_devices, "the host execution plays 1 to 8");
  host_devices.store(count);
  return true;
}

bool set_host_device_memory(std::uint64_t bytes) {
  cuda::detail::host_device_memory.store(bytes);
  return true;
}

#endif

}  // namespace nq::gpu
