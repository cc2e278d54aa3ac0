// The chunked frame counter's driver, its portable kernels, and the choice of kernels.

#include "cpu/frame_engine.hpp"

#include <algorithm>
#include <atomic>
#include <span>

#include "nqueens/error.hpp"
#include "nqueens/detail/frame_pieces.hpp"

namespace nq::detail {
namespace {

/// Nodes taken from a level at a time. Large enough that most vectors are full; larger costs
/// cache for the level buffers and gains nothing (measured at n = 16, 17).
constexpr int chunk = 512;
/// Room past a level's nodes for whole-vector stores (16 lanes), the vector kernels' loads of
/// the next vector ahead, and the portable kernel's branch-free append.
constexpr int overhang = 32;

int portable_expand(frame_level nodes, int first, int count, frame_level children,
                    const frame_step& step) {
  int made = 0;
  for (int i = first; i < first + count; ++i)
    for (std::uint32_t open = nodes.open[i]; open != 0; open &= open - 1) {
      std::uint32_t c = nodes.cols[i], l = nodes.ld[i], r = nodes.rd[i];
      const std::uint32_t next = frame_child(step, open & (0u - open), c, l, r);
      children.cols[made] = c, children.ld[made] = l, children.rd[made] = r;
      children.open[made] = next;
      made += next != 0;
    }
  return made;
}

std::uint64_t portable_leaves(frame_level nodes, int first, int count, const frame_step& step) {
  std::uint64_t leaves = 0;
  for (int i = first; i < first + count; ++i)
    for (std::uint32_t open = nodes.open[i]; open != 0; open &= open - 1) {
      std::uint32_t c = nodes.cols[i], l = nodes.ld[i], r = nodes.rd[i];
      const std::uint32_t next = frame_child(step, open & (0u - open), c, l, r);
      leaves += frame_pairs(next, c, l, r, step.allowed[1], step.shift[1]);
    }
  return leaves;
}

}  // namespace

const frame_kernels& portable_frame_kernels() {
  static const frame_kernels kernels{"off", portable_expand, portable_leaves};
  return kernels;
}

const frame_kernels& choose_frame_kernels(const std::string& choice) {
  if (choice == "off") return portable_frame_kernels();
  if (choice == "auto") {
    if (const frame_kernels* widest = avx512_frame_kernels()) return *widest;
    if (const frame_kernels* wide = avx2_frame_kernels()) return *wide;
    return portable_frame_kernels();
  }
  const frame_kernels* kernels = nullptr;
  if (choice == "avx512")
    kernels = avx512_frame_kernels();
  else if (choice == "avx2")
    kernels = avx2_frame_kernels();
  else
    throw usage_error("unknown --simd '" + choice + "' (expected auto, off, avx2 or avx512)");
  if (!kernels)
    throw resource_error("this CPU (or this build) cannot run " + choice +
                         (choice == "avx512" ? " (it needs AVX-512 F and VPOPCNTDQ)" : ""));
  return *kernels;
}

frame_counter::frame_counter(int n, const frame_kernels& kernels)
    : kernels_(kernels), capacity_(chunk * std::max(1, n - 2) + overhang) {
  // A level is only filled when every deeper one is empty, by one chunk of the level above,
  // each node with at most n - 2 open squares: capacity_ bounds it.
  const int levels = std::max(1, n - 2);
  storage_.assign(static_cast<std::size_t>(levels) * 4 * capacity_, 0);
  for (int d = 0; d < levels; ++d) {
    std::uint32_t* base = storage_.data() + static_cast<std::size_t>(d) * 4 * capacity_;
    levels_.push_back({base, base + capacity_, base + 2 * capacity_, base + 3 * capacity_});
  }
  size_.assign(levels, 0);
}

std::optional<std::uint64_t> frame_counter::completions(const frame_search& search,
                                                        const std::atomic<bool>* stop) {
  const int levels = search.levels;
  NQ_EXPECTS(levels <= static_cast<int>(levels_.size()), "a frame of the counter's size");
  if (levels == 0) return 1;
  if (levels == 1) return static_cast<std::uint64_t>(popcount32(search.allowed[0]));
  if (levels == 2)
    return frame_pairs(search.allowed[0], 0, 0, 0, search.allowed[1],
                       search.row[1] - search.row[0]);
  if (search.allowed[0] == 0) return 0;  // the kernels take every node to have a square open
  std::fill(size_.begin(), size_.end(), 0);
  levels_[0].cols[0] = levels_[0].ld[0] = levels_[0].rd[0] = 0;
  levels_[0].open[0] = search.allowed[0];
  size_[0] = 1;
  frame_step steps[max_count_n];
  for (int d = 0; d + 3 <= levels; ++d) steps[d] = frame_step_at(search, d);
  std::uint64_t leaves = 0;
  // Depth first over chunks: always from the deepest level that has nodes, so the level below
  // it is empty and the buffers stay bounded.
  for (int d = 0; d >= 0;) {
    if (stop && stop->load(std::memory_order_relaxed)) return std::nullopt;
    if (size_[d] == 0) {
      --d;
      continue;
    }
    const int take = std::min(size_[d], chunk);
    size_[d] -= take;
    if (d + 3 == levels) {
      leaves += kernels_.leaves(levels_[d], size_[d], take, steps[d]);
    } else {
      size_[d + 1] = kernels_.expand(levels_[d], size_[d], take, levels_[d + 1], steps[d]);
      ++d;
    }
  }
  return leaves;
}

std::optional<std::uint64_t> count_fixed_completions(int n, const frame& f, int g,
                                                     const std::atomic<bool>* stop) {
  const frame_search s = prepare_frame_search(n, f);
  const int last = n - 1;
  // The queens placed so far, a queen's images with it: each row's column (-1: none yet), and
  // the columns and both diagonals taken (r + c, and c - r + last).
  int board[max_count_n];
  std::uint32_t cols = 0;
  std::uint64_t up = 0, down = 0;
  std::fill(board, board + n, -1);
  const auto free_square = [&](int r, int c) {
    return !(cols >> c & 1) && !(up >> (r + c) & 1) && !(down >> (c - r + last) & 1);
  };
  const auto take = [&](int r, int c) {
    board[r] = c;
    cols ^= 1u << c, up ^= std::uint64_t{1} << (r + c), down ^= std::uint64_t{1} << (c - r + last);
  };
  int frame_rows[4] = {}, frame_cols[4] = {};
  const int frame_count = frame_queens(n, f, frame_rows, frame_cols);
  for (int i = 0; i < frame_count; ++i) take(frame_rows[i], frame_cols[i]);
  // The rotations a board fixed by g is fixed by: g's powers other than the identity.
  const int half_turn[] = {2}, quarter_turns[] = {1, 2, 3};
  const std::span<const int> powers =
      g == 2 ? std::span<const int>(half_turn) : std::span<const int>(quarter_turns);
  std::uint64_t found = 0, nodes = 0;
  bool stopped = false;
  // From level d on: a row its queen's images have not filled yet takes a queen on a free
  // square, with the images of that square, each on a row of its own and a free square.
  const auto search = [&](auto&& self, int d) -> void {
    while (d < s.levels && board[s.row[d]] >= 0) ++d;
    if (d == s.levels) {
      ++found;
      return;
    }
    if ((++nodes & 0xFFFF) == 0 && stop && stop->load(std::memory_order_relaxed)) stopped = true;
    if (stopped) return;
    const int r = s.row[d];
    for (std::uint32_t open = s.allowed[d]; open != 0; open &= open - 1) {
      const int c = lowest_bit_index(open);
      if (!free_square(r, c)) continue;
      int placed[4][2] = {{r, c}}, count = 1;
      take(r, c);
      bool fits = true;
      for (const int h : powers) {
        int image_row = r, image_col = c;
        apply_symmetry(h, n, image_row, image_col);
        if (board[image_row] == image_col) continue;  // a square its own image (the centre)
        if (board[image_row] >= 0 || !free_square(image_row, image_col)) {
          fits = false;
          break;
        }
        take(image_row, image_col);
        placed[count][0] = image_row, placed[count][1] = image_col, ++count;
      }
      if (fits) self(self, d + 1);
      while (count > 0) {
        --count;
        take(placed[count][0], placed[count][1]);  // taking twice gives the square back
        board[placed[count][0]] = -1;
      }
    }
  };
  search(search, 0);
  if (stopped) return std::nullopt;
  return found;
}

std::optional<count_tally> count_frame(int n, const canonical_frame& frame, frame_counter& counter,
                                       const std::atomic<bool>* stop) {
  // A frame not oriented in advance is oriented here: its four estimates cost little beside its
  // search (37 us against 60 us at n = 16, far less from there on).
  const nq::frame searched =
      frame.oriented ? frame.searched : frame_to_search(n, frame.f, frame.stabilizer);
  const std::optional<std::uint64_t> completions =
      counter.completions(prepare_frame_search(n, searched), stop);
  if (!completions) return std::nullopt;
  // Each completion stands for `orbit` solutions, and for one class counted in eighths `orbit`
  // times for each symmetry of the stabiliser that fixes it (Burnside, as in
  // count_frame_completions). No reflection fixes a board, so only the rotations of the
  // stabiliser add to the eighths: the completions each fixes, counted apart. (At n = 18,
  // checking every board of the 64 frames a rotation fixes, a node at a time, took 1.0 s of a
  // 6.5 s count on one thread; searching their fixed boards alone takes 13 ms.)
  const std::uint64_t orbit = symmetry_count / popcount32(frame.stabilizer);
  std::uint64_t eighths = *completions;
  for (int g = 1; g <= 3; ++g) {  // the rotations
    if (!((frame.stabilizer & rotation_symmetries) >> g & 1)) continue;
    const std::optional<std::uint64_t> fixed = count_fixed_completions(n, frame.f, g, stop);
    if (!fixed) return std::nullopt;
    eighths += *fixed;
  }
  return count_tally{orbit * *completions, orbit * eighths};
}

}  // namespace nq::detail
