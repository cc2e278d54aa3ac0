#pragma once
// The runtime the kernels' host code uses, one interface for both executions: owned device
// memory, host memory the device sees while it runs (mapped), copies, events, and waiting for
// the default stream. Under nvcc each is a checked CUDA call; in the host execution, memory is
// the host's and the stream is a worker thread (host/stream.hpp).

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <utility>

#include "kernels/costs.cuh"
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.cuh"
#include "nqueens/detail/memory.hpp"

#if !defined(__CUDACC__)
#include "kernels/host/stream.hpp"
#endif

namespace nq::cuda {

namespace detail {

/// Counts an allocation of `bytes` that was made (cost_tally).
inline void count_allocation(std::size_t bytes) {
  count_cost(costs().allocations);
  count_cost(costs().allocated_bytes, bytes);
}

#if defined(__CUDACC__)
inline void* allocate_device(std::size_t bytes) {
  void* data = nullptr;
  const cudaError_t status = cudaMalloc(&data, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw cuda_error("GPU out of memory: asked for " + format_bytes(bytes));
  }
  NQ_CUDA_TRY(status);
  count_allocation(bytes);
  return data;
}
inline void free_device(void* data, std::size_t) { NQ_CUDA_TRY_NO_THROW(cudaFree(data)); }
#else
/// cudaMalloc's alignment; the fill stands in for memory nobody initialised.
inline constexpr std::size_t device_alignment = 256;
inline constexpr unsigned char uninitialised_byte = 0xA5;
/// The memory the played devices hold together (gpu::set_host_device_memory; 0: the host's),
/// and the bytes allocated from it now.
inline std::atomic<std::uint64_t> host_device_memory{0}, host_device_used{0};
inline void* allocate_device(std::size_t bytes) {
  const std::uint64_t memory = host_device_memory.load(std::memory_order_relaxed);
  const std::uint64_t used = host_device_used.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  void* data = memory != 0 && used > memory
                   ? nullptr
                   : ::operator new (bytes, std::align_val_t{device_alignment}, std::nothrow);
  if (!data) {
    host_device_used.fetch_sub(bytes, std::memory_order_relaxed);
    throw cuda_error("GPU out of memory: asked for " + format_bytes(bytes));
  }
  std::memset(data, uninitialised_byte, bytes);
  count_allocation(bytes);
  return data;
}
inline void free_device(void* data, std::size_t bytes) {
  ::operator delete (data, std::align_val_t{device_alignment});
  host_device_used.fetch_sub(bytes, std::memory_order_relaxed);
}
#endif

}  // namespace detail

// A kernel_clock's span ends at the waits below (defined with the clock).
inline void note_wait_begins();
inline void note_wait_ended();

/// Waits until the device has finished everything launched; reports a failed kernel.
inline void synchronize() {
  detail::count_cost(detail::costs().syncs);
  note_wait_begins();
#if defined(__CUDACC__)
  NQ_CUDA_TRY(cudaDeviceSynchronize());
#else
  default_stream().synchronize();
#endif
  note_wait_ended();
}

/// Whether the default stream has finished everything launched so far, without waiting.
inline bool stream_idle() {
#if defined(__CUDACC__)
  const cudaError_t status = cudaStreamQuery(0);
  if (status == cudaErrorNotReady) return false;
  NQ_CUDA_TRY(status);
  return true;
#else
  return default_stream().idle();
#endif
}

/// How often a host wait polls the stream and the caller's stop: short, so that a launch of
/// microseconds is not rounded up to a millisecond.
inline constexpr std::chrono::microseconds poll_period{100};

/// Waits for the default stream, raising `flag` once `*stop` is set (without stop: waits).
inline void wait_raising(const std::atomic<bool>* stop, unsigned* flag) {
  note_wait_begins();  // the polling below is the host's time, not the kernels'
  for (bool raised = false; stop && !stream_idle();) {
    if (!raised && stop->load(std::memory_order_relaxed)) {
      raise_flag(flag);
      raised = true;
    }
    std::this_thread::sleep_for(poll_period);
  }
  synchronize();
}

/// Owning, move-only device memory. Kernels take raw pointers or views, never this.
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t size) : size_(size) {
    if (size != 0) data_ = static_cast<T*>(detail::allocate_device(size * sizeof(T)));
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
    if (!data_) return;
#if !defined(__CUDACC__)
    // A kernel may still be using the memory, as cudaFree would wait for it.
    default_stream().wait_idle();
#endif
    detail::free_device(data_, size_ * sizeof(T));
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Host memory the device reads and writes while a kernel runs (pinned and mapped), for flags
/// and results the host polls. Starts zeroed. host() and device() address the same bytes.
template <class T>
class mapped_buffer {
 public:
  explicit mapped_buffer(std::size_t size) : size_(size) {
    if (size == 0) return;
#if defined(__CUDACC__)
    const cudaError_t status =
        cudaHostAlloc(reinterpret_cast<void**>(&host_), size * sizeof(T), cudaHostAllocMapped);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw cuda_error("out of pinned host memory: asked for " + format_bytes(size * sizeof(T)));
    }
    NQ_CUDA_TRY(status);
    // A throw from here on skips the destructor: the pinned memory is freed first.
    const cudaError_t mapped =
        cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0);
    if (mapped != cudaSuccess) {
      NQ_CUDA_TRY_NO_THROW(cudaFreeHost(host_));
      host_ = nullptr;
      NQ_CUDA_TRY(mapped);
    }
    detail::count_allocation(size * sizeof(T));
    std::memset(static_cast<void*>(host_), 0, size * sizeof(T));
#else
    host_ = static_cast<T*>(detail::allocate_device(size * sizeof(T)));
    std::memset(static_cast<void*>(host_), 0, size * sizeof(T));
    device_ = host_;
#endif
  }
  mapped_buffer(const mapped_buffer&) = delete;
  mapped_buffer& operator=(const mapped_buffer&) = delete;
  ~mapped_buffer() {
    if (!host_) return;
#if defined(__CUDACC__)
    NQ_CUDA_TRY_NO_THROW(cudaFreeHost(host_));
#else
    default_stream().wait_idle();
    detail::free_device(host_, size_ * sizeof(T));
#endif
  }

  T* host() { return host_; }
  T* device() { return device_; }
  std::size_t size() const { return size_; }

 private:
  T* host_ = nullptr;
  T* device_ = nullptr;
  std::size_t size_ = 0;
};

