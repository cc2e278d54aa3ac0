#include "kernels/cuda_check.cuh"
#include "kernels/gpu.hpp"

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

#else

// The host execution stands in for one device.
int device_count() { return 1; }

std::string device_name(int device) {
  if (device != 0) throw cuda_error("invalid device ordinal " + std::to_string(device));
  return "host execution";
}

#endif

}  // namespace nq::gpu
