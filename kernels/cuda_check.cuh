#pragma once
// Checking CUDA calls: failures become nq::cuda_error, which the CLI maps to exit code 3. In the
// host execution (kernels compiled as plain C++) there is no CUDA call to check, but the same
// error type reports what a device would refuse (a launch out of limits, a failed kernel).

#include <cstdio>
#include <string>

#include "nqueens/error.hpp"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

namespace nq {

/// @brief A failed CUDA call or launch, with where it happened.
struct cuda_error : device_error {
  using device_error::device_error;
};

}  // namespace nq

#if defined(__CUDACC__)

namespace nq::detail {

inline void cuda_try(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls start clean
  throw cuda_error(std::string("CUDA error: ") + cudaGetErrorString(status) + " in " + call +
                   " at " + file + ":" + std::to_string(line));
}

}  // namespace nq::detail

#define NQ_CUDA_TRY(call) ::nq::detail::cuda_try((call), #call, __FILE__, __LINE__)

/// For destructors: reports on stderr instead of throwing.
#define NQ_CUDA_TRY_NO_THROW(call)                                                            \
  do {                                                                                        \
    const cudaError_t nq_status_ = (call);                                                    \
    if (nq_status_ != cudaSuccess)                                                            \
      std::fprintf(stderr, "CUDA error: %s in %s at %s:%d\n", cudaGetErrorString(nq_status_), \
                   #call, __FILE__, __LINE__);                                                \
  } while (0)

#endif
