#pragma once
// The canonical frames a count shares out (one a subproblem), and the image of each that its
// search starts from. The CPU's frame counter (src/cpu/frame_engine.hpp), the GPU's
// (kernels/frame_counter.cu) and the ranks of a cluster count all take them from here.

#include <cstdint>
#include <memory>
#include <vector>

#include "nqueens/detail/constellation.hpp"

namespace nq::detail {

/// A canonical frame and its stabiliser bits, as frame_classes records them, and the image of
/// it that a count searches (frame_to_search: as many completions, fewer nodes).
struct canonical_frame {
  frame f;
  std::uint8_t stabilizer = 1;
  frame searched;          ///< f itself until orient_frames picks the image
  bool oriented = false;   ///< whether orient_frames has picked `searched`
  std::uint64_t size = 0;  ///< frame_size_estimate of `searched`, set by orient_frames
};

/// Every canonical frame for n in 4..32, in frame_index order, not yet oriented.
std::vector<canonical_frame> canonical_frames(int n);

/// Picks every frame's image to search, on every core: four size estimates a frame, 0.12 s of
/// CPU for n = 16's 3,206 frames but 26 s for n = 27's 38,604 and over a minute for n = 32's
/// 83,190. So only what needs every image before it starts orients them (the GPU's pieces, a
/// share biggest first), through oriented_frames, once a process; a CPU count orients each
/// frame as it takes it (count_frame).
void orient_frames(int n, std::vector<canonical_frame>& frames);

/// canonical_frames(n), oriented: computed once for the latest n and shared by every caller
/// (each GPU's counter and the count that shares frames among them).
std::shared_ptr<const std::vector<canonical_frame>> oriented_frames(int n);

}  // namespace nq::detail
