#pragma once
// Checking CUDA calls: failures become nq::cuda_error, which the CLI maps to exit code 3.

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "nqueens/error.hpp"

namespace nq {

/// @brief A failed CUDA call, with where it happened.
struct cuda_error : resource_error {
  using resource_error::resource_error;
};

namespace detail {

inline void cuda_try(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls start clean
  throw cuda_error(std::string("CUDA error: ") + cudaGetErrorString(status) + " in " + call +
                   " at " + file + ":" + std::to_string(line));
}

}  // namespace detail
}  // namespace nq

#define NQ_CUDA_TRY(call) ::nq::detail::cuda_try((call), #call, __FILE__, __LINE__)

/// For destructors: reports on stderr instead of throwing.
#define NQ_CUDA_TRY_NO_THROW(call)                                                            \
  do {                                                                                        \
    const cudaError_t nq_status_ = (call);                                                    \
    if (nq_status_ != cudaSuccess)                                                            \
      std::fprintf(stderr, "CUDA error: %s in %s at %s:%d\n", cudaGetErrorString(nq_status_), \
                   #call, __FILE__, __LINE__);                                                \
  } while (0)
