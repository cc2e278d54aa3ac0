// The parallel placement on the GPU: the NQ_HD claim and resolve steps of placement.hpp, one
// block of columns per thread, a launch per phase. The board stays on the device until the end.

#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <algorithm>
#include <vector>

#include "core/stopwatch.hpp"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "kernels/thrust_policy.cuh"
#include "nqueens/construction.hpp"
#include "nqueens/placement.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned block_threads = 128;
constexpr unsigned rounds_per_check = 32;             // rounds launched between host checks
constexpr std::uint64_t max_insert_tries = 1u << 16;  // as on the CPU

struct init_board {
  row_t* queen_row;
  std::uint64_t* diag;
  std::uint64_t* anti_diag;
  index_t n, segments, words;
  NQ_HD void operator()(thread_id id) const {
    for (index_t col = id.global(); col < n; col += id.grid_threads())
      queen_row[col] = placement_initial_row(n, segments, col);
    for (index_t w = id.global(); w < words; w += id.grid_threads()) diag[w] = anti_diag[w] = 0;
  }
};

struct start_blocks {
  placement_view v;
  std::uint64_t seed, restart;
  unsigned pass;
  unsigned long long* done;
  NQ_HD void operator()(thread_id id) const {
    for (index_t j = id.global(); j < v.blocks; j += id.grid_threads())
      if (placement_start(v, j, seed, restart, pass)) atomic_add(done, 1ull);
  }
};

/// Counts a round while some block has work: the steps, equal to the CPU's.
struct count_round {
  const unsigned long long* done;
  unsigned long long* rounds;
  index_t blocks;
  NQ_HD void operator()(thread_id) const {
    if (*done < blocks) ++*rounds;
  }
};

struct claim_blocks {
  placement_view v;
  unsigned long long* done;
  NQ_HD void operator()(thread_id id) const {
    for (index_t j = id.global(); j < v.blocks; j += id.grid_threads())
      if (placement_claim(v, j)) atomic_add(done, 1ull);
  }
};

struct resolve_blocks {
  placement_view v;
  unsigned long long* done;
  NQ_HD void operator()(thread_id id) const {
    for (index_t j = id.global(); j < v.blocks; j += id.grid_threads())
      if (placement_resolve(v, j)) atomic_add(done, 1ull);
  }
};

/// The insertion of the deferred columns, on one thread: status 1 when all were inserted;
/// `inserted` counts those that were.
struct insert_deferred {
  placement_view v;
  index_t count;
  std::uint64_t seed, restart, max_tries;
  unsigned long long* tries;
  unsigned long long* inserted;
  unsigned* status;
  NQ_HD void operator()(thread_id) const {
    philox_stream rng = placement_stream(seed, restart, 255, 0);
    std::uint64_t used = 0;
    index_t i = 0;
    while (i < count && placement_insert(v, v.deferred, count, i, rng, max_tries, used)) ++i;
    *tries = used;
    *inserted = i;
    *status = i == count ? 1u : 0u;
  }
};

/// The device arrays of one run.
struct placement_device {
  device_buffer<row_t> queen_row;
  device_buffer<std::uint64_t> diag, anti_diag, seg_next, seg_prefix, cur, quota, candidate;
  device_buffer<philox_stream> rng;
  device_buffer<std::uint8_t> claimed;
  device_buffer<std::uint32_t> deferred;
  device_buffer<unsigned long long> counters;  // deferred, done, rounds, tries, inserted
  device_buffer<unsigned> status;

  placement_device(index_t n, index_t segments)
      : queen_row(n),
        diag(placement_line_words(n)),
        anti_diag(placement_line_words(n)),
        seg_next(segments),
        seg_prefix(segments + 1),
        cur(segments),
        quota(segments),
        candidate(segments * placement_candidates),
        rng(segments),
        claimed(segments),
        deferred(placement_deferred_capacity(n)),
        counters(5),
        status(1) {}

  placement_view view(index_t n, index_t segments, index_t group) {
    return {queen_row.data(),
            diag.data(),
            anti_diag.data(),
            seg_next.data(),
            seg_prefix.data(),
            cur.data(),
            quota.data(),
            candidate.data(),
            rng.data(),
            claimed.data(),
            deferred.data(),
            counters.data(),
            deferred.size(),
            n,
            segments,
            group,
            (segments + group - 1) / group};
  }
};

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

