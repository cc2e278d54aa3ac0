#pragma once
// Owning, move-only device memory. Kernels take raw pointers or views, never this.

#include <cstddef>
#include <utility>

#include "core/memory.hpp"
#include "kernels/cuda_check.cuh"

namespace nq::cuda {

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t size) : size_(size) {
    if (size == 0) return;
    const cudaError_t status = cudaMalloc(&data_, size * sizeof(T));
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw cuda_error("GPU out of memory: asked for " + format_bytes(size * sizeof(T)));
    }
    NQ_CUDA_TRY(status);
  }
  device_buffer(device_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  device_buffer& operator=(device_buffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() {
    if (data_) NQ_CUDA_TRY_NO_THROW(cudaFree(data_));
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace nq::cuda
