#pragma once
// The k least of a grid's elements without sorting them all (population_grid.cu, beam_grid.cu):
// a radix select of the k-th least (key, number), 11 bits a pass from the top, each pass one
// launch that counts the digits of the elements still in the running (a histogram per block in
// shared memory, added into one in global memory) and whose last block to finish picks the
// digit of the k-th; then one launch takes every element up to the k-th (k of them, numbers
// being unique), in no order, for a sort of those k alone. Keys bound the passes: a pass over
// bits no key has is not made, nor one over the numbers unless the k-th's key is shared.

#include <cstdint>

#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"

namespace nq::cuda {

inline constexpr unsigned select_digit_bits = 11;
inline constexpr unsigned select_bins = 1u << select_digit_bits;
inline constexpr unsigned select_threads = 256;
inline constexpr unsigned select_bins_per_thread = select_bins / select_threads;

/// Bits a value below `bound` needs (0 for bound <= 1).
inline unsigned bits_below(std::uint64_t bound) {
  unsigned bits = 0;
  while (bits < 64 && (bound - 1) >> bits != 0 && bound > 1) ++bits;
  return bits;
}

/// Passes of 11 bits over `bits` bits.
inline unsigned select_passes(unsigned bits) {
  return (bits + select_digit_bits - 1) / select_digit_bits;
}

/// Where a selection stands between its passes (device memory).
struct select_state {
  std::uint64_t key, number;  // the k-th's digits found so far; all of it once settled
  std::uint64_t rank;         // the k-th's rank among the elements still in the running (1: least)
  std::uint64_t taken;        // elements the compaction has taken
  unsigned arrived;           // blocks through the present pass
  unsigned settled;           // the k-th is known: later passes return at once
  std::uint64_t counts[select_bins];  // the present pass's histogram, zero between passes
};

/// The bits of x above bit `shift + 11` (none past 64).
NQ_HD inline std::uint64_t above_digit(std::uint64_t x, unsigned shift) {
  return shift + select_digit_bits >= 64 ? 0 : x >> (shift + select_digit_bits);
}

/// x with its bits below bit `shift` set: the greatest value whose upper digits are x's.
NQ_HD inline std::uint64_t fill_below(std::uint64_t x, unsigned shift) {
  return shift == 0 ? x : x | ((std::uint64_t{1} << shift) - 1);
}

/// Starts a selection of the k-th least of the elements (one thread).
struct select_begin {
  select_state* s;
  std::uint64_t k;
  NQ_HD void operator()(const thread_id& id) const {
    if (id.global() != 0) return;
    s->key = s->number = 0;
    s->rank = k;
    s->taken = 0;
    s->arrived = 0;
    s->settled = 0;
  }
};

/// Zeroes a fresh select_state's histogram (once, after it is allocated).
struct select_clear {
  select_state* s;
  NQ_HD void operator()(const thread_id& id) const {
    for (std::uint64_t b = id.global(); b < select_bins; b += id.grid_threads()) s->counts[b] = 0;
  }
};

/// One pass: the digit at `shift` of each element's key (or of its number, once the key is
/// known) among those whose upper digits are the k-th's. Elements: count(), key(i), number(i),
/// done() (the run is over: nothing to do).
template <class Elements>
struct select_pass {
  struct shared {
    unsigned last;
  };
  using shared_state = shared;
  Elements e;
  select_state* s;
  bool on_number;
  unsigned shift;
  unsigned blocks;

  NQ_HD bool in_running(std::uint64_t key, std::uint64_t number, std::uint64_t k_key,
                        std::uint64_t k_number) const {
    if (!on_number) return above_digit(key, shift) == above_digit(k_key, shift);
    return key == k_key && above_digit(number, shift) == above_digit(k_number, shift);
  }