solve_result solve_placement(index_t n, const placement_settings& settings) {
  using namespace nq::cuda;
  solve_result result;
  if (!solution_exists(n)) return result;
  const nq::detail::stopwatch clock;
  const index_t segments = placement_segments(n), words = placement_line_words(n);
  placement_device d(n, segments);
  unsigned long long* deferred_count = d.counters.data();
  unsigned long long* done = deferred_count + 1;
  unsigned long long* rounds = deferred_count + 2;
  unsigned long long* tries = deferred_count + 3;
  unsigned long long* inserted = deferred_count + 4;
  const auto& lim = settings.limits;
  bool stopped = false;
  std::vector<index_t> seg_next(segments), seg_prefix(segments + 1);
  std::uint64_t steps_before = 0;  // steps of earlier passes and restarts
  const auto limit_reached = [&](std::uint64_t steps) {
    stopped = (lim.max_steps && steps >= lim.max_steps) ||
              (lim.time_limit > 0 && clock.seconds() >= lim.time_limit) ||
              (lim.stop && lim.stop->load(std::memory_order_relaxed));
    return stopped;
  };
  for (;; ++result.restarts) {
    launch_threads(
        "placement_init", grid_size(std::max(n, words), block_threads), block_threads,
        init_board{d.queen_row.data(), d.diag.data(), d.anti_diag.data(), n, segments, words});
    for (index_t k = 0; k < segments; ++k) seg_next[k] = placement_segment_begin(n, segments, k);
    copy_to_device(d.seg_next.data(), seg_next.data(), segments);
    fill_bytes(deferred_count, 0, 1);
    bool placed = true;
    for (unsigned pass = 0; placed; ++pass) {
      const index_t group = index_t{1} << pass;
      const placement_view v = d.view(n, segments, group);
      copy_to_host(seg_next.data(), d.seg_next.data(), segments);
      index_t open = 0;
      for (index_t k = 0; k < segments; ++k) {
        seg_prefix[k] = open;
        open += placement_segment_begin(n, segments, k + 1) - seg_next[k];
      }
      seg_prefix[segments] = open;
      copy_to_device(d.seg_prefix.data(), seg_prefix.data(), segments + 1);
      fill_bytes(done, 0, 2);  // done and rounds
      const unsigned grid = grid_size(v.blocks, block_threads);
      launch_threads("placement_start", grid, block_threads,
                     start_blocks{v, settings.seed, result.restarts, pass, done});
      unsigned long long host[3];  // deferred, done, rounds
      for (;;) {
        for (unsigned r = 0; r < rounds_per_check; ++r) {
          launch_threads("placement_round", 1, 1, count_round{done, rounds, v.blocks});
          launch_threads("placement_claim", grid, block_threads, claim_blocks{v, done});
          launch_threads("placement_resolve", grid, block_threads, resolve_blocks{v, done});
        }
        copy_to_host(host, d.counters.data(), 3);
        if (host[1] == v.blocks) {
          steps_before += host[2];
          break;
        }
        if (limit_reached(steps_before + host[2])) {
          // The rounds launched past the limit are the device's; the steps say what ran.
          steps_before += host[2];
          break;
        }
      }
      if (stopped) break;
      // An overflowed list restarts at once, as on the CPU: the same steps and time.
      if (host[0] > d.deferred.size()) break;
      if (group >= segments) break;
    }
    unsigned long long count = 0;
    copy_to_host(&count, deferred_count, 1);
    if (stopped) {
      copy_to_host(seg_next.data(), d.seg_next.data(), segments);
      result.unplaced = std::min<index_t>(count, d.deferred.size());
      for (index_t k = 0; k < segments; ++k)
        result.unplaced += placement_segment_begin(n, segments, k + 1) - seg_next[k];
      break;
    }
    if (count > d.deferred.size()) continue;
    thrust_step("sorting the deferred columns",
                [&] { thrust::sort(on_device(), d.deferred.data(), d.deferred.data() + count); });
    launch_threads(
        "placement_insert", 1, 1,
        insert_deferred{d.view(n, segments, 1), count, settings.seed, result.restarts,
                        std::min(max_insert_tries, 64 + 16 * n), tries, inserted, d.status.data()});
    unsigned ok = 0;
    unsigned long long used = 0, done_count = 0;
    copy_to_host(&ok, d.status.data(), 1);
    copy_to_host(&used, tries, 1);
    copy_to_host(&done_count, inserted, 1);
    steps_before += used;
    if (ok) break;
    if (limit_reached(steps_before)) {
      result.unplaced = count - done_count;  // the deferred columns from the failed one on
      break;
    }
  }
  result.steps = steps_before;
  result.solved = !stopped;
  result.queen_row.resize(n);
  copy_to_host(result.queen_row.data(), d.queen_row.data(), n);
  result.seconds = clock.seconds();
  return result;
}

}  // namespace nq::gpu
