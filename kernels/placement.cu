// The parallel placement on the GPU: the NQ_HD start, claim and resolve steps of placement.hpp.
// A pass runs all its rounds in one launch of one block, each thread playing every
// pass_threads-th block of columns between the block's barriers, so that the host pays a launch
// and a few copies a pass, not a launch a phase of every round (issue 29). The passes of a few
// blocks and the insertion run on the host, the board handed over once: a round of a few claims
// is a chain of dependent loads, several times shorter on one CPU core than on one SM (estimate,
// docs/gpu-costs.md). Both sides call the same steps in the CPU's order: the same board.

#include <algorithm>
#include <vector>

#include "kernels/gpu.hpp"
#include "kernels/placement_pass.cuh"
#include "kernels/runtime.cuh"
#include "nqueens/construction.hpp"
#include "nqueens/detail/huge_pages.hpp"
#include "nqueens/detail/restarts.hpp"
#include "nqueens/placement.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned init_threads = 128;
constexpr unsigned wide_pass_threads = 1024;  // passes of more blocks than a narrow launch has
constexpr unsigned narrow_pass_threads = 64;

using namespace placement_kernels;

/// The device arrays of one run.
struct placement_device {
  device_buffer<row_t> queen_row;
  device_buffer<std::uint64_t> diag, anti_diag, seg_next, seg_prefix, cur, quota, candidate;
  device_buffer<philox_stream> rng;
  device_buffer<std::uint8_t> claimed;
  device_buffer<std::uint32_t> deferred;
  device_buffer<unsigned long long> counter;

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
        counter(counters) {}
};

/// The host's arrays, where the last passes and the insertion run (the board: the result's).
struct placement_host {
  std::vector<std::uint64_t> diag, anti_diag, seg_next, seg_prefix, cur, quota, candidate;
  std::vector<std::uint32_t> deferred;
  std::vector<philox_stream> rng;
  std::vector<std::uint8_t> claimed;
  unsigned long long deferred_count = 0;

  placement_host(index_t n, index_t segments)
      : seg_next(segments),
        seg_prefix(segments + 1),
        cur(segments),
        quota(segments),
        candidate(segments * placement_candidates),
        deferred(placement_deferred_capacity(n)),
        rng(segments, philox_stream(0, 0)),
        claimed(segments) {
    nq::detail::resize_on_huge_pages(diag, placement_line_words(n));
    nq::detail::resize_on_huge_pages(anti_diag, placement_line_words(n));
  }
};

/// One run: the passes of many blocks on the device, then the rest on the host, restarting
/// until solved or stopped, as solve_placement does on the CPU (placement.cpp).
class gpu_placement_run : nq::detail::restarts {
 public:
  gpu_placement_run(index_t n, const placement_settings& s, const gpu::placement_split& split)
      : restarts(s.limits),
        n_(n),
        segments_(placement_segments(n)),
        settings_(s),
        split_(split),
        device_(n, segments_),
        host_(n, segments_),
        stop_flag_(1) {
    nq::detail::resize_on_huge_pages(result_.queen_row, n);
  }

  solve_result run() {
    return run_attempts([this] { return attempt(); });
  }

 private:

  /// One try from a fresh board: true when solved.
  bool attempt() {
    const index_t words = placement_line_words(n_);
    launch_threads("placement_init", grid_size(std::max(n_, words), init_threads), init_threads,
                   init_board{device_.queen_row.data(), device_.diag.data(),
                              device_.anti_diag.data(), n_, segments_, words});
    for (index_t k = 0; k < segments_; ++k)
      host_.seg_next[k] = placement_segment_begin(n_, segments_, k);
    copy_to_device(device_.seg_next.data(), host_.seg_next.data(), segments_);
    fill_bytes(device_.counter.data(), 0, counters);
    host_.deferred_count = 0;
    unsigned pass = 0;
    bool passes_left = true;
    for (; passes_left; ++pass) {
      const index_t group = index_t{1} << pass;
      const placement_view v = device_view(group);
      if (v.blocks <= split_.host_blocks) break;
      if (!device_pass(v, pass)) {
        copy_to_host(host_.seg_next.data(), device_.seg_next.data(), segments_);
        copy_to_host(result_.queen_row.data(), device_.queen_row.data(), n_);
        result_.unplaced = unplaced();
        return false;
      }
      if (host_.deferred_count > host_.deferred.size()) return false;
      passes_left = group < segments_;
    }
    hand_over();
    for (; passes_left; ++pass) {
      const index_t group = index_t{1} << pass;
      if (!host_pass(host_view(group), pass)) {
        result_.unplaced = unplaced();
        return false;
      }
      if (host_.deferred_count > host_.deferred.size()) return false;
      passes_left = group < segments_;
    }
    const auto count = static_cast<index_t>(host_.deferred_count);
    std::sort(host_.deferred.begin(), host_.deferred.begin() + count);
    return insert(count);
  }