/// Copies `count` items to device memory, once the device has finished what came before.
template <class T>
void copy_to_device(T* device, const T* host, std::size_t count) {
  if (count == 0) return;
  detail::count_cost(detail::costs().to_device_copies);
  detail::count_cost(detail::costs().syncs);  // from pageable memory: the host waits
#if defined(__CUDACC__)
  NQ_CUDA_TRY(cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice));
#else
  default_stream().synchronize();
  std::memcpy(static_cast<void*>(device), host, count * sizeof(T));
#endif
}

/// Copies `count` items back from device memory, once the kernels writing them have finished.
template <class T>
void copy_to_host(T* host, const T* device, std::size_t count) {
  if (count == 0) return;
  detail::count_cost(detail::costs().to_host_copies);
  detail::count_cost(detail::costs().to_host_bytes, count * sizeof(T));
  detail::count_cost(detail::costs().syncs);
#if defined(__CUDACC__)
  NQ_CUDA_TRY(cudaMemcpy(host, device, count * sizeof(T), cudaMemcpyDeviceToHost));
#else
  default_stream().synchronize();
  std::memcpy(static_cast<void*>(host), device, count * sizeof(T));
#endif
}

/// Sets `count` items of device memory to the byte `value`, in stream order.
template <class T>
void fill_bytes(T* device, int value, std::size_t count) {
  if (count == 0) return;
#if defined(__CUDACC__)
  NQ_CUDA_TRY(cudaMemset(device, value, count * sizeof(T)));
#else
  default_stream().synchronize();
  std::memset(static_cast<void*>(device), value, count * sizeof(T));
#endif
}

/// An owned event on the default stream, and device time between two of them.
class cuda_event {
 public:
#if defined(__CUDACC__)
  cuda_event() { NQ_CUDA_TRY(cudaEventCreate(&event_)); }
  ~cuda_event() { NQ_CUDA_TRY_NO_THROW(cudaEventDestroy(event_)); }
  /// Marks the point the stream has reached once everything launched before has run.
  void record() { NQ_CUDA_TRY(cudaEventRecord(event_)); }
#else
  cuda_event() = default;
  ~cuda_event() {
    default_stream().wait_idle();  // a queued record still writes to this event
  }
  void record() {
    default_stream().enqueue([this] { at_ = std::chrono::steady_clock::now(); });
  }
#endif
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  friend class kernel_clock;  // reads two events the device has passed, without a wait

