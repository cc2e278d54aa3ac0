#pragma once
/// @file
/// @brief Counter-based random numbers (Random123 Philox4x32-10), identical on host and device.
///
/// A stream is keyed by (seed, stream): the seed is the Philox key and the stream index sits in
/// the upper half of the counter, so run k of a batch draws the same numbers whether it runs
/// alone or among millions, on the CPU or on a GPU thread.

#include <Random123/philox.h>

#include "nqueens/config.hpp"

namespace nq {

/// @brief Uniform integer in [0, bound), bound > 0, from `words`' next_u32(), without bias
/// (Lemire's multiply-shift with rejection; the rejection needs a division only about
/// bound / 2^32 of the time). Every generator's below(), so that all draw the same numbers
/// from the same words.
template <class Words>
NQ_HD std::uint32_t uniform_below(Words& words, std::uint32_t bound) {
  std::uint64_t product = static_cast<std::uint64_t>(words.next_u32()) * bound;
  auto low = static_cast<std::uint32_t>(product);
  if (low < bound) {
    const std::uint32_t threshold = (0u - bound) % bound;
    while (low < threshold) {
      product = static_cast<std::uint64_t>(words.next_u32()) * bound;
      low = static_cast<std::uint32_t>(product);
    }
  }
  return static_cast<std::uint32_t>(product >> 32);
}

/// @brief One reproducible random stream; 2^64 blocks of four 32-bit words.
class philox_stream {
 public:
  NQ_HD philox_stream(std::uint64_t seed, std::uint64_t stream) {
    key_ = {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
    counter_ = {
        {0, 0, static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32)}};
  }

  /// @brief The next 32 random bits.
  NQ_HD std::uint32_t next_u32() {
    if (used_ == 4) refill();
    return block_[used_++];
  }

  /// @brief The next 64 random bits (two words).
  NQ_HD std::uint64_t next_u64() {
    const std::uint64_t hi = next_u32();
    return (hi << 32) | next_u32();
  }

  /// @brief Uniform integer in [0, bound), bound > 0: uniform_below over this stream's words.
  NQ_HD std::uint32_t below(std::uint32_t bound) { return uniform_below(*this, bound); }

  /// @brief Uniform double in [0, 1) with 53 random bits.
  NQ_HD double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  /// @brief Word j of this stream counted from its start, whatever has been drawn: random
  /// access, for keys drawn in parallel in a fixed order.
  NQ_HD std::uint32_t word(std::uint64_t j) const {
    return block_at(j >> 2)[static_cast<unsigned>(j & 3)];
  }

  /// @brief Block b of this stream (words 4b .. 4b + 3), whatever has been drawn.
  NQ_HD r123::Philox4x32::ctr_type block_at(std::uint64_t b) const {
    r123::Philox4x32::ctr_type at = counter_;
    at[0] = static_cast<std::uint32_t>(b);
    at[1] = static_cast<std::uint32_t>(b >> 32);
    return r123::Philox4x32{}(at, key_);
  }

  /// @brief Blocks of four words drawn so far: the position to resume this stream from.
  NQ_HD std::uint64_t blocks_drawn() const {
    return (static_cast<std::uint64_t>(counter_[1]) << 32) | counter_[0];
  }

 private:
  NQ_HD void refill() {
    block_ = r123::Philox4x32{}(counter_, key_);
    if (++counter_[0] == 0) ++counter_[1];
    used_ = 0;
  }

  r123::Philox4x32::key_type key_;
  r123::Philox4x32::ctr_type counter_;
  r123::Philox4x32::ctr_type block_{};
  unsigned used_ = 4;
};

}  // namespace nq
