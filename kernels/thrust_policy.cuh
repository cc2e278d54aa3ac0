#pragma once
// Every Thrust call of ours runs on on_device(). Its temporary storage then comes from
// allocate_device, so it is counted with our own allocations (costs.cuh) and a device out of
// memory is our cuda_error, not Thrust's bad_alloc. Each call counts as one blocking wait:
// thrust::device (cuda::par) synchronises the stream at the end of every algorithm, whether it
// returns a value (reduce, reduce_by_key) or not (sort, transform, scan); par_nosync would not.

#include <thrust/execution_policy.h>
#include <thrust/system/detail/bad_alloc.h>
#include <thrust/system_error.h>

#include <cstddef>
#include <string>

#include "kernels/costs.cuh"
#include "kernels/runtime.cuh"

namespace nq::cuda {

/// Thrust's temporary storage, from allocate_device: the byte allocator that Thrust's
/// execute_with_allocator takes (CCCL's and Debian's libthrust-dev alike).
struct thrust_allocator {
  using value_type = char;
  char* allocate(std::size_t bytes) { return static_cast<char*>(detail::allocate_device(bytes)); }
  void deallocate(char* data, std::size_t bytes) noexcept { detail::free_device(data, bytes); }
};

/// The policy for one blocking Thrust call on the default stream. In the host execution Thrust
/// runs on the calling thread, so the stream is drained first (a failed kernel is thrown here);
/// on a device the call is in stream order and needs no wait before it.
inline auto on_device() {
  detail::count_cost(detail::costs().syncs);
#if !defined(__CUDACC__)
  default_stream().synchronize();
#endif
  return thrust::device(thrust_allocator{});
}

/// Runs one Thrust call on on_device(), `what` it does named in its failures, each a cuda_error:
/// a device out of memory stays one (our allocator's cuda_error, or Thrust's own bad_alloc were
/// it to allocate), where a plain std::bad_alloc is the host's and passes as it is.
template <class Call>
decltype(auto) thrust_step(const char* what, Call&& call) {
  try {
    return call();
  } catch (const cuda_error& e) {
    throw cuda_error(std::string(e.what()) + " (" + what + ")");
  } catch (const thrust::system_error& e) {
    throw cuda_error(std::string("CUDA error ") + what + ": " + e.what());
  } catch (const thrust::system::detail::bad_alloc& e) {
    throw cuda_error(std::string("GPU out of memory ") + what + ": " + e.what());
  }
}

}  // namespace nq::cuda
