// The frame counter's x86 vector kernels, AVX2 (8 lanes) and AVX-512 (16 lanes). Each pass
// takes the lowest open square of every node: the live children are compressed onto the end of
// the next level, the nodes with squares left onto the front of their own, for another pass.
// At the level two above the last, the children are not stored: their completions are counted
// (frame_pairs). Only these functions use the wider instructions (target attributes, chosen at run
// time), so the build needs no -march and runs on any x86-64.

#include "cpu/frame_engine.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

// GCC 12's AVX-512 intrinsics start from a self-initialised "undefined" vector, which its own
// uninitialised-use warnings then flag inside every inlined intrinsic.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace nq::detail {
namespace {

/// For each 8-lane mask, the lanes it selects in order, one per byte: AVX2 has no compress.
struct lane_table {
  std::uint64_t lanes[256] = {};
};

constexpr lane_table make_lane_table() {
  lane_table table;
  for (unsigned mask = 0; mask < 256; ++mask) {
    int out = 0;
    for (unsigned lane = 0; lane < 8; ++lane)
      if (mask >> lane & 1) table.lanes[mask] |= std::uint64_t{lane} << (8 * out++);
  }
  return table;
}

constexpr lane_table compress_lanes = make_lane_table();

#define NQ_AVX2 __attribute__((target("avx2,popcnt")))
#define NQ_AVX512 __attribute__((target("avx512f,avx512vpopcntdq,popcnt")))

// ---- AVX2: 8 lanes ----

struct avx2_node {
  __m256i cols, ld, rd, open;
};

NQ_AVX2 inline __m256i avx2_load_at(const std::uint32_t* p, int at) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + at));
}

NQ_AVX2 inline avx2_node avx2_load(const frame_level& level, int at) {
  return {avx2_load_at(level.cols, at), avx2_load_at(level.ld, at), avx2_load_at(level.rd, at),
          avx2_load_at(level.open, at)};
}

NQ_AVX2 inline void avx2_store_at(std::uint32_t* p, int at, __m256i value, __m256i index) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + at),
                      _mm256_permutevar8x32_epi32(value, index));
}

/// Writes the lanes of `mask` to level[at...], in order; returns how many.
NQ_AVX2 inline int avx2_append(const frame_level& level, int at, unsigned mask,
                               const avx2_node& node) {
  const __m256i index =
      _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(compress_lanes.lanes[mask])));
  avx2_store_at(level.cols, at, node.cols, index);
  avx2_store_at(level.ld, at, node.ld, index);
  avx2_store_at(level.rd, at, node.rd, index);
  avx2_store_at(level.open, at, node.open, index);
  return __builtin_popcount(mask);
}

NQ_AVX2 inline unsigned avx2_nonzero(__m256i value) {
  const __m256i zero = _mm256_cmpeq_epi32(value, _mm256_setzero_si256());
  return ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(zero))) & 0xFF;
}

/// A step's open columns and shifts in every lane, so that shifts take a vector of counts (one
/// uop, where a count in a register takes two) and no loop reloads them.
struct avx2_step {
  __m256i allowed[frame_look_ahead + 1];
  __m256i shift[frame_look_ahead + 1];
};

NQ_AVX2 inline avx2_step avx2_broadcast(const frame_step& step) {
  avx2_step wide;
  for (int k = 0; k <= frame_look_ahead; ++k) {
    wide.allowed[k] = _mm256_set1_epi32(static_cast<int>(step.allowed[k]));
    wide.shift[k] = _mm256_set1_epi32(step.shift[k]);
  }
  return wide;
}

/// The lowest open square of each node: the child's lines and the node without that square.
struct avx2_move {
  avx2_node child;
  __m256i rest;
};

NQ_AVX2 inline avx2_move avx2_place(const avx2_node& node, const avx2_step& step) {
  const __m256i bit =
      _mm256_and_si256(node.open, _mm256_sub_epi32(_mm256_setzero_si256(), node.open));
  avx2_move move;
  move.rest = _mm256_xor_si256(node.open, bit);
  move.child.cols = _mm256_or_si256(node.cols, bit);
  move.child.ld = _mm256_sllv_epi32(_mm256_or_si256(node.ld, bit), step.shift[0]);
  move.child.rd = _mm256_srlv_epi32(_mm256_or_si256(node.rd, bit), step.shift[0]);
  const __m256i taken =
      _mm256_or_si256(move.child.cols, _mm256_or_si256(move.child.ld, move.child.rd));
  move.child.open = _mm256_andnot_si256(taken, step.allowed[0]);
  return move;
}

