#pragma once
// The host execution's default stream: one worker thread runs the launched work in order, so a
// launch returns before its work is done, as on a device, and the host may poll, copy mapped
// memory and raise flags while a kernel runs. Only the host execution includes this.

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "kernels/cuda_check.cuh"

namespace nq::cuda {

class host_stream {
 public:
  host_stream() : worker_([this] { serve(); }) {}
  host_stream(const host_stream&) = delete;
  host_stream& operator=(const host_stream&) = delete;
  ~host_stream() {
    {
      const std::lock_guard lock(mutex_);
      closing_ = true;
    }
    wake_.notify_all();
    worker_.join();
  }

  /// Queues `work` behind everything queued before it.
  void enqueue(std::function<void()> work) {
    {
      const std::lock_guard lock(mutex_);
      queue_.push_back(std::move(work));
    }
    wake_.notify_all();
  }

  /// Waits until everything queued has run. The first failure of a kernel since the last
  /// synchronize is thrown here, as cudaDeviceSynchronize reports a failed launch.
  void synchronize() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
    if (failure_) {
      const std::exception_ptr failure = std::exchange(failure_, nullptr);
      lock.unlock();
      try {
        std::rethrow_exception(failure);
      } catch (const cuda_error&) {
        throw;
      } catch (const std::exception& e) {
        throw cuda_error(std::string("kernel failed in the host execution: ") + e.what());
      }
    }
  }

  /// Waits until everything queued has run, leaving a failure for the next synchronize: for
  /// destructors, which must not lose it or throw.
  void wait_idle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
  }

  /// Whether everything queued has run (cudaStreamQuery).
  bool idle() {
    const std::lock_guard lock(mutex_);
    return queue_.empty() && !busy_;
  }

 private:
  void serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return closing_ || !queue_.empty(); });
      if (queue_.empty()) return;  // closing, and nothing left
      std::function<void()> work = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
      lock.unlock();
      std::exception_ptr failure;
      try {
        work();
      } catch (...) {
        failure = std::current_exception();
      }
      lock.lock();
      busy_ = false;
      if (failure && !failure_) failure_ = failure;
      if (queue_.empty()) idle_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::deque<std::function<void()>> queue_;
  bool busy_ = false, closing_ = false;
  std::exception_ptr failure_;
  std::thread worker_;  // last: started once the members it uses exist
};

/// Devices the host execution may play (see gpu::set_host_devices).
inline constexpr int max_host_devices = 8;

/// The device the calling thread works on, as cudaSetDevice sets it per host thread.
inline int& current_host_device() {
  thread_local int device = 0;
  return device;
}

/// The stream every host-executed launch, copy and event of the calling thread's device goes
/// through: one per device, as each CUDA device has its own default stream, so that devices
/// played by several host threads run side by side.
/// A device's stream (and its worker thread) starts on the device's first use.
inline host_stream& default_stream() {
  static std::mutex mutex;
  static std::unique_ptr<host_stream> streams[max_host_devices];
  const int device = current_host_device();
  const std::lock_guard lock(mutex);
  if (!streams[device]) streams[device] = std::make_unique<host_stream>();
  return *streams[device];
}

}  // namespace nq::cuda
