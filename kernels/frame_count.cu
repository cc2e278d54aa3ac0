// Counting canonical frames on the GPU: the kernel (its host controller is frame_counter.cu).
// Each frame is cut into pieces (frame_pieces.hpp; frames with a corner queen one row deeper,
// frame_cut_depth; the pieces of a frame a rotation fixes check their boards), frames biggest
// first, pulled by one persistent launch from an atomic counter. Each thread runs one flat loop
// (frame_walk.hpp): an iteration places one queen of its piece on one branch-free path, taking
// the next piece first when its piece is done, so a lane never waits at the end of a nested
// search for the warp's largest piece, and lanes wait only once the pieces have run out. The
// node and the tally stay in registers; the parents sit in the block's shared memory, one
// 16-byte entry a level, the threads' entries side by side. Each level's step (the next rows'
// open columns and shifts) is built on the host, once a frame, uploaded with the frames and read
// through the read-only cache when a lane changes level. The look-ahead is the kernel's template
// parameter (3 as the CPU's; 1 tries 14% more nodes, each cheaper). A piece's tally is added to
// its frame's sums; the thread that finishes a frame's last piece copies the sums to mapped host
// memory and raises the frame's flag, so the host records whole frames (and checkpoints them)
// while the launch runs.

#include <algorithm>
#include <atomic>
#include <cstddef>

#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/frame_count.cuh"
#include "kernels/gpu.hpp"
#include "nqueens/detail/frame_pieces.hpp"
#include "nqueens/detail/frame_search.hpp"
#include "nqueens/detail/frame_walk.hpp"

namespace nq::cuda {
namespace {

/// What one thread carries from one iteration of its loop to the next.
template <int LookAhead>
struct frame_lane {
  frame_walk<LookAhead> walk;
  static constexpr std::uint32_t none = ~0u;
  std::uint32_t position = none;  // the frame of the piece held (none: no piece to add)
  std::uint32_t until_check = count_stop_interval;
#if !defined(__CUDACC__)
  std::uint64_t piece_steps = 0, longest = 0;       // advances of this piece, of the longest
  std::uint64_t rows_built = 0, row_words = 0;      // what this lane's takes did for frame rows
  std::uint64_t nodes = 0;                          // advances (queens placed)
  bool took = false, plain = false, fixed = false;  // what the last turn ran
#endif
};

/// What a thread did in one iteration: placed a queen or took a piece, waited (only when the
/// host plays the nested loop's schedule), or ended (no piece left, or the stop raised).
enum class lane_turn : int { worked, waited, ended };  // int: no byte to widen a turn

/// The kernel's body, on its arguments (frame_piece_work: no other member, so that the kernel
/// takes the arguments as they are laid out there).
template <int LookAhead>
struct count_frame_pieces : frame_piece_work {
  /// Blocks of 128 an SM holds at n = 21 (52 words of shared memory a lane): registers are
  /// held to 64 a thread for them.
  static constexpr unsigned resident_blocks = 8;
  struct shared_state {
    unsigned unused;
  };

  template <class Block>
  NQ_HD frame_lane_view lane_entries(Block& block, unsigned t) const {
    return frame_lane_view::of(reinterpret_cast<frame_entry*>(block.shared()) + t, Block::threads);
  }

  template <class Block>
  NQ_HD void operator()(Block& block, shared_state&) const {
#if !defined(__CUDACC__)
    if (play != gpu::frame_lane_play::threads) return play_in_lockstep(block);
#endif
    // One phase: every thread loops until no piece is left (persistent threads).
    block.each([&](unsigned t) {
      const frame_lane_view entries = lane_entries(block, t);
      frame_lane<LookAhead> lane;
      while (turn(lane, entries, true) != lane_turn::ended) {
      }
    });
  }

