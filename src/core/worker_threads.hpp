#pragma once
// Worker threads that start all or none: a thread the system refuses (no memory for its stack,
// a thread limit) becomes a resource_error, after the threads already started have been joined
// without running their work, so a failed start leaves no partial state behind.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "nqueens/error.hpp"

namespace nq::detail {

/// @brief `count` threads running `work(t)`, released together once every one has started.
/// Joins them in `join()` or the destructor. Throws resource_error when one cannot start.
class worker_threads {
 public:
  worker_threads(unsigned count, std::function<void(unsigned)> work) : work_(std::move(work)) {
    threads_.reserve(count);
    try {
      for (unsigned t = 0; t < count; ++t) threads_.emplace_back([this, t] { body(t); });
    } catch (const std::exception& e) {  // std::system_error, or std::bad_alloc for its state
      release(gate::abort);
      join();
      throw resource_error("cannot start worker thread " + std::to_string(threads_.size() + 1) +
                           " of " + std::to_string(count) + " (" + e.what() +
                           "); try fewer --threads");
    }
    release(gate::open);
  }
  worker_threads(const worker_threads&) = delete;
  worker_threads& operator=(const worker_threads&) = delete;
  ~worker_threads() { join(); }

  void join() {
    for (auto& thread : threads_)
      if (thread.joinable()) thread.join();
  }

 private:
  enum class gate { closed, open, abort };

  void release(gate state) {
    {
      const std::lock_guard lock(mutex_);
      gate_ = state;
    }
    opened_.notify_all();
  }
  void body(unsigned t) {
    {
      std::unique_lock lock(mutex_);
      opened_.wait(lock, [this] { return gate_ != gate::closed; });
      if (gate_ == gate::abort) return;
    }
    work_(t);
  }

  std::function<void(unsigned)> work_;
  std::mutex mutex_;
  std::condition_variable opened_;
  gate gate_ = gate::closed;
  std::vector<std::thread> threads_;  // last: joined before the members they use go
};

}  // namespace nq::detail
