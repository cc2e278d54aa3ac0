// Measures the GPU frame counter's search on the host: nodes of the frame search (every
// canonical frame, each searched in the orientation counts use, as the GPU's pieces search it,
// and as it is) against the full tree, how
// the pieces at the GPU's split depth vary in size, and what the frames a rotation fixes (once
// searched whole) weigh against their pieces. A node is one queen placed, the last free
// row excluded (it is counted by popcount, in both searches).
//
// Usage: frame_tree_stats N... (build: cmake --build BUILD --target frame_tree_stats). Past
// n = 17 it only counts the frames and the pieces.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/gpu.hpp"
#include "nqueens/detail/canonical_frames.hpp"
#include "nqueens/detail/frame_pieces.hpp"
#include "nqueens/detail/frame_walk.hpp"

namespace {

using namespace nq;

/// The plain backtracking tree over all rows, no symmetry: (nodes, solutions). With
/// `look_ahead`, a child that leaves one of the next three rows without a square is dead, as in
/// the frame search.
void full_tree(int n, int row, std::uint32_t cols, std::uint32_t ld, std::uint32_t rd,
               bool look_ahead, std::uint64_t& nodes, std::uint64_t& solutions) {
  const std::uint32_t board = (1u << n) - 1u;
  std::uint32_t open = board & ~(cols | ld | rd);
  if (row == n - 1) {
    solutions += static_cast<std::uint64_t>(popcount32(open));
    return;
  }
  for (; open != 0; open &= open - 1) {
    const std::uint32_t bit = open & (0u - open);
    ++nodes;
    const std::uint32_t c = cols | bit, l = (ld | bit) << 1, r = (rd | bit) >> 1;
    if (look_ahead) {
      bool dead = false;
      for (int k = 1; k <= frame_look_ahead && row + 1 + k < n; ++k)
        dead |= (board & ~(c | l << k | r >> k)) == 0;
      if (dead) continue;
    }
    full_tree(n, row + 1, c, l, r, look_ahead, nodes, solutions);
  }
}

/// Pearson's correlation of x and y.
double correlation(const std::vector<double>& x, const std::vector<double>& y) {
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i], my += y[i];
  mx /= static_cast<double>(x.size()), my /= static_cast<double>(y.size());
  double xy = 0, xx = 0, yy = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    xy += (x[i] - mx) * (y[i] - my), xx += (x[i] - mx) * (x[i] - mx),
        yy += (y[i] - my) * (y[i] - my);
  return xx > 0 && yy > 0 ? xy / std::sqrt(xx * yy) : 0.0;
}

double percentile(const std::vector<std::uint64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  return static_cast<double>(sorted[static_cast<std::size_t>(p * (sorted.size() - 1))]);
}

/// Past n = 17 the host search takes too long (n = 17: minutes): frames and pieces are only
/// counted.
void count_pieces(int n) {
  auto frames = detail::canonical_frames(n);
  detail::orient_frames(n, frames);
  const int depth = gpu::frame_piece_depth(n);
  std::uint64_t pieces = 0, whole = 0;
  for (const detail::canonical_frame& frame : frames)
    split_frame_for_walk(n, depth, prepare_frame_search(n, frame.searched), frame.stabilizer, 0,
                         [&](const frame_piece& piece) {
                           ++pieces;
                           whole += piece.whole();
                         });
  std::printf("n=%d frames=%zu pieces at depth %d: %llu (whole %llu)\n", n, frames.size(), depth,
              static_cast<unsigned long long>(pieces), static_cast<unsigned long long>(whole));
}

