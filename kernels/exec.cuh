#pragma once
// One kernel source, two executions. A kernel is a body: a functor called for each thread of
// the grid (launch_threads), or for each block with its block context (launch_blocks). Under
// nvcc the helpers launch a __global__ function on the default stream. Compiled as plain C++
// (the host execution, which CI runs under the sanitizers) they queue the grid on the host
// stream, which runs it as loops: the blocks in the schedule's order, on one host thread or
// several side by side, and within a block the threads one after another in the schedule's
// order (host/schedule.hpp: forward, reverse or shuffled); a block body's threads go phase by
// phase between barriers. Under ThreadSanitizer each GPU thread runs as a fiber of its own
// (host/fibers.hpp), so TSan reports what would race on a device.
//
// A block body is written bulk-synchronously: its work is a sequence of block.each(phase)
// calls, each followed by a barrier, and the code between them is uniform (every thread takes
// the same branch, reading only shared state and block-wide results). Values a thread keeps
// across phases live in per_thread<T, Block::copies>.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/costs.cuh"
#include "kernels/cuda_check.cuh"
#include "kernels/runtime.cuh"
#include "nqueens/config.hpp"

#if defined(__CUDACC__)
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#else
#include <cstring>
#include <memory>
#include <new>

#include "kernels/host/grid.hpp"
#endif

namespace nq::cuda {

/// The running thread's place in a one-dimensional grid.
struct thread_id {
  unsigned block, thread, blocks, threads;
  NQ_HD std::uint64_t global() const { return std::uint64_t{block} * threads + thread; }
  NQ_HD std::uint64_t grid_threads() const { return std::uint64_t{blocks} * threads; }
};

/// Launch limits every device of ours has (sm_80 and sm_90): block size, grid size, and the
/// shared memory one block may opt in to (227 KiB on the H100; 163 KiB on the A100).
inline constexpr unsigned max_block_threads = 1024;
inline constexpr unsigned max_grid_blocks = 0x7FFFFFFFu;
inline constexpr std::size_t max_shared_bytes = 227 * 1024;
/// Static shared memory a block body may use besides its shared_state (CUB's temporary
/// storage: 2,448 bytes in block_chains.cu on sm_90), counted against the limit.
inline constexpr std::size_t static_shared_allowance = 4 * 1024;

/// Refuses a launch a device would refuse, with the reason; the same check in both executions.
inline void check_launch(const char* kernel, unsigned blocks, unsigned threads,
                         std::size_t shared_bytes) {
  if (blocks == 0 || blocks > max_grid_blocks || threads == 0 || threads > max_block_threads ||
      shared_bytes > max_shared_bytes)
    throw cuda_error(std::string("invalid launch of ") + kernel + ": " + std::to_string(blocks) +
                     " blocks of " + std::to_string(threads) + " threads with " +
                     std::to_string(shared_bytes) + " bytes of shared memory");
}

/// Blocks for `work` items at `block` threads each, capped for grid-stride loops.
inline unsigned grid_size(index_t work, unsigned block, unsigned max_blocks = 1u << 16) {
  const index_t blocks = (work + block - 1) / block;
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks > max_blocks ? max_blocks : blocks);
}

/// Values each thread keeps across a block body's barriers: one per thread on the device, the
/// whole block's on the host, where one loop plays every thread. Indexed by the thread.
template <class T, unsigned Copies>
struct per_thread {
  T value[Copies];
  NQ_HD T& operator[](unsigned t) { return value[Copies == 1 ? 0 : t]; }
};

#if defined(__CUDACC__)

struct smaller_of {
  __device__ std::int32_t operator()(std::int32_t a, std::int32_t b) const { return a < b ? a : b; }
};

struct smaller_of_u64 {
  __device__ std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const {
    return a < b ? a : b;
  }
};

/// A block as its threads see it on the device.
template <unsigned Threads>
class block_context {
 public:
  static constexpr unsigned threads = Threads;
  static constexpr unsigned copies = 1;

  __device__ explicit block_context(unsigned char* shared) : shared_(shared) {}
  __device__ unsigned index() const { return blockIdx.x; }
  /// The block's dynamic shared memory (16-byte aligned).
  __device__ unsigned char* shared() const { return shared_; }

  /// Runs phase(t) as thread t, then waits for the block.
  template <class Phase>
  __device__ void each(Phase phase) {
    phase(threadIdx.x);
    __syncthreads();
  }

  /// The least of value(t) over the block's threads t, handed to every thread.
  template <class Value>
  __device__ std::int32_t min(Value value) {
    using reduce = cub::BlockReduce<std::int32_t, Threads>;
    __shared__ typename reduce::TempStorage storage;
    __shared__ std::int32_t result;
    const std::int32_t least = reduce(storage).Reduce(value(threadIdx.x), smaller_of{});
    if (threadIdx.x == 0) result = least;
    __syncthreads();
    const std::int32_t out = result;
    __syncthreads();  // before the storage or the result is used again
    return out;
  }

