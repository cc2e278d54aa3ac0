#pragma once
// What the GPU paths pay for on the host side, counted where it is paid in both executions:
// kernel launches, blocking waits for the device, copies each way, device allocations
// (Thrust's temporaries included, through thrust_policy.cuh) and Thrust calls. A GPU pays
// microseconds for each; the host execution pays almost nothing, so these counts are how the
// tests see a launch storm or an allocation per generation without a device (gpu::costs()).

#include <atomic>
#include <cstdint>

namespace nq::cuda::detail {

struct cost_tally {
  std::atomic<std::uint64_t> launches{0}, syncs{0}, to_host_copies{0}, to_host_bytes{0},
      to_device_copies{0}, allocations{0}, allocated_bytes{0},
      block_phases{0},  // the host execution's only: a device's barriers are not counted
      thrust_calls{0};  // calls given a policy of thrust_policy.cuh
};

/// The process's tally (every host thread, every device).
inline cost_tally& costs() {
  static cost_tally tally;
  return tally;
}

inline void count_cost(std::atomic<std::uint64_t>& counter, std::uint64_t by = 1) {
  counter.fetch_add(by, std::memory_order_relaxed);
}

}  // namespace nq::cuda::detail