  template <class Block>
  NQ_HD void operator()(Block& block, shared& sh) const {
    if (e.done() || s->settled) return;  // uniform: written by an earlier launch
    auto* counts = reinterpret_cast<unsigned*>(block.shared());
    const std::uint64_t k_key = s->key, k_number = s->number, rank = s->rank;
    const std::uint64_t count = e.count();
    block.each([&](unsigned t) {
      for (unsigned b = t; b < select_bins; b += Block::threads) counts[b] = 0;
    });
    block.each([&](unsigned t) {
      const std::uint64_t stride = std::uint64_t{blocks} * Block::threads;
      for (std::uint64_t i = std::uint64_t{block.index()} * Block::threads + t; i < count;
           i += stride) {
        const std::uint64_t key = e.key(i), number = on_number ? e.number(i) : 0;
        if (!in_running(key, number, k_key, k_number)) continue;
        const std::uint64_t digit = ((on_number ? number : key) >> shift) & (select_bins - 1);
        atomic_add(&counts[digit], 1u);
      }
    });
    block.each([&](unsigned t) {
      for (unsigned b = t; b < select_bins; b += Block::threads)
        if (counts[b] != 0) atomic_add(&s->counts[b], std::uint64_t{counts[b]});
      fence_device();
    });
    block.each([&](unsigned t) {
      if (t == 0) sh.last = arrive_last(&s->arrived, blocks);
    });
    if (!sh.last) return;
    // The last block: the digit whose elements hold rank `rank`, by a block-wide running sum
    // of the histogram (each thread a run of bins), which it leaves zeroed.
    per_thread<std::uint64_t, Block::copies> before, mine;
    block.exclusive_sum(
        [&](unsigned t) {
          std::uint64_t sum = 0;
          for (unsigned b = t * select_bins_per_thread; b < (t + 1) * select_bins_per_thread; ++b)
            sum += load_relaxed(&s->counts[b]);
          mine[t] = sum;
          return sum;
        },
        before);
    block.each([&](unsigned t) {
      std::uint64_t below = before[t];
      const bool holds = below < rank && rank <= below + mine[t];
      for (unsigned b = t * select_bins_per_thread; b < (t + 1) * select_bins_per_thread; ++b) {
        const std::uint64_t here = load_relaxed(&s->counts[b]);
        s->counts[b] = 0;
        if (!holds || below >= rank || rank > below + here) {
          below += here;
          continue;
        }
        const std::uint64_t left = rank - below;  // the k-th's rank among digit b's
        if (on_number) {
          s->number = (k_number & ~((std::uint64_t{select_bins} - 1) << shift)) |
                      (std::uint64_t{b} << shift);
        } else {
          s->key =
              (k_key & ~((std::uint64_t{select_bins} - 1) << shift)) | (std::uint64_t{b} << shift);
        }
        s->rank = left;
        if (here == left) {  // every element of digit b is taken: the k-th is their greatest
          if (on_number) {
            s->number = fill_below(s->number, shift);
          } else {
            s->key = fill_below(s->key, shift);
            s->number = ~std::uint64_t{0};
          }
          s->settled = 1;
        }
        below += here;
      }
      if (t == 0) s->arrived = 0;
    });
  }
};

/// Every element up to the k-th, to `keys` and `numbers` (either may be null) in no order.
template <class Elements>
struct select_take {
  Elements e;
  select_state* s;
  std::uint64_t k;
  std::uint64_t* keys;
  std::uint64_t* numbers;
  NQ_HD void operator()(const thread_id& id) const {
    if (e.done()) return;
    const std::uint64_t k_key = s->key, k_number = s->number, count = e.count();
    for (std::uint64_t i = id.global(); i < count; i += id.grid_threads()) {
      const std::uint64_t key = e.key(i);
      if (key > k_key) continue;
      const std::uint64_t number = e.number(i);
      if (key == k_key && number > k_number) continue;
      const std::uint64_t slot = atomic_add(&s->taken, std::uint64_t{1});
      if (slot >= k) continue;  // cannot happen once settled: k elements are up to the k-th
      if (keys) keys[slot] = key;
      if (numbers) numbers[slot] = number;
    }
  }
};

/// Blocks of a pass: each at least 8 elements a thread (its histogram's clearing and adding
/// amortised), at most 1,024 (a few per multiprocessor; the rest striding).
inline unsigned select_blocks(std::uint64_t count) {
  return grid_size(static_cast<index_t>(count), select_threads * 8, 1024);
}

/// Launches select_least queues: one to begin, a pass per 11 bits of key and of number, and
/// the compaction.
inline unsigned select_launches(unsigned key_bits, unsigned number_bits) {
  return 2 + select_passes(key_bits) + select_passes(number_bits);
}

/// Queues a selection of the k least elements (1 <= k <= e.count() when the run is not done)
/// into keys and numbers (either may be null), in no order: every key is below 2^key_bits and
/// every number below 2^number_bits, the numbers unique.
template <class Elements>
void select_least(const Elements& e, select_state* s, std::uint64_t k, unsigned key_bits,
                  unsigned number_bits, std::uint64_t* keys, std::uint64_t* numbers) {
  const unsigned blocks = select_blocks(e.count());
  const unsigned take_blocks = grid_size(static_cast<index_t>(e.count()), select_threads);
  launch_threads("select_begin", 1, 1, select_begin{s, k});
  for (unsigned pass = select_passes(key_bits); pass-- > 0;)
    launch_blocks<select_threads>(
        "select_pass", blocks, select_bins * sizeof(unsigned),
        select_pass<Elements>{e, s, false, pass * select_digit_bits, blocks});
  for (unsigned pass = select_passes(number_bits); pass-- > 0;)
    launch_blocks<select_threads>(
        "select_pass", blocks, select_bins * sizeof(unsigned),
        select_pass<Elements>{e, s, true, pass * select_digit_bits, blocks});
  launch_threads("select_take", take_blocks, select_threads,
                 select_take<Elements>{e, s, k, keys, numbers});
}

}  // namespace nq::cuda