void measure(int n) {
  if (n > 17) return count_pieces(n);
  const auto start = std::chrono::steady_clock::now();
  auto frames = detail::canonical_frames(n);
  detail::orient_frames(n, frames);
  const int depth = gpu::frame_piece_depth(n);
  std::vector<std::uint32_t> stack(4 * static_cast<std::size_t>(frame_stack_levels(n)));
  const frame_stack_view view{stack.data(), 1};
  std::uint64_t frame_nodes = 0, piece_nodes = 0, whole = 0;
  std::vector<std::uint64_t> piece_sizes, frame_sizes;
  // Frames a rotation fixes: how many, their biggest (once searched whole by one thread), and
  // the biggest of their pieces now.
  std::uint64_t fixed = 0, fixed_frame_max = 0, fixed_piece_max = 0, fixed_pieces = 0;
  std::vector<double> estimates, sizes;  // frame_size_estimate against the nodes searched
  // Nodes of the canonical frames as they are, against the images a count searches.
  std::uint64_t as_canonical = 0;
  const auto nodes_of = [&](const frame_search& s) {
    std::uint64_t leaves = 0, nodes = 0;
    if (s.levels >= 2 && s.allowed[0] != 0) {
      frame_piece all;
      all.open = s.allowed[0];
      count_piece_leaves(s, all, view, never_stop{}, leaves, &nodes);
    }
    return nodes;
  };
  for (const detail::canonical_frame& frame : frames) {
    const frame_search s = prepare_frame_search(n, frame.searched);
    const std::uint64_t nodes = nodes_of(s);
    as_canonical += nodes_of(prepare_frame_search(n, frame.f));
    frame_nodes += nodes;
    frame_sizes.push_back(nodes);
    estimates.push_back(static_cast<double>(frame_size_estimate(n, s)));
    sizes.push_back(static_cast<double>(nodes));
    const bool rotated = (frame.stabilizer & rotation_symmetries) != 0;
    if (rotated) ++fixed, fixed_frame_max = std::max(fixed_frame_max, nodes);
    split_frame_for_walk(n, depth, s, frame.stabilizer, 0, [&](const frame_piece& piece) {
      std::uint64_t piece_leaves = 0, size = 0;
      if (piece.whole()) {
        ++whole;
        size = nodes;  // searched whole: the frame's nodes
      } else {
        count_piece_leaves(s, piece, view, never_stop{}, piece_leaves, &size);
      }
      piece_nodes += size;
      piece_sizes.push_back(size);
      if (rotated) ++fixed_pieces, fixed_piece_max = std::max(fixed_piece_max, size);
    });
  }
  const double frame_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::uint64_t plain = 0, ahead = 0, solutions = 0, ignored = 0;
  full_tree(n, 0, 0, 0, 0, false, plain, solutions);
  full_tree(n, 0, 0, 0, 0, true, ahead, ignored);
  std::sort(piece_sizes.begin(), piece_sizes.end());
  std::sort(frame_sizes.begin(), frame_sizes.end());
  std::uint64_t top = 0;  // nodes in the biggest 1% of pieces
  const std::size_t top_count = std::max<std::size_t>(1, piece_sizes.size() / 100);
  for (std::size_t i = piece_sizes.size() - top_count; i < piece_sizes.size(); ++i)
    top += piece_sizes[i];
  std::printf(
      "n=%d frames=%zu frame_nodes=%llu full_tree=%llu (%.2f%%) full_tree_lookahead=%llu "
      "(%.2f%%) solutions=%llu\n",
      n, frames.size(), static_cast<unsigned long long>(frame_nodes),
      static_cast<unsigned long long>(plain), 100.0 * frame_nodes / plain,
      static_cast<unsigned long long>(ahead), 100.0 * frame_nodes / ahead,
      static_cast<unsigned long long>(solutions));
  std::printf(
      "  the canonical frames as they are: %llu nodes (%.2f%% of the full tree); the "
      "images searched take %.1f%% of that\n",
      static_cast<unsigned long long>(as_canonical), 100.0 * as_canonical / plain,
      100.0 * frame_nodes / std::max<std::uint64_t>(1, as_canonical));
  std::printf(
      "  frames: nodes min %.0f median %.0f p90 %.0f p99 %.0f max %.0f\n"
      "  pieces at depth %d: %zu (whole %llu), nodes %llu, min %.0f median %.0f p90 %.0f p99 "
      "%.0f max %.0f, biggest 1%% hold %.1f%%; host search %.2f s\n",
      percentile(frame_sizes, 0), percentile(frame_sizes, 0.5), percentile(frame_sizes, 0.9),
      percentile(frame_sizes, 0.99), percentile(frame_sizes, 1.0), depth, piece_sizes.size(),
      static_cast<unsigned long long>(whole), static_cast<unsigned long long>(piece_nodes),
      percentile(piece_sizes, 0), percentile(piece_sizes, 0.5), percentile(piece_sizes, 0.9),
      percentile(piece_sizes, 0.99), percentile(piece_sizes, 1.0),
      100.0 * top / std::max<std::uint64_t>(1, piece_nodes), frame_seconds);
  std::printf(
      "  frames a rotation fixes: %llu, the biggest %llu nodes (searched whole before), cut into "
      "%llu pieces, the biggest %llu nodes\n"
      "  frame_size_estimate against the nodes of each frame: correlation %.3f\n",
      static_cast<unsigned long long>(fixed), static_cast<unsigned long long>(fixed_frame_max),
      static_cast<unsigned long long>(fixed_pieces),
      static_cast<unsigned long long>(fixed_piece_max), correlation(estimates, sizes));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: frame_tree_stats N...\n");
    return 2;
  }
  for (int i = 1; i < argc; ++i) {
    const int n = std::atoi(argv[i]);
    if (n < 5 || n > 24) {
      std::fprintf(stderr, "frame_tree_stats: n from 5 to 24, got %s\n", argv[i]);
      return 2;
    }
    measure(n);
  }
  return 0;
}
