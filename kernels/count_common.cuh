#pragma once
// Host-side pieces both GPU counters share (count.cu's row prefixes, frame_count.cu's frames).

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <thread>
#include <vector>

#include "kernels/device_ops.cuh"
#include "kernels/runtime.cuh"
#include "nqueens/count.hpp"

namespace nq::cuda {

/// After a failure on the host while a counting kernel still runs: the kernel writes into
/// memory freed on the way out, so raise its stop flag and wait for it. A failure while waiting
/// is dropped: the first one is the one to report.
inline void stop_and_wait(unsigned* stop_flag) {
  raise_flag(stop_flag);
  try {
    synchronize();
  } catch (const cuda_error&) {
  }
}

/// How often the host looks at a counting launch's flags: a count's launch runs for seconds, so
/// rarely enough to leave the host's cores to the CPU's share of the count.
inline constexpr auto count_poll_period = std::chrono::milliseconds(20);

/// Follows a counting launch, just started, to its end on the host. Records `end` after it;
/// then every count_poll_period hands `finished`, in one batch, the positions of `waiting`
/// whose flag in `done` is up, with their tallies, and raises the kernel's `stop_flag` once
/// `stop` is set; a last batch once the stream is idle (every flag it raised is visible then),
/// and a failed kernel reported. On any failure (a callback's too) the kernel is stopped and
/// waited for before the exception goes on.
inline void follow_count(
    cuda_event& end, std::vector<std::uint32_t> waiting, mapped_buffer<count_tally>& tallies,
    mapped_buffer<unsigned>& done, mapped_buffer<unsigned>& stop_flag,
    const std::atomic<bool>* stop,
    const std::function<void(std::span<const finished_subproblem>)>& finished) {
  try {
    end.record();
    std::vector<finished_subproblem> batch;
    batch.reserve(waiting.size());
    for (bool raised = false;;) {
      const bool over = stream_idle();  // then every flag it raised is visible below
      batch.clear();
      std::size_t kept = 0;
      for (const std::uint32_t position : waiting) {
        if (read_flag(done.host() + position))
          batch.push_back({position, tallies.host()[position]});
        else
          waiting[kept++] = position;
      }
      waiting.resize(kept);
      if (!batch.empty()) finished(batch);
      if (over) break;
      if (!raised && stop && stop->load(std::memory_order_relaxed)) {
        raise_flag(stop_flag.host());
        raised = true;
      }
      std::this_thread::sleep_for(count_poll_period);
    }
    synchronize();  // reports a failed kernel
  } catch (...) {
    stop_and_wait(stop_flag.host());
    throw;
  }
}

/// Runs a count to its end and returns every tally in position order; `count(finished)` runs it,
/// calling `finished` with each batch of finished subproblems. Throws `unfinished` if any
/// position was never reported.
template <class Count>
std::vector<count_tally> collect_tallies(std::size_t positions, const char* unfinished,
                                         Count count) {
  std::vector<count_tally> tallies(positions);
  std::vector<char> seen(positions, 0);
  count([&](std::span<const finished_subproblem> done) {
    for (const auto& f : done) {
      tallies[f.position] = f.tally;
      seen[f.position] = 1;
    }
  });
  for (const char s : seen)
    if (!s) throw cuda_error(unfinished);
  return tallies;
}

}  // namespace nq::cuda
