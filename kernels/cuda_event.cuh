#pragma once
// An owned CUDA event, and device time between two of them.

#include "kernels/cuda_check.cuh"

namespace nq::cuda {

class cuda_event {
 public:
  cuda_event() { NQ_CUDA_TRY(cudaEventCreate(&event_)); }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  ~cuda_event() { NQ_CUDA_TRY_NO_THROW(cudaEventDestroy(event_)); }
  /// Records the event on the default stream.
  void record() { NQ_CUDA_TRY(cudaEventRecord(event_)); }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_{};
};

/// Seconds of device time from `start` to `stop`, once `stop` has happened.
inline double elapsed_seconds(const cuda_event& start, const cuda_event& stop) {
  NQ_CUDA_TRY(cudaEventSynchronize(stop.get()));
  float milliseconds = 0;
  NQ_CUDA_TRY(cudaEventElapsedTime(&milliseconds, start.get(), stop.get()));
  return milliseconds / 1000.0;
}

}  // namespace nq::cuda
