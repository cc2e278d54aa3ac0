#pragma once
// The host execution's grid runner: a launch's blocks in the schedule's order, on one host
// thread or several side by side (host/schedule.hpp), and a block's phases with their threads
// in the schedule's order. Under ThreadSanitizer every GPU thread also runs as a TSan fiber
// (host/fibers.hpp), so a race a device could show is reported though the host runs one thread
// at a time. Only the host execution includes this.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "kernels/costs.cuh"
#include "kernels/host/fibers.hpp"
#include "kernels/host/schedule.hpp"

namespace nq::cuda::host {

/// Host threads that run the blocks of one launch side by side, the caller among them. Each
/// thread that launches (a device's stream) keeps its own pool, so devices played side by side
/// never wait for each other's blocks.
class block_pool {
 public:
  block_pool() = default;
  block_pool(const block_pool&) = delete;
  block_pool& operator=(const block_pool&) = delete;
  ~block_pool() { resize(0); }

  /// Runs job(i) for every i in 0..count-1 on `threads` host threads; returns once all have
  /// ended. After a job throws, no further i starts, and the first failure is rethrown.
  void run(unsigned count, unsigned threads, const std::function<void(unsigned)>& job) {
    if (threads <= 1 || count <= 1) {
      for (unsigned i = 0; i < count; ++i) job(i);
      return;
    }
    resize(threads - 1);
    {
      const std::lock_guard lock(mutex_);
      job_ = &job;
      count_ = count;
      next_.store(0);
      failed_.store(false);
      failure_ = nullptr;
      busy_ = static_cast<unsigned>(helpers_.size());
      ++generation_;
    }
    wake_.notify_all();
    work();
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return busy_ == 0; });
    job_ = nullptr;
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

 private:
  void resize(std::size_t helpers) {
    if (helpers == helpers_.size()) return;
    {
      const std::lock_guard lock(mutex_);
      closing_ = true;
    }
    wake_.notify_all();
    for (auto& helper : helpers_) helper.join();
    helpers_.clear();
    closing_ = false;
    // A helper waits for the generation after this one: it may first take the lock after the
    // next run has begun, and must still take part in it.
    for (std::size_t i = 0; i < helpers; ++i)
      helpers_.emplace_back([this, seen = generation_] { serve(seen); });
  }

  void work() {
    for (;;) {
      const unsigned i = next_.fetch_add(1);
      if (i >= count_ || failed_.load()) return;
      try {
        (*job_)(i);
      } catch (...) {
        const std::lock_guard lock(mutex_);
        if (!failure_) failure_ = std::current_exception();
        failed_.store(true);
      }
    }
  }

  void serve(std::uint64_t seen) {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return closing_ || generation_ != seen; });
      if (closing_) return;
      seen = generation_;
      lock.unlock();
      work();
      lock.lock();
      if (--busy_ == 0) done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned count_ = 0, busy_ = 0;
  std::atomic<unsigned> next_{0};
  std::atomic<bool> failed_{false};
  std::exception_ptr failure_;
  std::uint64_t generation_ = 0;
  bool closing_ = false;
  std::vector<std::thread> helpers_;
};

/// The calling thread's pool (the stream worker that runs the launch).
inline block_pool& this_threads_pool() {
  thread_local block_pool pool;
  return pool;
}

/// One block as the host plays it: its phases, each running the block's threads in the
/// schedule's order (as TSan fibers under ThreadSanitizer).
class block_run {
 public:
  block_run(const char* kernel, const schedule& plan, unsigned block, block_fibers& fibers)
      : kernel_(kernel), plan_(plan), block_(block), fibers_(fibers) {}
  ~block_run() { cuda::detail::count_cost(cuda::detail::costs().block_phases, phase_); }
  block_run(const block_run&) = delete;
  block_run& operator=(const block_run&) = delete;

  unsigned index() const { return block_; }

  /// Runs thread(t) for every t in 0..threads-1, in the schedule's order, as one phase: the
  /// threads see what earlier phases wrote, and a device would not let them see each other's.
  template <class Thread>
  void phase(unsigned threads, Thread&& thread) {
    const running_order order(plan_, threads, mix(name_key(kernel_) ^ mix(block_) ^ phase_++));
    fibers_.run_phase(threads, order, thread);
  }

 private:
  const char* kernel_;
  const schedule& plan_;
  unsigned block_;
  block_fibers& fibers_;
  std::uint64_t phase_ = 0;
};

/// Runs block(run) for every block of a grid of `blocks`, in the schedule's order, on the
/// schedule's block threads; returns once every block has ended.
template <class Block>
void run_grid(const char* kernel, const schedule& plan, unsigned blocks, Block&& block) {
  // Everything a block reads of the launch is made before the launch's fibers are.
  const running_order order(plan, blocks, name_key(kernel));
  auto one_block = [&](unsigned b, block_fibers& fibers) {
    block_run run(kernel, plan, b, fibers);
    block(run);
  };
  launch_fibers<decltype(one_block)> launch(kernel, one_block);
  const std::function<void(unsigned)> job = [&](unsigned i) { launch.run_block(order[i]); };
  this_threads_pool().run(blocks, plan.block_threads, job);
  launch.end();
}

}  // namespace nq::cuda::host
