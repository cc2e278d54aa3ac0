#pragma once
// The CPU's frame counter: the search of frame_search.hpp run breadth-first in chunks, so that
// one vector instruction expands a node in each of 8 or 16 lanes. A node-at-a-time search
// mispredicts a branch at almost every node (how many children a node has is anyone's guess);
// here the branches are per chunk, and the node work is masks, compares and compress-stores.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nqueens/count.hpp"
#include "nqueens/detail/canonical_frames.hpp"
#include "nqueens/detail/frame_search.hpp"

namespace nq::detail {

/// One level's nodes, a struct of arrays: the lines of the queens placed so far (as seen from
/// the level's row) and the columns still to try there.
struct frame_level {
  std::uint32_t* cols;
  std::uint32_t* ld;
  std::uint32_t* rd;
  std::uint32_t* open;
};

/// The completions of a node of the level above the last, with lines (cols, ld, rd) as seen
/// from its row and open squares `open`, given the last level's open columns `allowed` and its
/// distance `shift` below: a queen on open square a leaves the last level's free squares less
/// a, a << shift and a >> shift (three different squares), so the count is |open| times
/// |free| less the free squares each a strikes.
inline std::uint64_t frame_pairs(std::uint32_t open, std::uint32_t cols, std::uint32_t ld,
                                 std::uint32_t rd, std::uint32_t allowed, int shift) {
  const std::uint32_t free = allowed & ~(cols | ld << shift | rd >> shift);
  return static_cast<std::uint64_t>(popcount32(open) * popcount32(free) - popcount32(open & free) -
                                    popcount32(open << shift & free) -
                                    popcount32(open >> shift & free));
}

/// The two things a vector unit does, for nodes[first, first + count) of level d, given
/// frame_step_at(d): try every open square of every node (frame_child). `expand` writes the
/// live children to `children` from index 0 and returns how many; `leaves`, for the level two
/// above the last, counts the completions of the children instead (frame_pairs, with the last
/// level's columns and shift from step.allowed[1] and step.shift[1]), so the level above the
/// last is never stored. Both use up the nodes.
struct frame_kernels {
  const char* name;
  int (*expand)(frame_level nodes, int first, int count, frame_level children,
                const frame_step& step);
  std::uint64_t (*leaves)(frame_level nodes, int first, int count, const frame_step& step);
};

/// The portable kernels: one node at a time, for CPUs without AVX2 and as the tests' yardstick.
const frame_kernels& portable_frame_kernels();
/// The x86 vector kernels, or null when this build has none (not x86-64).
const frame_kernels* avx2_frame_kernels();
const frame_kernels* avx512_frame_kernels();

/// The kernels `choice` names ("auto": the widest this CPU runs; "off", "avx2", "avx512").
/// Throws usage_error for an unknown name, resource_error when this CPU lacks the instructions.
const frame_kernels& choose_frame_kernels(const std::string& choice);

/// Counts the completions of frames with a set of kernels; owns its level buffers (a few MB),
/// so make one per thread and reuse it.
class frame_counter {
 public:
  frame_counter(int n, const frame_kernels& kernels);
  /// The number of completions of the prepared frame (not weighted by its orbit), or none
  /// when `stop` turned true first (it is read between chunks).
  std::optional<std::uint64_t> completions(const frame_search& search,
                                           const std::atomic<bool>* stop = nullptr);

 private:
  const frame_kernels& kernels_;
  int capacity_;  ///< nodes a level holds: a chunk's children and a vector's overhang
  std::vector<std::uint32_t> storage_;
  std::vector<frame_level> levels_;
  std::vector<int> size_;
};

/// The completions of frame `f` that rotation g (1, 2 or 3, as apply_symmetry numbers them;
/// g must fix f) maps onto themselves, or none when `stop` turned true first. Each queen placed
/// places its images under g's powers with it, and is dropped when one of them is attacked,
/// so only the rows no image reached branch, and a clash is seen at once.
std::optional<std::uint64_t> count_fixed_completions(int n, const frame& f, int g,
                                                     const std::atomic<bool>* stop = nullptr);

/// What one canonical frame contributes to a count (as count_frame_completions), or none when
/// `stop` turned true first: its completions counted by `counter`, and for a frame that a
/// rotation maps onto itself, the completions that rotation fixes (count_fixed_completions).
std::optional<count_tally> count_frame(int n, const canonical_frame& frame, frame_counter& counter,
                                       const std::atomic<bool>* stop = nullptr);

}  // namespace nq::detail