/// The squares of each byte, counted by nibbles from a table.
NQ_AVX2 inline __m256i avx2_byte_counts(__m256i x) {
  const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2,
                                         1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  return _mm256_add_epi8(
      _mm256_shuffle_epi8(table, _mm256_and_si256(x, nibble)),
      _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble)));
}

/// The byte counts of each 32-bit lane summed into that lane.
NQ_AVX2 inline __m256i avx2_lane_sums(__m256i bytes) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1)), _mm256_set1_epi16(1));
}

/// frame_pairs for 8 children at once, each lane's count in its 32 bits.
NQ_AVX2 inline __m256i avx2_pairs(const avx2_node& child, __m256i allowed, __m256i shift) {
  const __m256i taken = _mm256_or_si256(
      child.cols,
      _mm256_or_si256(_mm256_sllv_epi32(child.ld, shift), _mm256_srlv_epi32(child.rd, shift)));
  const __m256i free = _mm256_andnot_si256(taken, allowed);
  // Counts are at most 32, so 16-bit products of the low halves are the whole products.
  const __m256i all = _mm256_mullo_epi16(avx2_lane_sums(avx2_byte_counts(child.open)),
                                         avx2_lane_sums(avx2_byte_counts(free)));
  const __m256i struck = _mm256_add_epi8(
      avx2_byte_counts(_mm256_and_si256(child.open, free)),
      _mm256_add_epi8(
          avx2_byte_counts(_mm256_and_si256(_mm256_sllv_epi32(child.open, shift), free)),
          avx2_byte_counts(_mm256_and_si256(_mm256_srlv_epi32(child.open, shift), free))));
  return _mm256_sub_epi32(all, avx2_lane_sums(struck));
}

/// The passes over nodes[first, first + count), appending the live children to `children`;
/// returns how many.
NQ_AVX2 int avx2_expand(frame_level nodes, int first, int count, frame_level children,
                        const frame_step& narrow) {
  const avx2_step step = avx2_broadcast(narrow);
  int made = 0;
  while (count > 0) {
    int kept = first;  // never past the lanes already loaded, so whole-vector stores are safe
    avx2_node next = avx2_load(nodes, first);
    for (int i = 0; i < count; i += 8) {
      const unsigned valid = count - i >= 8 ? 0xFFu : (1u << (count - i)) - 1;
      const avx2_node node = next;
      next = avx2_load(nodes, first + i + 8);  // before this vector's stores, as avx512_expand
      const avx2_move move = avx2_place(node, step);
      unsigned live = valid & avx2_nonzero(move.child.open);
      for (int k = 1; k <= frame_look_ahead; ++k) {
        const __m256i taken = _mm256_or_si256(
            move.child.cols, _mm256_or_si256(_mm256_sllv_epi32(move.child.ld, step.shift[k]),
                                             _mm256_srlv_epi32(move.child.rd, step.shift[k])));
        live &= avx2_nonzero(_mm256_andnot_si256(taken, step.allowed[k]));
      }
      made += avx2_append(children, made, live, move.child);
      kept += avx2_append(nodes, kept, valid & avx2_nonzero(move.rest),
                          {node.cols, node.ld, node.rd, move.rest});
    }
    count = kept - first;
  }
  return made;
}

/// The passes over nodes[first, first + count) of the level two above the last: each child's
/// completions, by frame_pairs, summed.
NQ_AVX2 std::uint64_t avx2_leaves(frame_level nodes, int first, int count,
                                  const frame_step& narrow) {
  const avx2_step step = avx2_broadcast(narrow);
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  // A call's leaves fit 32 bits: at most 512 nodes with 3 columns left, 2 leaves a child.
  __m256i sums = _mm256_setzero_si256();
  while (count > 0) {
    int kept = first;
    avx2_node next = avx2_load(nodes, first);
    for (int i = 0; i < count; i += 8) {
      const unsigned valid = count - i >= 8 ? 0xFFu : (1u << (count - i)) - 1;
      const avx2_node node = next;
      next = avx2_load(nodes, first + i + 8);
      const avx2_move move = avx2_place(node, step);
      const __m256i pairs = avx2_pairs(move.child, step.allowed[1], step.shift[1]);
      sums = _mm256_add_epi32(
          sums, _mm256_and_si256(pairs, _mm256_cmpgt_epi32(_mm256_set1_epi32(count - i), lane)));
      kept += avx2_append(nodes, kept, valid & avx2_nonzero(move.rest),
                          {node.cols, node.ld, node.rd, move.rest});
    }
    count = kept - first;
  }
  alignas(32) std::uint32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), sums);
  std::uint64_t total = 0;
  for (const std::uint32_t value : lanes) total += value;
  return total;
}