  /// One iteration of a thread's loop: a queen placed, after taking the next piece when the
  /// last is done. `may_take`: whether a thread with no piece takes one (always, but when the
  /// host plays the nested loop's schedule).
  NQ_HD lane_turn turn(frame_lane<LookAhead>& lane, frame_lane_view entries, bool may_take) const {
    if (--lane.until_check == 0) {
      if (stop_raised(stop)) return lane_turn::ended;  // the piece held stays unfinished
      lane.until_check = count_stop_interval;
      lane.walk.flush_leaves();  // its 32-bit count never overflows between two checks
    }
#if !defined(__CUDACC__)
    lane.took = lane.plain = lane.fixed = false;
#endif
    if (!lane.walk.busy()) {
      const lane_turn took = take(lane, may_take);
      if (took != lane_turn::worked || !lane.walk.busy()) return took;  // a whole piece: done
    }
    if (lane.walk.checks_boards())
      lane.walk.template advance<true>(entries);
    else
      lane.walk.template advance<false>(entries);
#if !defined(__CUDACC__)
    ++lane.piece_steps, ++lane.nodes;
    (lane.walk.checks_boards() ? lane.fixed : lane.plain) = true;
#endif
    return lane_turn::worked;
  }

  /// Adds the finished piece's tally to its frame, then takes the next piece (the rare path
  /// of the loop: once a piece).
  NQ_HD lane_turn take(frame_lane<LookAhead>& lane, bool may_take) const {
    if (lane.position != lane.none) {
      finish(lane.position, lane.walk.tally(), lane.walk.checks_boards());
      lane.position = lane.none;
#if !defined(__CUDACC__)
      lane.longest = std::max(lane.longest, lane.piece_steps);
      lane.piece_steps = 0;
#endif
    }
    if (!may_take) return lane_turn::waited;
#if !defined(__CUDA_ARCH__)
    // Before each take too, in the host execution only: a lane that starts after the stop (it
    // runs its lanes one after another) ends at once, not count_stop_interval turns later. On
    // the device the flag is mapped host memory, a PCIe read on a path each lane runs alone;
    // the check every count_stop_interval turns ends its lanes in time.
    if (stop_raised(stop)) return lane_turn::ended;
#endif
    const unsigned i = atomic_add(next, 1u);
    if (i >= count) return lane_turn::ended;
    const frame_piece piece = pieces[i];
#if !defined(__CUDACC__)
    const std::uint64_t built = nq::detail::frame_rows_built;
    lane.took = true;
#endif
    // The rows of the image its pieces were cut from (cut_frames).
    lane.walk.start(piece,
                    rows + std::size_t{piece.frame} *
                               static_cast<unsigned>(frame_step_layout<LookAhead>::frame_words(n)));
#if !defined(__CUDACC__)
    lane.rows_built += nq::detail::frame_rows_built - built;  // rows this take built
    lane.row_words += lane.walk.row_words_read;
#endif
    lane.position = piece.frame;
    return lane_turn::worked;
  }