  /// Seconds from `start` to `stop`, once `stop` has happened.
  friend double elapsed_seconds(const cuda_event& start, const cuda_event& stop) {
    detail::count_cost(detail::costs().syncs);
#if defined(__CUDACC__)
    NQ_CUDA_TRY(cudaEventSynchronize(stop.event_));
    float milliseconds = 0;
    NQ_CUDA_TRY(cudaEventElapsedTime(&milliseconds, start.event_, stop.event_));
    return milliseconds / 1000.0;
#else
    default_stream().synchronize();
    return std::chrono::duration<double>(stop.at_ - start.at_).count();
#endif
  }

 private:
#if defined(__CUDACC__)
  cudaEvent_t event_{};
#else
  std::chrono::steady_clock::time_point at_{};
#endif
};

double elapsed_seconds(const cuda_event& start, const cuda_event& stop);

/// Times the kernels the calling thread launches (launch_threads, launch_blocks) while a
/// kernel_clock::timing is alive: spans of the stream from an event just before the first
/// launch to one recorded as the host next waits for the device (synchronize, wait_raising) or
/// reads the clock. So the host's work before a launch and between a wait and the next launch
/// (allocations, frees, copies and the polling of a wait) is not counted, while the stream's own
/// work between two launches with no wait between them (a whole-grid generation's Thrust calls)
/// is. Two events a span, none a launch. Scopes nest: the innermost clock takes the launches.
class kernel_clock {
 public:
  /// While alive, the calling thread's launches and waits mark `clock`.
  class timing {
   public:
    explicit timing(kernel_clock& clock) : previous_(std::exchange(active(), &clock)) {}
    ~timing() { active() = previous_; }
    timing(const timing&) = delete;
    timing& operator=(const timing&) = delete;

   private:
    kernel_clock* previous_;
  };

  /// Called by the launch helpers before each launch: the first opens a span.
  static void before_launch() {
    kernel_clock* clock = active();
    if (clock && !clock->open_) {
      clock->start_.record();
      clock->open_ = true;
    }
  }
  /// Called by the waits before they wait: an open span ends where the stream is now.
  static void before_wait() {
    kernel_clock* clock = active();
    if (clock && clock->open_ && !clock->ending_) {
      clock->stop_.record();
      clock->ending_ = true;
    }
  }
  /// Called by the waits once the device is idle: the span's seconds, read without waiting.
  static void after_wait() {
    kernel_clock* clock = active();
    if (clock && clock->ending_) clock->close();
  }

  /// The seconds of every span since the last call; a span still open ends now (a wait, counted
  /// as one). 0, and no wait, when nothing was launched.
  double take_seconds() {
    if (open_) {
      if (!ending_) stop_.record();
      detail::count_cost(detail::costs().syncs);
#if defined(__CUDACC__)
      NQ_CUDA_TRY(cudaEventSynchronize(stop_.event_));
#else
      default_stream().synchronize();
#endif
      close();
    }
    return std::exchange(seconds_, 0.0);
  }

 private:
  static kernel_clock*& active() {
    thread_local kernel_clock* clock = nullptr;
    return clock;
  }

  /// Adds the span start_ .. stop_, which the device has passed.
  void close() {
#if defined(__CUDACC__)
    float milliseconds = 0;
    NQ_CUDA_TRY(cudaEventElapsedTime(&milliseconds, start_.event_, stop_.event_));
    seconds_ += milliseconds / 1000.0;
#else
    seconds_ += std::chrono::duration<double>(stop_.at_ - start_.at_).count();
#endif
    open_ = ending_ = false;
  }

  cuda_event start_, stop_;
  bool open_ = false;    // start_ recorded, the span not yet added
  bool ending_ = false;  // stop_ recorded for the open span
  double seconds_ = 0;
};

inline void note_wait_begins() { kernel_clock::before_wait(); }
inline void note_wait_ended() { kernel_clock::after_wait(); }

/// Makes `device` the calling thread's device: where its allocations, launches, copies and
/// waits go (cudaSetDevice). In the host execution, one of the devices it plays.
inline void use_device(int device) {
#if defined(__CUDACC__)
  NQ_CUDA_TRY(cudaSetDevice(device));
#else
  if (device < 0 || device >= max_host_devices)
    throw cuda_error("invalid device ordinal " + std::to_string(device));
  current_host_device() = device;
#endif
}

/// Streaming multiprocessors of `device` (1 in the host execution).
inline unsigned multiprocessors(int device) {
#if defined(__CUDACC__)
  int sms = 0;
  NQ_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms > 0 ? static_cast<unsigned>(sms) : 1u;
#else
  (void)device;
  return 1;
#endif
}

}  // namespace nq::cuda
