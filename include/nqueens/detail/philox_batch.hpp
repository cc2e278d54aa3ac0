#pragma once
/// @file
/// @brief Host only: the words of a philox_stream (rng.hpp), computed four blocks at a time in
/// SSE2 registers (every x86-64 CPU has them). Draws the same words
/// in the same order as philox_stream(seed, stream): a CPU search that takes it follows the
/// same path as the device's. One Philox block a word at a time is about 25 instructions a
/// word, most of a sub-board search's step (bench/results/2026-11-26-lattice-speed.md).

#include <emmintrin.h>
#include <immintrin.h>

#include <cstdint>

#include "nqueens/config.hpp"
#include "nqueens/rng.hpp"

namespace nq {

class philox_batch {
 public:
  /// @brief Blocks computed at once: 64 words, a quarter of a kilobyte.
  static constexpr unsigned blocks = 16;

  philox_batch(std::uint64_t seed, std::uint64_t stream)
      : key0_(static_cast<std::uint32_t>(seed)),
        key1_(static_cast<std::uint32_t>(seed >> 32)),
        stream0_(static_cast<std::uint32_t>(stream)),
        stream1_(static_cast<std::uint32_t>(stream >> 32)) {}

  /// @brief Whether this CPU has AVX2, so that a batch takes the eight-block path (else SSE2).
  static bool cpu_has_avx2() {
    __builtin_cpu_init();  // may run before the constructors that would otherwise call it
    return __builtin_cpu_supports("avx2");
  }

  /// @brief Takes the SSE2 path even on a CPU with AVX2 (for tests: both paths draw the
  /// same words).
  void use_sse2_only() { avx2_ = false; }

  /// @brief Goes on from the first word of block `block` of the stream (for tests: the block
  /// counter's carry into its high word).
  void seek_block(std::uint64_t block) {
    next_block_ = block;
    used_ = 4 * blocks;
  }

  /// @brief The next 32 random bits.
  std::uint32_t next_u32() {
    if (used_ == 4 * blocks) refill();
    return words_[used_++];
  }

  /// @brief Uniform integer in [0, bound), bound > 0, as philox_stream::below draws it.
  std::uint32_t below(std::uint32_t bound) { return uniform_below(*this, bound); }

 private:
  /// Blocks next_block_ .. next_block_ + blocks - 1 of the stream, Philox4x32-10 as
  /// Random123 computes it (ten rounds, the key bumped between them), four blocks a vector:
  /// lane i of x0..x3 holds word 0..3 of block i.
  void refill() {
    if (avx2_) {
      refill_avx2();
      return;
    }
    const __m128i m0 = _mm_set1_epi32(static_cast<int>(0xD2511F53));
    const __m128i m1 = _mm_set1_epi32(static_cast<int>(0xCD9E8D57));
    const __m128i low = _mm_set_epi32(0, -1, 0, -1);
    for (unsigned g = 0; g < blocks; g += 4) {
      const std::uint64_t at = next_block_ + g;
      // Four consecutive blocks; the low word carries into the high one only past 2^32.
      __m128i x0 = _mm_set_epi32(static_cast<int>(at + 3), static_cast<int>(at + 2),
                                 static_cast<int>(at + 1), static_cast<int>(at));
      __m128i x1 = _mm_set_epi32(static_cast<int>((at + 3) >> 32), static_cast<int>((at + 2) >> 32),
                                 static_cast<int>((at + 1) >> 32), static_cast<int>(at >> 32));
      __m128i x2 = _mm_set1_epi32(static_cast<int>(stream0_));
      __m128i x3 = _mm_set1_epi32(static_cast<int>(stream1_));
      std::uint32_t k0 = key0_, k1 = key1_;
      for (int round = 0; round < 10; ++round) {
        const __m128i e0 = _mm_mul_epu32(x0, m0), o0 = _mm_mul_epu32(_mm_srli_epi64(x0, 32), m0);
        const __m128i e1 = _mm_mul_epu32(x2, m1), o1 = _mm_mul_epu32(_mm_srli_epi64(x2, 32), m1);
        const __m128i lo0 = _mm_or_si128(_mm_and_si128(e0, low), _mm_slli_epi64(o0, 32));
        const __m128i hi0 = _mm_or_si128(_mm_srli_epi64(e0, 32), _mm_andnot_si128(low, o0));
        const __m128i lo1 = _mm_or_si128(_mm_and_si128(e1, low), _mm_slli_epi64(o1, 32));
        const __m128i hi1 = _mm_or_si128(_mm_srli_epi64(e1, 32), _mm_andnot_si128(low, o1));
        x0 = _mm_xor_si128(_mm_xor_si128(hi1, x1), _mm_set1_epi32(static_cast<int>(k0)));
        x1 = lo1;
        x2 = _mm_xor_si128(_mm_xor_si128(hi0, x3), _mm_set1_epi32(static_cast<int>(k1)));
        x3 = lo0;
        k0 += 0x9E3779B9;
        k1 += 0xBB67AE85;
      }
      // Lanes to blocks: words 4i .. 4i + 3 are block i's x0..x3.
      const __m128i t0 = _mm_unpacklo_epi32(x0, x1), t1 = _mm_unpackhi_epi32(x0, x1);
      const __m128i t2 = _mm_unpacklo_epi32(x2, x3), t3 = _mm_unpackhi_epi32(x2, x3);
      auto* out = reinterpret_cast<__m128i*>(words_ + 4 * g);
      _mm_storeu_si128(out, _mm_unpacklo_epi64(t0, t2));
      _mm_storeu_si128(out + 1, _mm_unpackhi_epi64(t0, t2));
      _mm_storeu_si128(out + 2, _mm_unpacklo_epi64(t1, t3));
      _mm_storeu_si128(out + 3, _mm_unpackhi_epi64(t1, t3));
    }
    next_block_ += blocks;
    used_ = 0;
  }