  /// The open columns before each segment, from host_.seg_next.
  void count_open() {
    index_t open = 0;
    for (index_t k = 0; k < segments_; ++k) {
      host_.seg_prefix[k] = open;
      open += placement_segment_begin(n_, segments_, k + 1) - host_.seg_next[k];
    }
    host_.seg_prefix[segments_] = open;
  }

  /// One pass in one launch; false when a limit stopped it.
  bool device_pass(const placement_view& v, unsigned pass) {
    copy_to_host(host_.seg_next.data(), device_.seg_next.data(), segments_);
    count_open();
    copy_to_device(device_.seg_prefix.data(), host_.seg_prefix.data(), segments_ + 1);
    const auto& lim = settings_.limits;
    // A time limit already past still stops the pass at its first check.
    const std::uint64_t time_left_ns =
        lim.time_limit > 0 ? std::max<std::uint64_t>(1, limit_ns(lim.time_limit - clock_.seconds()))
                           : 0;
    const run_pass body{v,
                        settings_.seed,
                        result_.restarts,
                        pass,
                        result_.steps,
                        lim.max_steps,
                        time_left_ns,
                        lim.stop ? stop_flag_.device() : nullptr,
                        device_.counter.data()};
    if (v.blocks > narrow_pass_threads)
      launch_blocks<wide_pass_threads>("placement_pass", 1, 0, body);
    else
      launch_blocks<narrow_pass_threads>("placement_pass", 1, 0, body);
    wait_raising(lim.stop, stop_flag_.host());
    unsigned long long counter[counters];
    copy_to_host(counter, device_.counter.data(), counters);
    host_.deferred_count = counter[deferred_counter];
    result_.steps += counter[rounds_counter];
    if (counter[stopped_counter]) stopped_ = true;
    return !stopped_;
  }

  /// The board, its lines, the segments and the deferred columns, from the device.
  void hand_over() {
    const index_t words = placement_line_words(n_);
    copy_to_host(result_.queen_row.data(), device_.queen_row.data(), n_);
    copy_to_host(host_.diag.data(), device_.diag.data(), words);
    copy_to_host(host_.anti_diag.data(), device_.anti_diag.data(), words);
    copy_to_host(host_.seg_next.data(), device_.seg_next.data(), segments_);
    copy_to_host(host_.deferred.data(), device_.deferred.data(), host_.deferred_count);
  }

  /// One pass on the host, as the CPU plays it on one thread; false when a limit stopped it.
  bool host_pass(const placement_view& v, unsigned pass) {
    count_open();
    index_t done = 0;
    for (index_t j = 0; j < v.blocks; ++j)
      done += placement_start(v, j, settings_.seed, result_.restarts, pass);
    while (done < v.blocks) {
      for (index_t j = 0; j < v.blocks; ++j) done += placement_claim(v, j);
      for (index_t j = 0; j < v.blocks; ++j) done += placement_resolve(v, j);
      ++result_.steps;
      if (done == v.blocks) break;
      if (limit_reached()) return false;
    }
    return true;
  }

  /// Queens a stopped run left off free lines: the open columns and the deferred ones.
  index_t unplaced() const {
    return placement_unplaced(n_, segments_, host_.seg_next.data(), host_.deferred_count,
                              host_.deferred.size());
  }

  /// Inserts the deferred queens one by one, as the CPU does; false when one cannot be (the run
  /// restarts) or a limit stopped the run.
  bool insert(index_t count) {
    return placement_insert_all(host_view(1), host_.deferred.data(), count, settings_.seed,
                                result_.restarts, result_.steps, result_.unplaced,
                                [this] { return limit_reached(); });
  }

  placement_view device_view(index_t group) {
    return view_of(device_, device_.queen_row.data(), device_.counter.data(), group);
  }
  placement_view host_view(index_t group) {
    return view_of(host_, result_.queen_row.data(), &host_.deferred_count, group);
  }
  template <class Arrays>
  placement_view view_of(Arrays& a, row_t* queen_row, unsigned long long* deferred_count,
                         index_t group) {
    return {queen_row,
            a.diag.data(),
            a.anti_diag.data(),
            a.seg_next.data(),
            a.seg_prefix.data(),
            a.cur.data(),
            a.quota.data(),
            a.candidate.data(),
            a.rng.data(),
            a.claimed.data(),
            a.deferred.data(),
            deferred_count,
            a.deferred.size(),
            n_,
            segments_,
            group,
            (segments_ + group - 1) / group};
  }

  index_t n_, segments_;
  const placement_settings& settings_;
  gpu::placement_split split_;
  placement_device device_;
  placement_host host_;
  mapped_buffer<unsigned> stop_flag_;
};

}  // namespace
}  // namespace nq::cuda

namespace nq::gpu {

solve_result solve_placement(index_t n, const placement_settings& settings,
                             const placement_split& split) {
  if (!solution_exists(n)) return {};
  return cuda::gpu_placement_run(n, settings, split).run();
}

}  // namespace nq::gpu
