// Counting on the GPU: one thread per subproblem, pulled from an atomic counter, each running
// the same NQ_HD bitboard search over canonical frames as the CPU (constellation.hpp). Each
// subproblem's tally and "finished" flag go to mapped host memory as it ends, so the host
// records progress while the launch runs; a stop flag the host raises ends every thread within
// count_stop_interval nodes.

#include <utility>

#include "kernels/count_common.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/error.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned count_block = 128;

struct count_subproblems {
  int n;
  const count_prefix* subs;
  const std::uint32_t* indices;
  std::uint32_t count;
  const std::uint16_t* frame_class;
  unsigned* next;        // device: the next position to take
  count_tally* tallies;  // mapped: the tally of position i, once final
  unsigned* finished;    // mapped: raised once tallies[i] is final
  const unsigned* stop;  // mapped: raised by the host

  NQ_HD void operator()(thread_id) const {
    const auto stopped = [this] { return stop_raised(stop); };
    while (!stopped()) {
      const unsigned i = atomic_add(next, 1u);
      if (i >= count) return;
      count_tally tally;
      if (!count_prefix_completions_until(n, subs[indices[i]], frame_class, tally, stopped)) return;
      tallies[i] = tally;
      raise_flag(finished + i);
    }
  }
};

template <class T>
device_buffer<T> upload(const std::vector<T>& host) {
  device_buffer<T> device(host.size());
  copy_to_device(device.data(), host.data(), host.size());
  return device;
}

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

struct subproblem_counter::impl {
  int n;
  cuda::device_buffer<count_prefix> subs;
  cuda::device_buffer<std::uint16_t> frame_class;
  unsigned blocks;
  double kernel_seconds = 0.0;
};

subproblem_counter::subproblem_counter(int n, const std::vector<count_prefix>& subs,
                                       const std::vector<std::uint16_t>& frame_class) {
  // Enough resident threads to keep every SM busy while the slow subproblems finish.
  const unsigned blocks = cuda::multiprocessors(0) * 16;
  impl_ = std::make_unique<impl>(impl{n, cuda::upload(subs), cuda::upload(frame_class), blocks});
}

subproblem_counter::~subproblem_counter() = default;

void subproblem_counter::count(
    const std::vector<std::uint32_t>& indices, const std::atomic<bool>* stop,
    const std::function<void(std::span<const finished_subproblem>)>& finished) {
  if (indices.empty()) return;
  // Threads take positions past the end once before they stop: those must not wrap.
  NQ_EXPECTS(indices.size() <= UINT32_MAX - std::uint64_t{impl_->blocks} * cuda::count_block,
             "positions fit 32 bits");
  const auto count = static_cast<std::uint32_t>(indices.size());
  const auto d_indices = cuda::upload(indices);
  cuda::device_buffer<unsigned> next(1);
  cuda::fill_bytes(next.data(), 0, 1);
  cuda::mapped_buffer<count_tally> tallies(count);
  cuda::mapped_buffer<unsigned> done(count), stop_flag(1);
  cuda::cuda_event start, end;
  std::vector<std::uint32_t> waiting(count);
  for (std::uint32_t i = 0; i < count; ++i) waiting[i] = i;
  start.record();
  cuda::launch_threads(
      "count_subproblems", impl_->blocks, cuda::count_block,
      cuda::count_subproblems{impl_->n, impl_->subs.data(), d_indices.data(), count,
                              impl_->frame_class.data(), next.data(), tallies.device(),
                              done.device(), stop_flag.device()});
  cuda::follow_count(end, std::move(waiting), tallies, done, stop_flag, stop, finished);
  impl_->kernel_seconds += cuda::elapsed_seconds(start, end);
}

std::vector<count_tally> subproblem_counter::count(const std::vector<std::uint32_t>& indices) {
  return cuda::collect_tallies(indices.size(), "the GPU counter left a subproblem unfinished",
                               [&](const auto& finished) { count(indices, nullptr, finished); });
}

double subproblem_counter::kernel_seconds() const { return impl_->kernel_seconds; }

}  // namespace nq::gpu
