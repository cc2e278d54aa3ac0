#pragma once
// GPU threads as ThreadSanitizer fibers. The host execution runs one GPU thread at a time, so
// on its own it can show no race; under TSan each GPU thread runs as a fiber of its own, and
// the only orders TSan is told of are a device's: what the host did before a launch comes
// before the launch's threads, a barrier orders a block's phases (each thread releases at the
// end of a phase, the block acquires, the next phase's threads acquire from it), and a launch's
// end comes before what the host does after it. Nothing orders two threads of one phase, nor
// two blocks of one launch, so TSan reports them when they touch one byte (one writing) without
// an atomic, naming the kernel, the block and the thread. Fibers are costly, so a host thread
// keeps a fixed set: threads t and t + 32 of a block share one (a race between exactly those
// two is missed), and blocks alternate between two sets (so blocks b and b + 1 never share).
// The fibers share the host thread's stack, so each runs at a depth of its own below the
// caller: their frames never overlap, which TSan would take for races. Without TSan, all of
// this is the plain loop. Only the host execution includes this.

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>

#include "kernels/host/schedule.hpp"

#if defined(__SANITIZE_THREAD__)
#define NQ_HOST_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NQ_HOST_FIBERS 1
#endif
#endif
#ifndef NQ_HOST_FIBERS
#define NQ_HOST_FIBERS 0
#endif

#if NQ_HOST_FIBERS
#include <alloca.h>
#include <sanitizer/tsan_interface.h>
#endif

namespace nq::cuda::host {

/// Whether GPU threads run as TSan fibers (a ThreadSanitizer build).
inline constexpr bool fibers_on = NQ_HOST_FIBERS != 0;

#if NQ_HOST_FIBERS

inline constexpr unsigned fiber_lanes = 32;
/// Stack for one GPU thread's frames; the gap keeps the switching frames' callees clear.
inline constexpr std::size_t lane_stack_bytes = 16 * 1024;
inline constexpr std::size_t stack_gap = 64 * 1024;
/// One set's share of the stack: a block body's frame, then its lanes.
inline constexpr std::size_t set_stack_bytes =
    256 * 1024 + stack_gap + fiber_lanes * lane_stack_bytes;

/// A host thread's fibers: two sets (alternate blocks) of a block controller and 32 lanes.
struct fiber_set {
  void* base = __tsan_get_current_fiber();
  void* controller[2] = {};
  void* lane[2][fiber_lanes] = {};
  fiber_set() {
    for (unsigned s = 0; s < 2; ++s) {
      controller[s] = __tsan_create_fiber(0);
      for (unsigned t = 0; t < fiber_lanes; ++t) lane[s][t] = __tsan_create_fiber(0);
    }
  }
  fiber_set(const fiber_set&) = delete;
  fiber_set& operator=(const fiber_set&) = delete;
  ~fiber_set() {
    for (unsigned s = 0; s < 2; ++s) {
      __tsan_destroy_fiber(controller[s]);
      for (unsigned t = 0; t < fiber_lanes; ++t) __tsan_destroy_fiber(lane[s][t]);
    }
  }
};

inline fiber_set& this_threads_fibers() {
  thread_local fiber_set set;
  return set;
}

/// Runs fn(index) as `fiber`, `depth` bytes below the caller's frame, ordered after what was
/// released to `in`, releasing to `out` at its end; back to the caller's fiber afterwards, also
/// when fn throws. What passes between the fibers does so in registers or in memory written
/// before `in` was released, never in this frame, which the next call writes again.
template <class Fn>
[[gnu::noinline]] void call_below(Fn& fn, unsigned index) {
  fn(index);  // out of line, so that its frame lies below the caller's alloca
}

template <class Fn>
[[gnu::noinline]] void run_as(void* fiber, std::size_t depth, void* in, void* out, Fn& fn,
                              unsigned index) {
  void* pad = alloca(depth);
  asm volatile("" : : "r"(pad) : "memory");
  void* const back = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(fiber, __tsan_switch_to_fiber_no_sync);
  __tsan_acquire(in);
  try {
    call_below(fn, index);
  } catch (...) {
    __tsan_switch_to_fiber(back, __tsan_switch_to_fiber_no_sync);
    throw;
  }
  __tsan_release(out);
  __tsan_switch_to_fiber(back, __tsan_switch_to_fiber_no_sync);
}

/// One block's fibers and the orders between its phases, made by its controller fiber.
class block_fibers {
 public:
  block_fibers(const char* kernel, unsigned block, fiber_set& set)
      : kernel_(kernel), block_(block), set_(set), sync_(std::make_unique<char[]>(2)) {}