  /// The same blocks eight a vector (AVX2, where the CPU has it: about half the instructions
  /// a word). Lane i of x0..x3 holds block i; unpack works within each 128-bit half, so the
  /// low halves end as blocks 0..3 and the high ones as blocks 4..7.
  [[gnu::target("avx2")]] void refill_avx2() {
    const __m256i m0 = _mm256_set1_epi32(static_cast<int>(0xD2511F53));
    const __m256i m1 = _mm256_set1_epi32(static_cast<int>(0xCD9E8D57));
    for (unsigned g = 0; g < blocks; g += 8) {
      const std::uint64_t at = next_block_ + g;
      alignas(32) std::uint32_t lo_words[8], hi_words[8];
      for (unsigned i = 0; i < 8; ++i) {
        lo_words[i] = static_cast<std::uint32_t>(at + i);
        hi_words[i] = static_cast<std::uint32_t>((at + i) >> 32);
      }
      __m256i x0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(lo_words));
      __m256i x1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(hi_words));
      __m256i x2 = _mm256_set1_epi32(static_cast<int>(stream0_));
      __m256i x3 = _mm256_set1_epi32(static_cast<int>(stream1_));
      std::uint32_t k0 = key0_, k1 = key1_;
      for (int round = 0; round < 10; ++round) {
        const __m256i e0 = _mm256_mul_epu32(x0, m0);
        const __m256i o0 = _mm256_mul_epu32(_mm256_srli_epi64(x0, 32), m0);
        const __m256i e1 = _mm256_mul_epu32(x2, m1);
        const __m256i o1 = _mm256_mul_epu32(_mm256_srli_epi64(x2, 32), m1);
        const __m256i lo0 = _mm256_blend_epi32(e0, _mm256_slli_epi64(o0, 32), 0xAA);
        const __m256i hi0 = _mm256_blend_epi32(_mm256_srli_epi64(e0, 32), o0, 0xAA);
        const __m256i lo1 = _mm256_blend_epi32(e1, _mm256_slli_epi64(o1, 32), 0xAA);
        const __m256i hi1 = _mm256_blend_epi32(_mm256_srli_epi64(e1, 32), o1, 0xAA);
        x0 = _mm256_xor_si256(_mm256_xor_si256(hi1, x1), _mm256_set1_epi32(static_cast<int>(k0)));
        x1 = lo1;
        x2 = _mm256_xor_si256(_mm256_xor_si256(hi0, x3), _mm256_set1_epi32(static_cast<int>(k1)));
        x3 = lo0;
        k0 += 0x9E3779B9;
        k1 += 0xBB67AE85;
      }
      const __m256i t0 = _mm256_unpacklo_epi32(x0, x1), t1 = _mm256_unpackhi_epi32(x0, x1);
      const __m256i t2 = _mm256_unpacklo_epi32(x2, x3), t3 = _mm256_unpackhi_epi32(x2, x3);
      const __m256i r0 = _mm256_unpacklo_epi64(t0, t2), r1 = _mm256_unpackhi_epi64(t0, t2);
      const __m256i r2 = _mm256_unpacklo_epi64(t1, t3), r3 = _mm256_unpackhi_epi64(t1, t3);
      auto* out = reinterpret_cast<__m256i*>(words_ + 4 * g);
      _mm256_storeu_si256(out, _mm256_permute2x128_si256(r0, r1, 0x20));
      _mm256_storeu_si256(out + 1, _mm256_permute2x128_si256(r2, r3, 0x20));
      _mm256_storeu_si256(out + 2, _mm256_permute2x128_si256(r0, r1, 0x31));
      _mm256_storeu_si256(out + 3, _mm256_permute2x128_si256(r2, r3, 0x31));
    }
    next_block_ += blocks;
    used_ = 0;
  }

  bool avx2_ = cpu_has_avx2();
  std::uint32_t key0_, key1_, stream0_, stream1_;
  std::uint64_t next_block_ = 0;
  std::uint32_t words_[4 * blocks];
  unsigned used_ = 4 * blocks;
};

}  // namespace nq
