#pragma once
/// @file
/// @brief philox_stream's words from a stream that a GPU thread keeps in registers: the block
/// drawn from sits in four scalars read through selects, where philox_stream's block_[used_]
/// (an array read at a run-time index) puts the whole stream in local memory.

#include "nqueens/rng.hpp"

namespace nq {

/// @brief The same words, in the same order, as philox_stream(seed, stream).
class philox_register_stream {
 public:
  NQ_HD philox_register_stream(std::uint64_t seed, std::uint64_t stream)
      : key0_(static_cast<std::uint32_t>(seed)),
        key1_(static_cast<std::uint32_t>(seed >> 32)),
        stream0_(static_cast<std::uint32_t>(stream)),
        stream1_(static_cast<std::uint32_t>(stream >> 32)) {}

  /// @brief The next 32 random bits.
  NQ_HD std::uint32_t next_u32() {
    if (used_ == 4) refill();
    const std::uint32_t w = used_ == 0 ? w0_ : used_ == 1 ? w1_ : used_ == 2 ? w2_ : w3_;
    ++used_;
    return w;
  }

  /// @brief Uniform integer in [0, bound), bound > 0, as philox_stream::below draws it.
  NQ_HD std::uint32_t below(std::uint32_t bound) { return uniform_below(*this, bound); }

  /// @brief Uniform double in [0, 1) from the next two words (high first), as
  /// philox_stream::uniform draws it.
  NQ_HD double uniform() {
    const std::uint64_t high = next_u32();
    const std::uint64_t bits = (high << 32) | next_u32();
    return static_cast<double>(bits >> 11) * 0x1.0p-53;
  }

  /// @brief Blocks of four words drawn so far, as philox_stream::blocks_drawn counts them.
  NQ_HD std::uint64_t blocks_drawn() const { return next_block_; }

 private:
  NQ_HD void refill() {
    const r123::Philox4x32::ctr_type at = {{static_cast<std::uint32_t>(next_block_),
                                            static_cast<std::uint32_t>(next_block_ >> 32), stream0_,
                                            stream1_}};
    const r123::Philox4x32::key_type key = {{key0_, key1_}};
    const r123::Philox4x32::ctr_type block = r123::Philox4x32{}(at, key);
    w0_ = block[0];
    w1_ = block[1];
    w2_ = block[2];
    w3_ = block[3];
    ++next_block_;
    used_ = 0;
  }

  std::uint32_t key0_, key1_, stream0_, stream1_;
  std::uint64_t next_block_ = 0;
  std::uint32_t w0_ = 0, w1_ = 0, w2_ = 0, w3_ = 0;
  std::uint32_t used_ = 4;
};

}  // namespace nq