// ---- AVX-512: 16 lanes, with compress, population count and ternary logic in hardware ----

struct avx512_node {
  __m512i cols, ld, rd, open;
};

NQ_AVX512 inline avx512_node avx512_load(const frame_level& level, int at) {
  return {_mm512_loadu_si512(level.cols + at), _mm512_loadu_si512(level.ld + at),
          _mm512_loadu_si512(level.rd + at), _mm512_loadu_si512(level.open + at)};
}

/// Writes the lanes of `mask` to level[at...], in order; returns how many. The lanes' order is
/// compressed once and each line permuted by it: a compress is two micro-ops on the port that
/// permutes, a permute one.
NQ_AVX512 inline int avx512_append(const frame_level& level, int at, __mmask16 mask,
                                   const avx512_node& node) {
  const __m512i order = _mm512_maskz_compress_epi32(
      mask, _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  _mm512_storeu_si512(level.cols + at, _mm512_permutexvar_epi32(order, node.cols));
  _mm512_storeu_si512(level.ld + at, _mm512_permutexvar_epi32(order, node.ld));
  _mm512_storeu_si512(level.rd + at, _mm512_permutexvar_epi32(order, node.rd));
  _mm512_storeu_si512(level.open + at, _mm512_permutexvar_epi32(order, node.open));
  return __builtin_popcount(mask);
}

/// A step's open columns and shifts in every lane, so that shifts take a vector of counts (one
/// uop, where a count in a register takes two) and no loop reloads them.
struct avx512_step {
  __m512i allowed[frame_look_ahead + 1];
  __m512i shift[frame_look_ahead + 1];
};

NQ_AVX512 inline avx512_step avx512_broadcast(const frame_step& step) {
  avx512_step wide;
  for (int k = 0; k <= frame_look_ahead; ++k) {
    wide.allowed[k] = _mm512_set1_epi32(static_cast<int>(step.allowed[k]));
    wide.shift[k] = _mm512_set1_epi32(step.shift[k]);
  }
  return wide;
}

/// ~(a | b | c) in one instruction, which overwrites a (best a temporary, or it is copied).
NQ_AVX512 inline __m512i avx512_nor(__m512i a, __m512i b, __m512i c) {
  return _mm512_ternarylogic_epi32(a, b, c, 0x01);
}

struct avx512_move {
  avx512_node child;
  __m512i rest;
};

NQ_AVX512 inline avx512_move avx512_place(const avx512_node& node, const avx512_step& step) {
  const __m512i bit =
      _mm512_and_si512(node.open, _mm512_sub_epi32(_mm512_setzero_si512(), node.open));
  avx512_move move;
  move.rest = _mm512_xor_si512(node.open, bit);
  move.child.cols = _mm512_or_si512(node.cols, bit);
  move.child.ld = _mm512_sllv_epi32(_mm512_or_si512(node.ld, bit), step.shift[0]);
  move.child.rd = _mm512_srlv_epi32(_mm512_or_si512(node.rd, bit), step.shift[0]);
  move.child.open =
      _mm512_and_si512(avx512_nor(move.child.cols, move.child.ld, move.child.rd), step.allowed[0]);
  return move;
}

NQ_AVX512 inline __mmask16 avx512_valid(int left) {
  return left >= 16 ? __mmask16{0xFFFF} : static_cast<__mmask16>((1u << left) - 1);
}

/// The passes over nodes[first, first + count), appending the live children to `children`;
/// returns how many.
NQ_AVX512 int avx512_expand(frame_level nodes, int first, int count, frame_level children,
                            const frame_step& narrow) {
  const avx512_step step = avx512_broadcast(narrow);
  int made = 0;
  while (count > 0) {
    int kept = first;  // never past the lanes already loaded, so whole-vector stores are safe
    avx512_node next = avx512_load(nodes, first);
    for (int i = 0; i < count; i += 16) {
      const __mmask16 valid = avx512_valid(count - i);
      const avx512_node node = next;
      // Loaded before this vector's stores, which end short of it. Loaded after them, a pass
      // took 12% longer (512 nodes of n = 17, timed alone): the load, it seems, waited for the
      // stores' addresses, which hang on the counts of the vector before.
      next = avx512_load(nodes, first + i + 16);
      const avx512_move move = avx512_place(node, step);
      __mmask16 live = _mm512_mask_test_epi32_mask(valid, move.child.open, move.child.open);
      for (int k = 1; k <= frame_look_ahead; ++k) {
        const __m512i free =
            avx512_nor(_mm512_sllv_epi32(move.child.ld, step.shift[k]),
                       _mm512_srlv_epi32(move.child.rd, step.shift[k]), move.child.cols);
        live = _mm512_mask_test_epi32_mask(live, free, step.allowed[k]);
      }
      made += avx512_append(children, made, live, move.child);
      kept += avx512_append(nodes, kept, _mm512_mask_test_epi32_mask(valid, move.rest, move.rest),
                            {node.cols, node.ld, node.rd, move.rest});
    }
    count = kept - first;
  }
  return made;
}

/// frame_pairs for 16 children at once, each lane's count in its 32 bits.
NQ_AVX512 inline __m512i avx512_pairs(const avx512_node& child, __m512i allowed, __m512i shift) {
  const __m512i free = _mm512_and_si512(avx512_nor(child.cols, _mm512_sllv_epi32(child.ld, shift),
                                                   _mm512_srlv_epi32(child.rd, shift)),
                                        allowed);
  const __m512i all =
      _mm512_mullo_epi32(_mm512_popcnt_epi32(child.open), _mm512_popcnt_epi32(free));
  const __m512i same = _mm512_popcnt_epi32(_mm512_and_si512(child.open, free));
  const __m512i down =
      _mm512_popcnt_epi32(_mm512_and_si512(_mm512_sllv_epi32(child.open, shift), free));
  const __m512i up =
      _mm512_popcnt_epi32(_mm512_and_si512(_mm512_srlv_epi32(child.open, shift), free));
  return _mm512_sub_epi32(all, _mm512_add_epi32(same, _mm512_add_epi32(down, up)));
}

/// The passes over nodes[first, first + count) of the level two above the last: each child's
/// completions, by frame_pairs, summed.
NQ_AVX512 std::uint64_t avx512_leaves(frame_level nodes, int first, int count,
                                      const frame_step& narrow) {
  const avx512_step step = avx512_broadcast(narrow);
  // A call's leaves fit 32 bits: at most 512 nodes with 3 columns left, 2 leaves a child.
  __m512i sums = _mm512_setzero_si512();
  while (count > 0) {
    int kept = first;
    avx512_node next = avx512_load(nodes, first);
    for (int i = 0; i < count; i += 16) {
      const __mmask16 valid = avx512_valid(count - i);
      const avx512_node node = next;
      next = avx512_load(nodes, first + i + 16);
      const avx512_move move = avx512_place(node, step);
      sums = _mm512_mask_add_epi32(sums, valid, sums,
                                   avx512_pairs(move.child, step.allowed[1], step.shift[1]));
      kept += avx512_append(nodes, kept, _mm512_mask_test_epi32_mask(valid, move.rest, move.rest),
                            {node.cols, node.ld, node.rd, move.rest});
    }
    count = kept - first;
  }
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm512_reduce_add_epi32(sums)));
}

}  // namespace

const frame_kernels* avx2_frame_kernels() {
  static const frame_kernels kernels{"avx2", avx2_expand, avx2_leaves};
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") ? &kernels : nullptr;
}

const frame_kernels* avx512_frame_kernels() {
  static const frame_kernels kernels{"avx512", avx512_expand, avx512_leaves};
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq") ? &kernels
                                                                                        : nullptr;
}

}  // namespace nq::detail

#else  // not x86-64: the portable kernels only

namespace nq::detail {
const frame_kernels* avx2_frame_kernels() { return nullptr; }
const frame_kernels* avx512_frame_kernels() { return nullptr; }
}  // namespace nq::detail

#endif
