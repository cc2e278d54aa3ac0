#pragma once
// Host-side pieces both GPU counters share (count.cu's row prefixes, frame_count.cu's frames).

#include <cstddef>
#include <span>
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
