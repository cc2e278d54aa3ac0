// The frame counter's x86 vector kernels, AVX2 (8 lanes) and AVX-512 (16 lanes). Each pass
// takes the lowest open square of every node: the live children are compressed onto the end of
// the next level, the nodes with squares left onto the front of their own, for another pass.
// Only these functions use the wider instructions (target attributes, chosen at run time), so
// the build needs no -march and runs on any x86-64.

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

/// The lowest open square of each node: the child's lines and the node without that square.
struct avx2_move {
  avx2_node child;
  __m256i rest;
};

NQ_AVX2 inline avx2_move avx2_place(const avx2_node& node, const frame_step& step) {
  const __m256i bit =
      _mm256_and_si256(node.open, _mm256_sub_epi32(_mm256_setzero_si256(), node.open));
  const __m128i shift = _mm_cvtsi32_si128(step.shift[0]);
  avx2_move move;
  move.rest = _mm256_xor_si256(node.open, bit);
  move.child.cols = _mm256_or_si256(node.cols, bit);
  move.child.ld = _mm256_sll_epi32(_mm256_or_si256(node.ld, bit), shift);
  move.child.rd = _mm256_srl_epi32(_mm256_or_si256(node.rd, bit), shift);
  const __m256i taken =
      _mm256_or_si256(move.child.cols, _mm256_or_si256(move.child.ld, move.child.rd));
  move.child.open =
      _mm256_andnot_si256(taken, _mm256_set1_epi32(static_cast<int>(step.allowed[0])));
  return move;
}

/// The passes over nodes[first, first + count): with Leaves, the sum of the children's open
/// squares; else the live children, appended to `children`, and how many.
template <bool Leaves>
NQ_AVX2 std::uint64_t avx2_passes(frame_level nodes, int first, int count, frame_level children,
                                  const frame_step& step) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  __m256i sums = _mm256_setzero_si256();  // four 64-bit sums
  int made = 0;
  while (count > 0) {
    int kept = first;  // never past the lanes already loaded, so whole-vector stores are safe
    for (int i = 0; i < count; i += 8) {
      const unsigned valid = count - i >= 8 ? 0xFFu : (1u << (count - i)) - 1;
      const avx2_node node = avx2_load(nodes, first + i);
      const avx2_move move = avx2_place(node, step);
      if constexpr (Leaves) {
        __m256i x = _mm256_and_si256(move.child.open,
                                     _mm256_cmpgt_epi32(_mm256_set1_epi32(count - i), lane));
        // Population counts: bits summed in pairs, nibbles, then bytes, and the bytes summed.
        x = _mm256_sub_epi32(x, _mm256_and_si256(_mm256_srli_epi32(x, 1), _mm256_set1_epi8(0x55)));
        x = _mm256_add_epi32(_mm256_and_si256(x, _mm256_set1_epi8(0x33)),
                             _mm256_and_si256(_mm256_srli_epi32(x, 2), _mm256_set1_epi8(0x33)));
        x = _mm256_and_si256(_mm256_add_epi32(x, _mm256_srli_epi32(x, 4)), _mm256_set1_epi8(0x0F));
        sums = _mm256_add_epi64(sums, _mm256_sad_epu8(x, _mm256_setzero_si256()));
      } else {
        unsigned live = valid & avx2_nonzero(move.child.open);
        for (int k = 1; k <= frame_look_ahead; ++k) {
          const __m128i shift = _mm_cvtsi32_si128(step.shift[k]);
          const __m256i taken = _mm256_or_si256(
              move.child.cols, _mm256_or_si256(_mm256_sll_epi32(move.child.ld, shift),
                                               _mm256_srl_epi32(move.child.rd, shift)));
          live &= avx2_nonzero(
              _mm256_andnot_si256(taken, _mm256_set1_epi32(static_cast<int>(step.allowed[k]))));
        }
        made += avx2_append(children, made, live, move.child);
      }
      kept += avx2_append(nodes, kept, valid & avx2_nonzero(move.rest),
                          {node.cols, node.ld, node.rd, move.rest});
    }
    count = kept - first;
  }
  if constexpr (!Leaves) return static_cast<std::uint64_t>(made);
  alignas(32) std::uint64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), sums);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

NQ_AVX2 int avx2_expand(frame_level nodes, int first, int count, frame_level children,
                        const frame_step& step) {
  return static_cast<int>(avx2_passes<false>(nodes, first, count, children, step));
}

NQ_AVX2 std::uint64_t avx2_leaves(frame_level nodes, int first, int count, const frame_step& step) {
  return avx2_passes<true>(nodes, first, count, {}, step);
}