  /// Runs thread(order[i]) for every i as one phase, each thread on its lane's fiber: ordered
  /// after the block's earlier phases, not after each other.
  template <class Thread>
  void run_phase(unsigned threads, const running_order& order, Thread& thread) {
    if (!named_) name_lanes(threads);
    const unsigned s = block_ % 2;
    __tsan_release(&sync_[0]);  // the block's state so far, to every thread
    for (unsigned i = 0; i < threads; ++i) {
      const unsigned t = order[i];
      run_as(set_.lane[s][t % fiber_lanes], stack_gap + (t % fiber_lanes) * lane_stack_bytes,
             &sync_[0], &sync_[1], thread, t);
    }
    __tsan_acquire(&sync_[1]);  // the barrier: every thread's phase, to the block
  }

 private:
  void name_lanes(unsigned threads) {
    named_ = true;
    char name[160];
    const unsigned s = block_ % 2;
    for (unsigned t = 0; t < fiber_lanes && t < threads; ++t) {
      std::snprintf(name, sizeof name, "%s block %u thread %u%s", kernel_, block_, t,
                    threads > fiber_lanes ? " (or +32k)" : "");
      __tsan_set_fiber_name(set_.lane[s][t], name);
    }
  }

  const char* kernel_;
  unsigned block_;
  fiber_set& set_;
  std::unique_ptr<char[]> sync_;  // fresh per block, so that no order carries over
  bool named_ = false;
};

/// One launch: what the host did before it comes before its blocks, and their end before what
/// the host does after it; nothing orders its blocks (but blocks b and b + 2 on one host
/// thread, which share a controller fiber).
template <class Block>
class launch_fibers {
 public:
  /// `block(b, fibers)` runs block b; it must live until end().
  launch_fibers(const char* kernel, Block& block)
      : kernel_(kernel), block_(block), sync_(std::make_unique<char[]>(2)) {
    __tsan_release(&sync_[0]);
  }
  /// On the launching thread, once every block has ended.
  void end() { __tsan_acquire(&sync_[1]); }

  /// Runs block b on the calling host thread, as its controller fiber.
  void run_block(unsigned b) {
    fiber_set& set = this_threads_fibers();
    // This host thread's fibers (made on its first block) and its bookkeeping, to the block;
    // the host thread holds nothing of any block's threads, so nothing more is ordered.
    __tsan_release(&sync_[0]);
    run_as(set.controller[b % 2], stack_gap + (b % 2) * set_stack_bytes, &sync_[0], &sync_[1],
           *this, b);
  }

  /// The controller's work (run_as calls it on the controller fiber).
  void operator()(unsigned b) {
    fiber_set& set = this_threads_fibers();
    char name[160];
    std::snprintf(name, sizeof name, "%s block %u", kernel_, b);
    __tsan_set_fiber_name(set.controller[b % 2], name);
    block_fibers fibers(kernel_, b, set);
    block_(b, fibers);
  }

 private:
  const char* kernel_;
  Block& block_;
  std::unique_ptr<char[]> sync_;  // [0]: before the launch, [1]: its end
};

#else

/// Without TSan: a phase is the loop over its threads in the schedule's order.
class block_fibers {
 public:
  block_fibers(const char*, unsigned, int) {}
  template <class Thread>
  void run_phase(unsigned threads, const running_order& order, Thread& thread) {
    for (unsigned i = 0; i < threads; ++i) thread(order[i]);
  }
};

template <class Block>
class launch_fibers {
 public:
  launch_fibers(const char* kernel, Block& block) : kernel_(kernel), block_(block) {}
  void end() {}
  void run_block(unsigned b) {
    block_fibers fibers(kernel_, b, 0);
    block_(b, fibers);
  }

 private:
  const char* kernel_;
  Block& block_;
};

#endif

}  // namespace nq::cuda::host