  /// Adds a piece's tally to its frame; the frame's last piece publishes the frame. A frame no
  /// rotation fixes (`checked` false) counts as many eighths as solutions: one sum.
  NQ_HD void finish(std::uint32_t position, const count_tally& tally, bool checked) const {
    unsigned long long* sum = sums + 2 * std::uint64_t{position};
    atomic_add(sum, static_cast<unsigned long long>(tally.solutions));
    if (checked) atomic_add(sum + 1, static_cast<unsigned long long>(tally.unique_eighths));
    // acq_rel: the last one sees every other piece's sums.
    if (device_atomic<unsigned>(remaining[position]).fetch_sub(1u, order::memory_order_acq_rel) !=
        1u)
      return;
    const unsigned long long solutions = load_relaxed(sum);
    tallies[position] = count_tally{solutions, checked ? load_relaxed(sum + 1) : solutions};
    raise_flag(finished + position);
  }

#if !defined(__CUDACC__)
  /// The host execution's model of the lanes on a device: one phase per iteration, every
  /// lane one turn, and per warp of 32 the turns its lanes sat idle while another lane of the
  /// warp worked (a SIMT warp runs an iteration for all its lanes while any needs it), and the
  /// iterations in which any of its lanes took a piece, placed a queen of a plain frame or of
  /// a frame a rotation fixes: what a warp issues (bench/frame_loop_cost.py). With
  /// frame_lane_play::warp_fetch a lane takes a piece only once every lane of its warp has
  /// finished theirs: the schedule of a nested loop (take a piece, search it), whose lanes
  /// wait at the end of the search for the warp's largest piece.
  template <class Block>
  void play_in_lockstep(Block& block) const {
    constexpr unsigned warp_lanes = 32;
    constexpr unsigned warps = Block::threads / warp_lanes;
    static_assert(Block::threads % warp_lanes == 0, "whole warps");
    per_thread<frame_lane<LookAhead>, Block::copies> lanes;
    per_thread<lane_turn, Block::copies> last;
    per_thread<bool, Block::copies> took;
    block.each([&](unsigned t) {
      lanes[t] = frame_lane<LookAhead>{};
      last[t] = lane_turn::worked;
    });
    const bool own = play == gpu::frame_lane_play::lockstep;
    std::uint64_t lane_steps = 0, idle = 0, warp_steps = 0, takes = 0, plains = 0, fixeds = 0;
    bool had_piece[warps] = {};
    for (bool any = true; any;) {
      bool warp_empty[warps];
      for (unsigned w = 0; w < warps; ++w) {
        warp_empty[w] = true;
        for (unsigned t = w * warp_lanes; t < (w + 1) * warp_lanes; ++t)
          warp_empty[w] &= last[t] == lane_turn::ended || !lanes[t].walk.busy();
      }
      block.each([&](unsigned t) {
        took[t] = false;
        if (last[t] == lane_turn::ended) return;
        last[t] = turn(lanes[t], lane_entries(block, t), own || warp_empty[t / warp_lanes]);
        took[t] = last[t] != lane_turn::waited;  // an end is a turn too: the take that failed
      });
      any = false;
      for (unsigned w = 0; w < warps; ++w) {
        std::uint64_t worked = 0;
        bool take = false, plain = false, fixed = false;
        for (unsigned t = w * warp_lanes; t < (w + 1) * warp_lanes; ++t) {
          worked += took[t] ? 1 : 0;
          any |= last[t] != lane_turn::ended;
          had_piece[w] |= last[t] == lane_turn::worked;
          if (!took[t]) continue;
          take |= lanes[t].took || last[t] == lane_turn::ended;
          plain |= lanes[t].plain, fixed |= lanes[t].fixed;
        }
        if (worked == 0) continue;
        lane_steps += worked;
        idle += warp_lanes - worked;
        ++warp_steps;
        takes += take, plains += plain, fixeds += fixed;
      }
    }
    std::uint64_t longest = 0, rows_built = 0, row_words = 0, nodes = 0;
    for (unsigned t = 0; t < Block::threads; ++t) {
      longest = std::max(longest, lanes[t].longest);
      rows_built += lanes[t].rows_built;
      row_words += lanes[t].row_words;
      nodes += lanes[t].nodes;
    }
    lockstep->rows_built += rows_built;
    lockstep->row_words += row_words;
    lockstep->nodes += nodes;
    lockstep->lane_steps += lane_steps;
    lockstep->idle_lane_steps += idle;
    lockstep->warp_steps += warp_steps;
    lockstep->take_warp_steps += takes;
    lockstep->plain_warp_steps += plains;
    lockstep->fixed_warp_steps += fixeds;
    lockstep->warps += static_cast<std::uint64_t>(std::count(had_piece, had_piece + warps, true));
    for (std::uint64_t seen = lockstep->longest.load();
         longest > seen && !lockstep->longest.compare_exchange_weak(seen, longest);) {
    }
  }
#endif
};

/// Calls run(body) with the kernel body of look-ahead `look_ahead` (1, else frame_look_ahead):
/// its type names the kernel.
template <class Run>
auto with_look_ahead(int look_ahead, Run run) {
  if (look_ahead == 1) return run(count_frame_pieces<1>{});
  return run(count_frame_pieces<frame_look_ahead>{});
}

}  // namespace

unsigned frame_pieces_resident_blocks(int look_ahead, std::size_t shared_bytes) {
  return with_look_ahead(look_ahead, [&](auto body) {
    return resident_blocks<frame_block, decltype(body)>(shared_bytes);
  });
}

void launch_frame_pieces(int look_ahead, unsigned blocks, std::size_t shared_bytes,
                         const frame_piece_work& work) {
  with_look_ahead(look_ahead, [&](auto body) {
    static_cast<frame_piece_work&>(body) = work;
    launch_blocks<frame_block>("count_frame_pieces", blocks, shared_bytes, body);
    return 0;
  });
}

}  // namespace nq::cuda