// ---- AVX-512: 16 lanes, with compress and population count in hardware ----

struct avx512_node {
  __m512i cols, ld, rd, open;
};

NQ_AVX512 inline avx512_node avx512_load(const frame_level& level, int at) {
  return {_mm512_loadu_si512(level.cols + at), _mm512_loadu_si512(level.ld + at),
          _mm512_loadu_si512(level.rd + at), _mm512_loadu_si512(level.open + at)};
}

NQ_AVX512 inline int avx512_append(const frame_level& level, int at, __mmask16 mask,
                                   const avx512_node& node) {
  _mm512_storeu_si512(level.cols + at, _mm512_maskz_compress_epi32(mask, node.cols));
  _mm512_storeu_si512(level.ld + at, _mm512_maskz_compress_epi32(mask, node.ld));
  _mm512_storeu_si512(level.rd + at, _mm512_maskz_compress_epi32(mask, node.rd));
  _mm512_storeu_si512(level.open + at, _mm512_maskz_compress_epi32(mask, node.open));
  return __builtin_popcount(mask);
}

struct avx512_move {
  avx512_node child;
  __m512i rest;
};

NQ_AVX512 inline avx512_move avx512_place(const avx512_node& node, const frame_step& step) {
  const __m512i bit =
      _mm512_and_si512(node.open, _mm512_sub_epi32(_mm512_setzero_si512(), node.open));
  const __m128i shift = _mm_cvtsi32_si128(step.shift[0]);
  avx512_move move;
  move.rest = _mm512_xor_si512(node.open, bit);
  move.child.cols = _mm512_or_si512(node.cols, bit);
  move.child.ld = _mm512_sll_epi32(_mm512_or_si512(node.ld, bit), shift);
  move.child.rd = _mm512_srl_epi32(_mm512_or_si512(node.rd, bit), shift);
  const __m512i taken =
      _mm512_or_si512(move.child.cols, _mm512_or_si512(move.child.ld, move.child.rd));
  move.child.open =
      _mm512_andnot_si512(taken, _mm512_set1_epi32(static_cast<int>(step.allowed[0])));
  return move;
}

NQ_AVX512 inline __mmask16 avx512_valid(int left) {
  return left >= 16 ? __mmask16{0xFFFF} : static_cast<__mmask16>((1u << left) - 1);
}

/// As avx2_passes, 16 lanes at a time.
template <bool Leaves>
NQ_AVX512 std::uint64_t avx512_passes(frame_level nodes, int first, int count, frame_level children,
                                      const frame_step& step) {
  __m512i sums = _mm512_setzero_si512();  // a call's leaves fit 32 bits: 512 * 30 * 30
  int made = 0;
  while (count > 0) {
    int kept = first;  // never past the lanes already loaded, so whole-vector stores are safe
    for (int i = 0; i < count; i += 16) {
      const __mmask16 valid = avx512_valid(count - i);
      const avx512_node node = avx512_load(nodes, first + i);
      const avx512_move move = avx512_place(node, step);
      if constexpr (Leaves) {
        sums = _mm512_mask_add_epi32(sums, valid, sums, _mm512_popcnt_epi32(move.child.open));
      } else {
        __mmask16 live = _mm512_mask_test_epi32_mask(valid, move.child.open, move.child.open);
        for (int k = 1; k <= frame_look_ahead; ++k) {
          const __m128i shift = _mm_cvtsi32_si128(step.shift[k]);
          const __m512i taken = _mm512_or_si512(
              move.child.cols, _mm512_or_si512(_mm512_sll_epi32(move.child.ld, shift),
                                               _mm512_srl_epi32(move.child.rd, shift)));
          const __m512i open =
              _mm512_andnot_si512(taken, _mm512_set1_epi32(static_cast<int>(step.allowed[k])));
          live = _mm512_mask_test_epi32_mask(live, open, open);
        }
        made += avx512_append(children, made, live, move.child);
      }
      kept += avx512_append(nodes, kept, _mm512_mask_test_epi32_mask(valid, move.rest, move.rest),
                            {node.cols, node.ld, node.rd, move.rest});
    }
    count = kept - first;
  }
  if constexpr (!Leaves) return static_cast<std::uint64_t>(made);
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm512_reduce_add_epi32(sums)));
}

NQ_AVX512 int avx512_expand(frame_level nodes, int first, int count, frame_level children,
                            const frame_step& step) {
  return static_cast<int>(avx512_passes<false>(nodes, first, count, children, step));
}

NQ_AVX512 std::uint64_t avx512_leaves(frame_level nodes, int first, int count,
                                      const frame_step& step) {
  return avx512_passes<true>(nodes, first, count, {}, step);
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