  /// The least of value(t) as 64 bits over the block's threads t, handed to every thread.
  template <class Value>
  __device__ std::uint64_t min64(Value value) {
    using reduce = cub::BlockReduce<std::uint64_t, Threads>;
    __shared__ typename reduce::TempStorage storage;
    __shared__ std::uint64_t result;
    const std::uint64_t least = reduce(storage).Reduce(value(threadIdx.x), smaller_of_u64{});
    if (threadIdx.x == 0) result = least;
    __syncthreads();
    const std::uint64_t out = result;
    __syncthreads();  // before the storage or the result is used again
    return out;
  }

  /// Sets before[t] to the sum of value(u) over the threads u < t; returns the block's sum.
  template <class Value>
  __device__ std::uint64_t exclusive_sum(Value value, per_thread<std::uint64_t, copies>& before) {
    using scan = cub::BlockScan<std::uint64_t, Threads>;
    __shared__ typename scan::TempStorage storage;
    std::uint64_t total = 0;
    scan(storage).ExclusiveSum(value(threadIdx.x), before[0], total);
    __syncthreads();  // before the storage is used again
    return total;
  }

 private:
  unsigned char* shared_;
};

template <class Body>
__global__ void thread_kernel(Body body) {
  body(thread_id{blockIdx.x, threadIdx.x, gridDim.x, blockDim.x});
}

template <unsigned Threads, class Body>
__global__ void __launch_bounds__(Threads) block_kernel(Body body) {
  extern __shared__ __align__(16) unsigned char dynamic_shared[];
  __shared__ typename Body::shared_state state;
  block_context<Threads> block(dynamic_shared);
  body(block, state);
}

/// block_kernel for a Body that names the blocks an SM must hold at once
/// (`Body::resident_blocks`, __launch_bounds__' second figure): ptxas keeps its registers
/// within an SM's share for them.
template <unsigned Threads, unsigned Resident, class Body>
__global__ void __launch_bounds__(Threads, Resident) block_kernel_resident(Body body) {
  extern __shared__ __align__(16) unsigned char dynamic_shared[];
  __shared__ typename Body::shared_state state;
  block_context<Threads> block(dynamic_shared);
  body(block, state);
}

/// The kernel launch_blocks launches for Body: block_kernel_resident when Body names its
/// resident blocks, else block_kernel.
template <unsigned Threads, class Body>
constexpr auto block_entry() {
  if constexpr (requires { Body::resident_blocks; })
    return &block_kernel_resident<Threads, Body::resident_blocks, Body>;
  else
    return &block_kernel<Threads, Body>;
}

#else

struct host_shared_free {
  void operator()(unsigned char* bytes) const { ::operator delete (bytes, std::align_val_t{16}); }
};

/// A block as the host execution plays it: each phase runs every thread, in the schedule's
/// order (host/schedule.hpp), as TSan fibers under ThreadSanitizer (host/fibers.hpp).
template <unsigned Threads>
class block_context {
 public:
  static constexpr unsigned threads = Threads;
  static constexpr unsigned copies = Threads;

  block_context(host::block_run& run, unsigned char* shared) : run_(run), shared_(shared) {}
  unsigned index() const { return run_.index(); }
  unsigned char* shared() const { return shared_; }

  template <class Phase>
  void each(Phase phase) {
    run_.phase(Threads, phase);
  }

  template <class Value>
  std::int32_t min(Value value) {
    return least(value, std::int32_t{});
  }

  template <class Value>
  std::uint64_t min64(Value value) {
    return least(value, std::uint64_t{});
  }

  template <class Value>
  std::uint64_t exclusive_sum(Value value, per_thread<std::uint64_t, copies>& before) {
    std::uint64_t values[Threads];
    run_.phase(Threads, [&](unsigned t) { values[t] = value(t); });  // each thread its own
    std::uint64_t sum = 0;
    for (unsigned t = 0; t < Threads; ++t) {
      before[t] = sum;
      sum += values[t];
    }
    return sum;
  }

 private:
  /// The least value(t), each thread computing its own in a phase, as a block reduction does.
  template <class Value, class T>
  T least(Value& value, T) {
    T values[Threads];
    run_.phase(Threads, [&](unsigned t) { values[t] = static_cast<T>(value(t)); });
    T smallest = values[0];
    for (unsigned t = 1; t < Threads; ++t) smallest = values[t] < smallest ? values[t] : smallest;
    return smallest;
  }

  host::block_run& run_;
  unsigned char* shared_;
};

#endif

/// Blocks of `threads` threads running `body` (launch_threads) that the calling thread's device
/// holds at once: the occupancy calculator's count an SM (registers, local memory) times the
/// SMs. In the host execution, 2,048 threads' worth (an SM of ours at full occupancy).
template <class Body>
unsigned resident_grid_blocks(unsigned threads, const Body&) {
#if defined(__CUDACC__)
  int device = 0, per_sm = 0;
  NQ_CUDA_TRY(cudaGetDevice(&device));
  NQ_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, thread_kernel<Body>,
                                                            static_cast<int>(threads), 0));
  return static_cast<unsigned>(per_sm > 0 ? per_sm : 1) * multiprocessors(device);
