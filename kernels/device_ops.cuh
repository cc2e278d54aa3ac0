#pragma once
// What kernel bodies do besides the shared NQ_HD logic: atomics, flags shared with the host
// while a kernel runs, and a clock. libcu++'s atomic_ref on the device and, where the toolkit's
// headers are at hand, on the host too; otherwise C++20's std::atomic_ref.

#include <cstdint>

#include "nqueens/config.hpp"

#if defined(__CUDACC__) || __has_include(<cuda/atomic>)
#include <cuda/atomic>
#define NQ_HAVE_LIBCUDACXX 1
#else
#include <atomic>
#define NQ_HAVE_LIBCUDACXX 0
#endif

#if !defined(__CUDA_ARCH__)
#include <chrono>
#endif

namespace nq::cuda {

#if NQ_HAVE_LIBCUDACXX
template <class T>
using device_atomic = ::cuda::atomic_ref<T, ::cuda::thread_scope_device>;
template <class T>
using system_atomic = ::cuda::atomic_ref<T, ::cuda::thread_scope_system>;
namespace order = ::cuda::std;
#else
template <class T>
using device_atomic = std::atomic_ref<T>;
template <class T>
using system_atomic = std::atomic_ref<T>;
namespace order = ::std;
#endif

/// Adds `value` to *at, returning the value before.
template <class T>
NQ_HD T atomic_add(T* at, T value) {
  return device_atomic<T>(*at).fetch_add(value, order::memory_order_relaxed);
}

/// Lowers *at to `value` when that is smaller.
template <class T>
NQ_HD void atomic_min(T* at, T value) {
#if NQ_HAVE_LIBCUDACXX
  device_atomic<T>(*at).fetch_min(value, order::memory_order_relaxed);
#else
  device_atomic<T> ref(*at);
  T seen = ref.load(order::memory_order_relaxed);
  while (value < seen && !ref.compare_exchange_weak(seen, value, order::memory_order_relaxed)) {
  }
#endif
}

/// Adds `value` to *at, a word of the block's shared memory, as one native shared-memory
/// reduction on the device (a generic atomic there goes through global memory's path and a
/// compare-and-swap loop once it finds the address shared).
NQ_HD inline void shared_add(unsigned* at, unsigned value) {
#if defined(__CUDA_ARCH__)
  asm volatile("red.shared.add.u32 [%0], %1;"
               :
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(at))), "r"(value)
               : "memory");
#else
  atomic_add(at, value);
#endif
}

/// Raises *at to `value` when that is larger.
template <class T>
NQ_HD void atomic_max(T* at, T value) {
#if NQ_HAVE_LIBCUDACXX
  device_atomic<T>(*at).fetch_max(value, order::memory_order_relaxed);
#else
  device_atomic<T> ref(*at);
  T seen = ref.load(order::memory_order_relaxed);
  while (seen < value && !ref.compare_exchange_weak(seen, value, order::memory_order_relaxed)) {
  }
#endif
}

/// Sets *at to `value` for the other threads of the device to read (load_relaxed).
template <class T>
NQ_HD void store_relaxed(T* at, T value) {
  device_atomic<T>(*at).store(value, order::memory_order_relaxed);
}

/// A figure in mapped memory the host reads while a kernel runs (progress): written whole,
/// read whole, in no order with anything else.
NQ_HD inline void publish(unsigned long long* at, unsigned long long value) {
  system_atomic<unsigned long long>(*at).store(value, order::memory_order_relaxed);
}
NQ_HD inline unsigned long long read_published(const unsigned long long* at) {
  return system_atomic<unsigned long long>(*const_cast<unsigned long long*>(at))
      .load(order::memory_order_relaxed);
}

/// *at, read while other threads may lower it (the race's first solved run).
template <class T>
NQ_HD T load_relaxed(const T* at) {
  return device_atomic<T>(*const_cast<T*>(at)).load(order::memory_order_relaxed);
}

#if defined(__SANITIZE_THREAD__)
#define NQ_FENCELESS_HOST 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NQ_FENCELESS_HOST 1
#endif
#endif

/// Orders a thread's writes to global memory before its block's later arrival (arrive_last).
/// Under ThreadSanitizer (host execution only) there is no fence: TSan does not model fences
/// and GCC refuses them there; the block's barrier and the acq_rel arrival already order the
/// block's writes before the last block's reads in TSan's model.
NQ_HD inline void fence_device() {
#if defined(NQ_FENCELESS_HOST) && !defined(__CUDA_ARCH__)
#elif NQ_HAVE_LIBCUDACXX
  ::cuda::atomic_thread_fence(order::memory_order_release, ::cuda::thread_scope_device);
#else
  std::atomic_thread_fence(std::memory_order_release);
#endif
}

/// One thread of a block, once every thread of it has fenced its writes (fence_device) and met
/// at a barrier: counts the block through; true for the last of `blocks`, which then sees what
/// every block wrote (the threadFenceReduction pattern).
NQ_HD inline bool arrive_last(unsigned* arrived, unsigned blocks) {
  return device_atomic<unsigned>(*arrived).fetch_add(1u, order::memory_order_acq_rel) + 1 == blocks;
}

/// A flag in mapped memory, read on either side while a kernel runs: what was written before
/// the flag was raised is visible once it reads non-zero (a done flag, then its tally).
NQ_HD inline unsigned read_flag(const unsigned* flag) {
  return system_atomic<unsigned>(*const_cast<unsigned*>(flag)).load(order::memory_order_acquire);
}

/// Whether the host has raised a stop flag, polled in a kernel's loops. Nothing written before
/// the stop is read under it, so a relaxed load serves, cheaper than an acquire at system scope
/// and seen as soon.
NQ_HD inline bool stop_raised(const unsigned* flag) {
  const system_atomic<unsigned> stop(*const_cast<unsigned*>(flag));
  return stop.load(order::memory_order_relaxed) != 0;
}

/// Raises a flag in mapped memory, after everything written before it.
NQ_HD inline void raise_flag(unsigned* flag) {
  system_atomic<unsigned>(*flag).store(1u, order::memory_order_release);
}

/// Nanoseconds of a clock that runs across the whole device (the host's steady clock in the
/// host execution): for time limits measured within one kernel.
NQ_HD inline std::uint64_t clock_ns() {
#if defined(__CUDA_ARCH__)
  std::uint64_t now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
#else
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
#endif
}

/// A time limit in whole nanoseconds; 0 (none) for seconds <= 0.
inline std::uint64_t limit_ns(double seconds) {
  if (!(seconds > 0)) return 0;
  if (seconds >= 1.8e10) return UINT64_MAX;  // past ~570 years: as good as none
  const auto ns = static_cast<std::uint64_t>(seconds * 1e9);
  return ns == 0 ? 1 : ns;
}

}  // namespace nq::cuda
