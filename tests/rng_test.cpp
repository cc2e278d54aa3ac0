#include "nqueens/rng.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "nqueens/detail/philox_batch.hpp"

namespace nq {
namespace {

std::vector<std::uint32_t> draw(philox_stream rng, int count) {
  std::vector<std::uint32_t> words(count);
  for (auto& w : words) w = rng.next_u32();
  return words;
}

// Random123's published known-answer vectors for Philox4x32-10. Seed 0, stream 0 starts at
// counter 0 with key 0, which pins our (seed, stream) -> (key, counter) layout too.
TEST(Philox, MatchesPublishedKnownAnswers) {
  EXPECT_EQ(draw(philox_stream(0, 0), 4),
            (std::vector<std::uint32_t>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  const r123::Philox4x32::ctr_type ctr = {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}};
  const r123::Philox4x32::key_type key = {{0xa4093822, 0x299f31d0}};
  const auto block = r123::Philox4x32{}(ctr, key);
  EXPECT_EQ(block[0], 0xd16cfe09u);
  EXPECT_EQ(block[3], 0x24126ea1u);
}

TEST(Philox, StreamsAreReproducibleAndDistinct) {
  const auto a = draw(philox_stream(42, 7), 64);
  EXPECT_EQ(a, draw(philox_stream(42, 7), 64));
  EXPECT_NE(a, draw(philox_stream(42, 8), 64));
  EXPECT_NE(a, draw(philox_stream(43, 7), 64));
  // Seeds and streams use all 64 bits.
  EXPECT_NE(draw(philox_stream(1, 0), 8), draw(philox_stream(1ull << 32 | 1, 0), 8));
  EXPECT_NE(draw(philox_stream(1, 1), 8), draw(philox_stream(1, 1ull << 32 | 1), 8));
}

TEST(Philox, CountsBlocksDrawn) {
  philox_stream rng(1, 2);
  EXPECT_EQ(rng.blocks_drawn(), 0u);
  for (int i = 0; i < 9; ++i) rng.next_u32();
  EXPECT_EQ(rng.blocks_drawn(), 3u);
  rng.next_u64();
  EXPECT_EQ(rng.blocks_drawn(), 3u);
}

TEST(Philox, BelowStaysInRange) {
  philox_stream rng(5, 0);
  for (const std::uint32_t bound : {1u, 2u, 3u, 7u, 1000u, (1u << 31) + 1, 0xFFFFFFFFu}) {
    for (int i = 0; i < 20000; ++i) ASSERT_LT(rng.below(bound), bound) << "bound " << bound;
  }
}

// Chi-square test with 9 degrees of freedom: the 0.1% critical value is 27.88, so a correct
// generator fails this fixed-seed test with probability 0.001.
TEST(Philox, BelowIsUniformOverSmallBounds) {
  philox_stream rng(11, 0);
  constexpr int bins = 10, draws = 200000;
  std::vector<int> count(bins);
  for (int i = 0; i < draws; ++i) ++count[rng.below(bins)];
  double chi2 = 0;
  for (const int c : count) chi2 += (c - draws / bins) * (c - draws / bins) / double(draws / bins);
  EXPECT_LT(chi2, 27.88);
}

// For a bound of 3 * 2^30, a plain 32-bit multiply-shift gives the lower third of the values
// twice the weight of the rest (mean 0.4 of the bound instead of 0.5); rejection fixes that.
// Tolerance: 6 standard errors of a uniform mean, sqrt(1/12/draws).
TEST(Philox, BelowIsUnbiasedForLargeBounds) {
  philox_stream rng(12, 0);
  constexpr std::uint32_t bound = 3u << 30;
  constexpr int draws = 400000;
  double sum = 0;
  for (int i = 0; i < draws; ++i) sum += rng.below(bound) / double(bound);
  EXPECT_NEAR(sum / draws, 0.5, 6 * std::sqrt(1.0 / 12 / draws));
}

TEST(Philox, UniformLiesInUnitInterval) {
  philox_stream rng(13, 0);
  constexpr int draws = 100000;
  double sum = 0;
  for (int i = 0; i < draws; ++i) {
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / draws, 0.5, 6 * std::sqrt(1.0 / 12 / draws));
}

// The host's batched stream (four blocks a vector) draws philox_stream's words, in order:
// across refills, for large and small bounds, and with a stream index past 32 bits.
TEST(Philox, TheBatchDrawsTheStreamsWords) {
  for (const bool sse2_only : {false, true})  // AVX2 where the CPU has it, and SSE2
    for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{0xdeadbeefcafe}})
      for (const std::uint64_t stream :
           {std::uint64_t{0}, std::uint64_t{7}, std::uint64_t{1} << 40}) {
        philox_stream one(seed, stream);
        philox_batch batch(seed, stream);
        if (sse2_only) batch.use_sse2_only();
        for (std::uint32_t i = 0; i < 20000; ++i) {
          const std::uint32_t bound = i % 3 == 0 ? 3u << 30 : 1 + i * 7919u % 100000;
          ASSERT_EQ(one.below(bound), batch.below(bound))
              << "draw " << i << ", sse2 only " << sse2_only;
        }
        ASSERT_EQ(one.next_u32(), batch.next_u32());
      }
}

TEST(Philox, TheBatchCarriesItsBlockCounterPast32Bits) {
  // Refills that start 5 blocks below 2^32 hold blocks on both sides of the carry.
  const std::uint64_t first = (std::uint64_t{1} << 32) - 5;
  for (const bool sse2_only : {false, true}) {
    const philox_stream one(3, 11);
    philox_batch batch(3, 11);
    if (sse2_only) batch.use_sse2_only();
    batch.seek_block(first);
    for (std::uint64_t i = 0; i < 4 * 3 * philox_batch::blocks; ++i)
      ASSERT_EQ(one.word(4 * first + i), batch.next_u32())
          << "word " << i << ", sse2 only " << sse2_only;
  }
}

}  // namespace
}  // namespace nq