#else
  return threads >= 2048 ? 1 : 2048 / threads;
#endif
}

/// Launches body(thread_id) on every thread of `blocks` blocks of `threads` threads, on the
/// default stream; returns before the work is done.
template <class Body>
void launch_threads(const char* name, unsigned blocks, unsigned threads, const Body& body) {
  check_launch(name, blocks, threads, 0);
  detail::count_cost(detail::costs().launches);
  kernel_clock::before_launch();
#if defined(__CUDACC__)
  thread_kernel<<<blocks, threads>>>(body);
  NQ_CUDA_TRY(cudaGetLastError());
#else
  const host::schedule plan = host::current_schedule();
  default_stream().enqueue([name, plan, blocks, threads, body] {
    host::run_grid(name, plan, blocks, [&](host::block_run& run) {
      const unsigned b = run.index();
      run.phase(threads, [&](unsigned t) { body(thread_id{b, t, blocks, threads}); });
    });
  });
#endif
}

/// Launches body(block, state) on `blocks` blocks of Threads threads with `shared_bytes` of
/// dynamic shared memory (opted in, for sizes past 48 KiB) and a Body::shared_state in static
/// shared memory, which, like the dynamic bytes, starts uninitialised; returns before the work is
/// done.
template <unsigned Threads, class Body>
void launch_blocks(const char* name, unsigned blocks, std::size_t shared_bytes, const Body& body) {
  check_launch(name, blocks, Threads,
               shared_bytes + sizeof(typename Body::shared_state) + static_shared_allowance);
  detail::count_cost(detail::costs().launches);
#if defined(__CUDACC__)
  // Static and dynamic shared memory past 48 KiB together need the opt-in: always given.
  if (shared_bytes > 0)
    NQ_CUDA_TRY(cudaFuncSetAttribute(block_entry<Threads, Body>(),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(shared_bytes)));
  kernel_clock::before_launch();
  block_entry<Threads, Body>()<<<blocks, Threads, shared_bytes>>>(body);
  NQ_CUDA_TRY(cudaGetLastError());
#else
  kernel_clock::before_launch();
  const host::schedule plan = host::current_schedule();
  default_stream().enqueue([name, plan, blocks, shared_bytes, body] {
    using state_t = typename Body::shared_state;
    host::run_grid(name, plan, blocks, [&](host::block_run& run) {
      // Fresh for each block (blocks may run side by side): exactly the bytes asked for, so that
      // ASan sees an overrun, and new memory to TSan, so that one block's threads do not race
      // with another's over it.
      const std::unique_ptr<unsigned char, host_shared_free> shared(static_cast<unsigned char*>(
          ::operator new (shared_bytes == 0 ? 1 : shared_bytes, std::align_val_t{16})));
      const std::unique_ptr<state_t> state(new state_t);
      std::memset(shared.get(), detail::uninitialised_byte, shared_bytes);
      std::memset(static_cast<void*>(state.get()), detail::uninitialised_byte, sizeof(state_t));
      block_context<Threads> block(run, shared.get());
      body(block, *state);
    });
  });
#endif
}

/// Shared memory one SM of ours offers its blocks (228 KiB on sm_90), the runtime's reserve
/// per block, and the threads and blocks an SM holds at most: the host execution's stand-in
/// for the occupancy calculator (resident_blocks).
inline constexpr std::size_t host_sm_shared_bytes = 228 * 1024;
inline constexpr std::size_t host_block_reserved_shared = 1024;
inline constexpr unsigned host_sm_threads = 2048, host_sm_blocks = 32;

/// Blocks of Body (Threads threads, `shared_bytes` of dynamic shared memory) one multiprocessor
/// of the current device holds at once, registers, shared memory and thread limits together
/// (cudaOccupancyMaxActiveBlocksPerMultiprocessor, at least 1). The host execution, which has
/// no registers to count, stands in with the shared memory and thread limits of an sm_90 SM.
template <unsigned Threads, class Body>
unsigned resident_blocks(std::size_t shared_bytes) {
#if defined(__CUDACC__)
  if (shared_bytes > 0)  // the opt-in launch_blocks gives, or past 48 KiB the answer is 0
    NQ_CUDA_TRY(cudaFuncSetAttribute(block_entry<Threads, Body>(),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(shared_bytes)));
  int blocks = 0;
  NQ_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, block_entry<Threads, Body>(), static_cast<int>(Threads), shared_bytes));
  return blocks > 0 ? static_cast<unsigned>(blocks) : 1u;
#else
  const std::size_t per_block =
      shared_bytes + sizeof(typename Body::shared_state) + host_block_reserved_shared;
  const std::size_t by_shared = host_sm_shared_bytes / per_block;
  const std::size_t cap = std::min<std::size_t>(host_sm_threads / Threads, host_sm_blocks);
  return static_cast<unsigned>(std::clamp<std::size_t>(by_shared, 1, cap));
#endif
}

}  // namespace nq::cuda
