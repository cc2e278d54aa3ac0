#include "kernels/cuda_check.cuh"
#include "kernels/gpu.hpp"

namespace nq::gpu {

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

}  // namespace nq::gpu
