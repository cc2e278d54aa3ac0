#pragma once
// Every Thrust call of ours runs on on_device(). Its temporary storage then comes from
// allocate_device, so it is counted with our own allocations (costs.cuh) and a device out of
// memory is our cuda_error, not Thrust's bad_alloc. Each call counts as one blocking wait:
// thrust::device (cuda::par) synchronises the stream at the end of every algorithm, whether it
// returns a value (reduce, reduce_by_key) or not (sort, transform, scan); par_nosync would not.
// A loop that calls Thrust every generation keeps a thrust_cache for its length and runs the
// calls whose value it does not read on in_stream(cache): no allocation after the first
// generation's, and no wait.

#include <thrust/execution_policy.h>
#if defined(__CUDACC__)
#include <thrust/system/cuda/execution_policy.h>
#endif
#include <thrust/system/detail/bad_alloc.h>
#include <thrust/system_error.h>

#include <cstddef>
#include <string>
#include <vector>

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

/// Thrust's temporaries for the length of one run: each block taken from allocate_device once
/// (so counted, and refused as ours are) and handed out again to later calls, so that a loop's
/// Thrust calls allocate nothing once the first round has run. A call that asks for more than
/// any free block holds gets a new one, the smaller free ones given back first. Calls on one
/// stream only: a block handed back is reused in stream order.
class thrust_cache {
 public:
  thrust_cache() = default;
  thrust_cache(const thrust_cache&) = delete;
  thrust_cache& operator=(const thrust_cache&) = delete;
  ~thrust_cache() {
    for (const block& b : blocks_) give_back(b);
  }

  char* allocate(std::size_t bytes) {
    block* best = nullptr;
    for (block& b : blocks_)
      if (!b.in_use && b.bytes >= bytes && (!best || b.bytes < best->bytes)) best = &b;
    if (!best) {
      std::erase_if(blocks_, [](const block& b) {
        if (!b.in_use) give_back(b);
        return !b.in_use;
      });
      blocks_.push_back({static_cast<char*>(detail::allocate_device(bytes)), bytes, false});
      best = &blocks_.back();
    }
    best->in_use = true;
    return best->data;
  }
  void deallocate(char* data) noexcept {
    for (block& b : blocks_)
      if (b.data == data) b.in_use = false;
  }

 private:
  struct block {
    char* data;
    std::size_t bytes;
    bool in_use;
  };
  static void give_back(const block& b) noexcept {
#if !defined(__CUDACC__)
    default_stream().wait_idle();  // a queued Thrust call may still use it, as cudaFree waits
#endif
    detail::free_device(b.data, b.bytes);
  }
  std::vector<block> blocks_;
};

/// The byte allocator Thrust takes, handing out a thrust_cache's blocks.
struct cached_allocator {
  using value_type = char;
  thrust_cache* cache;
  char* allocate(std::size_t bytes) { return cache->allocate(bytes); }
  void deallocate(char* data, std::size_t) noexcept { cache->deallocate(data); }
};

/// The policy for one blocking Thrust call on the default stream. In the host execution Thrust
/// runs on the calling thread, so the stream is drained first (a failed kernel is thrown here);
/// on a device the call is in stream order and needs no wait before it.
inline auto on_device() {
  detail::count_cost(detail::costs().thrust_calls);
  detail::count_cost(detail::costs().syncs);
#if !defined(__CUDACC__)
  default_stream().synchronize();
#endif
  return thrust::device(thrust_allocator{});
}

/// on_device(), its temporaries from `cache`.
inline auto on_device(thrust_cache& cache) {
  detail::count_cost(detail::costs().thrust_calls);
  detail::count_cost(detail::costs().syncs);
#if !defined(__CUDACC__)
  default_stream().synchronize();
#endif
  return thrust::device(cached_allocator{&cache});
}

/// The policy for a Thrust call in stream order whose result stays on the device: on a device
/// it returns before the work is done (par_nosync: no wait, so none is counted), its
/// temporaries from `cache`, which reuses them in stream order. In the host execution Thrust
/// runs on the calling thread, so the stream is drained first, a wait a device does not make.
inline auto in_stream(thrust_cache& cache) {
  detail::count_cost(detail::costs().thrust_calls);
#if defined(__CUDACC__)
  return thrust::cuda::par_nosync(cached_allocator{&cache});
#else
  default_stream().synchronize();
  return thrust::device(cached_allocator{&cache});
#endif
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
