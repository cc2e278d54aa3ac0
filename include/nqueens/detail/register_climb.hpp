#pragma once
/// @file
/// @brief hc, hc-sideways and hc-restart on boards of 4 to 16 queens with the whole chain in
/// registers: the batch hot path (no observer, no time limit). The board is a template, so
/// every loop over columns and count words unrolls and nothing is an array read at a run-time
/// index. It walks exactly as hill_climb (hill_climbing.hpp) on a climber_view with a random
/// start: the same draws in the same order, the same moves, the same chain_outcome.
///
/// Queen rows are 4-bit fields of one 64-bit word; line counts (rows, "\" and "/" diagonals)
/// are bytes of 32-bit words. A column's line loads, four rows a word, are three adds of byte
/// windows (a funnel shift each); a steepest scan takes each column's least delta (min.u16x2 over
/// even and odd bytes) and the rows that reach it (a byte-wise compare), then the columns that
/// reach the best.

#include <utility>

#include "nqueens/local_settings.hpp"
#include "nqueens/rng.hpp"

namespace nq {

/// @brief register_hill_climb's poll that never stops a run.
struct no_register_poll {
  NQ_HD constexpr bool operator()() const { return false; }
};

/// @brief The boards register_hill_climb takes.
inline constexpr index_t min_register_climb_n = 4;
inline constexpr index_t max_register_climb_n = 16;

/// @brief Whether register_hill_climb runs hc, hc-sideways and hc-restart with `h` on `n`
/// queens: every hill-climbing setting (ties, total_sideways, plateau_jump) is supported, so
/// only the size decides. Callers fall back to hill_climb on a climber_view otherwise.
NQ_HD constexpr bool register_climb_supports(const hill_climbing_settings& h, index_t n) {
  (void)h;
  return n >= min_register_climb_n && n <= max_register_climb_n;
}

namespace detail {

template <class F, int... I>
NQ_HD void unrolled_for_each(F& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}

/// Calls f(integral_constant<int, i>) for i = 0 .. Count - 1: indices known at compile time.
template <int Count, class F>
NQ_HD void unrolled_for(F&& f) {
  unrolled_for_each(f, std::make_integer_sequence<int, Count>{});
}

NQ_HD inline std::uint32_t popcount_u32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint32_t>(__popc(x));
#else
  return static_cast<std::uint32_t>(__builtin_popcount(x));
#endif
}

/// The position of the `k`-th set bit of `mask` (k below its popcount), lowest first.
NQ_HD inline std::uint32_t nth_set_bit(std::uint32_t mask, std::uint32_t k) {
  for (; k > 0; --k) mask &= mask - 1;
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint32_t>(__ffs(mask) - 1);
#else
  return static_cast<std::uint32_t>(__builtin_ctz(mask));
#endif
}

/// 0x80 in each byte of `x` that is zero, 0 elsewhere.
NQ_HD inline std::uint32_t zero_bytes(std::uint32_t x) {
  return ~(((x & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | x) & 0x80808080u;
}

/// Bytes S .. S + 3 of a packed byte array, as one word (S a compile-time byte offset).
template <int S, int W>
NQ_HD std::uint32_t bytes_at(const std::uint32_t (&w)[W]) {
  static_assert(S >= 0 && S / 4 + (S % 4 != 0) < W);
  if constexpr (S % 4 == 0) {
    return w[S / 4];
  } else {
#if defined(__CUDA_ARCH__)
    return __funnelshift_r(w[S / 4], w[S / 4 + 1], 8 * (S % 4));
#else
    return (w[S / 4] >> (8 * (S % 4))) | (w[S / 4 + 1] << (32 - 8 * (S % 4)));
#endif
  }
}

/// Byte `i` (a run-time index) of a packed byte array: a select per word.
template <int W>
NQ_HD std::uint32_t byte_of(const std::uint32_t (&w)[W], std::uint32_t i) {
  const std::uint32_t word = i >> 2;
  std::uint32_t picked = w[0];
  unrolled_for<W>([&](auto k) { picked = word == static_cast<std::uint32_t>(k) ? w[k] : picked; });
  return (picked >> (8 * (i & 3))) & 0xFFu;
}

/// Adds `amount` (1, or ~0u for -1) to byte `i` (a run-time index) of a packed byte array.
template <int W>
NQ_HD void add_to_byte(std::uint32_t (&w)[W], std::uint32_t i, std::uint32_t amount) {
  const std::uint32_t word = i >> 2;
  const std::uint32_t step = amount << (8 * (i & 3));
  unrolled_for<W>([&](auto k) { w[k] += word == static_cast<std::uint32_t>(k) ? step : 0u; });
}

/// A board of N queens held in registers, counted as a climber_view counts it.
template <int N>
struct register_board {
  static_assert(N >= 4 && N <= 16, "4-bit rows, byte counts");
  static constexpr int column_words = (N + 3) / 4;  ///< a column's rows, four a word
  /// Bytes a column's windows reach, rows N .. 4 column_words - 1 included (they are masked).
  static constexpr int line_words = (4 * column_words + N - 5) / 4 + 2;
  static_assert(2 * N - 1 <= 4 * line_words);

  std::uint64_t queen_row = 0;                 ///< column c's row in bits 4c .. 4c + 3
  std::uint32_t row_count[column_words] = {};  ///< byte r: queens on row r
  std::uint32_t diag_count[line_words] = {};   ///< byte row - col + N - 1: queens on that "\"
  std::uint32_t anti_count[line_words] = {};   ///< byte col + row: queens on that "/"

  NQ_HD std::uint32_t row_of(std::uint32_t col) const {
    return static_cast<std::uint32_t>(queen_row >> (4 * col)) & 15u;
  }
  /// Queens on the three lines through (col, row), counting one standing there.
  NQ_HD std::uint32_t line_load(std::uint32_t col, std::uint32_t row) const {
    return byte_of(row_count, row) + byte_of(diag_count, row + N - 1 - col) +
           byte_of(anti_count, col + row);
  }
  NQ_HD void count(std::uint32_t col, std::uint32_t row, std::uint32_t amount) {
    add_to_byte(row_count, row, amount);
    add_to_byte(diag_count, row + N - 1 - col, amount);
    add_to_byte(anti_count, col + row, amount);
  }
  /// Moves the queen of `col` to `to_row`, updating the lines.
  NQ_HD void relocate(std::uint32_t col, std::uint32_t to_row) {
    const std::uint32_t from = row_of(col);
    count(col, from, ~0u);
    count(col, to_row, 1u);
    queen_row ^= static_cast<std::uint64_t>(from ^ to_row) << (4 * col);
  }
  /// random_board: N draws, column by column; returns the attacking pairs.
  template <class Rng>
  NQ_HD std::uint32_t randomise(Rng& rng) {
    *this = register_board{};
    std::uint32_t pairs = 0;
    unrolled_for<N>([&](auto col) {
      const std::uint32_t row = rng.below(static_cast<std::uint32_t>(N));
      pairs += line_load(col, row);
      count(col, row, 1u);
      queen_row |= static_cast<std::uint64_t>(row) << (4 * col);
    });
    return pairs;
  }
  /// Line loads of column Col, rows 4 K .. 4 K + 3, a byte each (rows from N on: garbage).
  template <int Col, int K>
  NQ_HD std::uint32_t loads() const {
    return row_count[K] + bytes_at<4 * K + N - 1 - Col>(diag_count) +
           bytes_at<4 * K + Col>(anti_count);
  }
  /// Column Col's deltas plus 3N - 3 (so every byte lies in 0 .. 3N + 3, below 128), the
  /// queen's own square included (delta 3, as in steepest_move's scan).
  template <int Col>
  NQ_HD void biased_deltas(std::uint32_t (&d)[column_words]) const {
    const std::uint32_t own = row_of(Col);
    std::uint32_t own_word = 0;
    unrolled_for<column_words>([&](auto k) {
      d[k] = loads<Col, k>();
      own_word = own >> 2 == static_cast<std::uint32_t>(k) ? d[k] : own_word;
    });
    const std::uint32_t own_load = (own_word >> (8 * (own & 3))) & 0xFFu;
    const std::uint32_t bias = (3u * N - own_load) * 0x01010101u;
    unrolled_for<column_words>([&](auto k) { d[k] += bias; });
  }
};

/// Bytes of a column's last word that stand for no row (0x7F each; rows N .. 4 words - 1).
template <int N>
inline constexpr std::uint32_t padding_bytes = N % 4 == 0 ? 0u : 0x7F7F7F7Fu << (8 * (N % 4));

/// Half-word-wise minimum: one min.u16x2 on sm_90.
NQ_HD inline std::uint32_t halves_min(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __vminu2(a, b);
#else
  const std::uint32_t low = (a & 0xFFFFu) < (b & 0xFFFFu) ? a & 0xFFFFu : b & 0xFFFFu;
  const std::uint32_t high = (a >> 16) < (b >> 16) ? a >> 16 : b >> 16;
  return high << 16 | low;
#endif
}

/// The least byte of W words: even and odd bytes as half-words, so that a min takes two.
template <int W>
NQ_HD std::uint32_t least_byte(const std::uint32_t (&w)[W]) {
  std::uint32_t even = w[0] & 0x00FF00FFu, odd = (w[0] >> 8) & 0x00FF00FFu;
  unrolled_for<W - 1>([&](auto k) {
    even = halves_min(even, w[k + 1] & 0x00FF00FFu);
    odd = halves_min(odd, (w[k + 1] >> 8) & 0x00FF00FFu);
  });
  const std::uint32_t both = halves_min(even, odd);
  return halves_min(both, both >> 16) & 0xFFu;
}

/// steepest_move on a register board: false (drawing nothing) when the least delta exceeds
/// `acceptable`; else sets `col`, `row` and `delta` to the tie `ties` picks (one draw for a
/// random pick among several), numbered column by column, rows ascending. One pass: each
/// column's least biased delta (a byte of `column_least`) and the rows reaching it (16 bits of
/// `tie_rows`); then the columns whose least is the board's.
template <int N, class Rng>
NQ_HD bool register_steepest_move(const register_board<N>& b, Rng& rng, std::int32_t acceptable,
                                  tie_rule ties, std::uint32_t& col, std::uint32_t& row,
                                  std::int32_t& delta) {
  constexpr int words = register_board<N>::column_words;
  std::uint32_t column_least[words];
  std::uint32_t tie_rows[(N + 1) / 2];
  unrolled_for<words>([&](auto k) { column_least[k] = k == words - 1 ? padding_bytes<N> : 0u; });
  unrolled_for<(N + 1) / 2>([&](auto j) { tie_rows[j] = 0; });
  unrolled_for<N>([&](auto c) {
    std::uint32_t d[words];
    b.template biased_deltas<c>(d);
    d[words - 1] |= padding_bytes<N>;  // rows N and on never reach a column's least
    const std::uint32_t least = least_byte(d);
    const std::uint32_t wanted = least * 0x01010101u;
    std::uint32_t rows = 0;
    unrolled_for<words>([&](auto k) {
      // 0x80 in bytes 0..3 to bits 28..31: no two products share a bit, none carries.
      rows |= ((zero_bytes(d[k] ^ wanted) * 0x204081u) >> 28) << (4 * k);
    });
    column_least[c / 4] |= least << (8 * (c % 4));
    tie_rows[c / 2] |= rows << (16 * (c % 2));
  });
  const std::uint32_t best = least_byte(column_least);
  delta = static_cast<std::int32_t>(best) - (3 * N - 3);
  if (delta > acceptable) return false;

  // Only the columns whose least is the best keep their tie rows.
  std::uint32_t count = 0;
  unrolled_for<(N + 1) / 2>([&](auto j) {
    const std::uint32_t best_columns =
        zero_bytes(column_least[j / 2] ^ best * 0x01010101u) >> (16 * (j % 2));
    const std::uint32_t keep =
        (best_columns & 0x80u ? 0xFFFFu : 0u) | (best_columns & 0x8000u ? 0xFFFF0000u : 0u);
    tie_rows[j] &= keep;
    count += popcount_u32(tie_rows[j]);
  });
  std::uint32_t pick = ties == tie_rule::first || count == 1 ? 0
                       : ties == tie_rule::last              ? count - 1
                                                             : rng.below(count);
  bool found = false;
  std::uint32_t chosen_rows = 0;
  col = 0;
  unrolled_for<N>([&](auto c) {
    const std::uint32_t rows = (tie_rows[c / 2] >> (16 * (c % 2))) & 0xFFFFu;
    const std::uint32_t here = popcount_u32(rows);
    const bool take = !found && pick < here;
    col = take ? static_cast<std::uint32_t>(c) : col;
    chosen_rows = take ? rows : chosen_rows;
    pick -= found || take ? 0u : here;
    found = found || take;
  });
  row = nth_set_bit(chosen_rows, pick);
  return true;
}

}  // namespace detail

/// @brief hill_climb (hc with max_sideways 0, hc-sideways, hc-restart with `restart`) from a
/// random start with no observer, on N queens (4..16) in registers. Returns the chain_outcome
/// hill_climb returns on a climber_view with the same stream and settings, and draws the same
/// words; `final_rows`, when given, receives the board (column c's row in bits 4c .. 4c + 3).
/// `Rng`: philox_stream, or philox_register_stream (philox_registers.hpp) to keep the stream
/// in registers too.
/// `poll` (true: stop) is asked where hill_climb's observer would check a stop, every 1,024
/// of its calls (the start, each step and each restart), and a yes ends the run `stopped`: a
/// kernel's way to cut a long run (no_register_poll, the default, never stops one).
template <int N, class Rng, class Poll = no_register_poll>
NQ_HD chain_outcome register_hill_climb(Rng& rng, const hill_climbing_settings& h,
                                        std::uint32_t max_sideways, std::uint64_t max_steps,
                                        bool restart = false, std::uint64_t* final_rows = nullptr,
                                        Poll poll = {}) {
  detail::register_board<N> b;
  chain_outcome out{};
  std::uint32_t cost = b.randomise(rng);
  std::uint32_t sideways = 0;
  std::uint32_t calls = 1;  // the observer's: the start's
  while (cost != 0 && (max_steps == 0 || out.steps < max_steps)) {
    if (calls++ % 1024 == 0 && poll()) {  // the call of the last step or restart
      out.stopped = true;
      break;
    }
    const std::int32_t acceptable = sideways < max_sideways ? 0 : -1;
    std::uint32_t col = 0, row = 0;
    std::int32_t delta = 0;
    if (!detail::register_steepest_move(b, rng, acceptable, h.ties, col, row, delta)) {
      if (!restart) break;
      cost = b.randomise(rng);
      ++out.restarts;
      sideways = 0;
      continue;
    }
    if (delta == 0)
      ++sideways;
    else if (!h.total_sideways)
      sideways = 0;
    b.relocate(col, row);
    cost = static_cast<std::uint32_t>(static_cast<std::int32_t>(cost) + delta);
    ++out.steps;
    if (delta == 0 && h.plateau_jump) {  // random_jumps(b, rng, 1, cost)
      const std::uint32_t jump_col = rng.below(static_cast<std::uint32_t>(N));
      const std::uint32_t jump_row = rng.below(static_cast<std::uint32_t>(N));
      const std::uint32_t from = b.row_of(jump_col);
      if (jump_row != from) {
        cost = cost + b.line_load(jump_col, jump_row) + 3 - b.line_load(jump_col, from);
        b.relocate(jump_col, jump_row);
      }
    }
  }
  out.cost = cost;
  out.solved = cost == 0;
  if (final_rows) *final_rows = b.queen_row;
  return out;
}

/// @brief run_chain_of<Algorithm> (hc, hc-sideways or hc-restart) with a random start and no
/// observer, on N queens in registers (`poll` as register_hill_climb's).
template <local_algorithm Algorithm, int N, class Rng, class Poll = no_register_poll>
NQ_HD chain_outcome register_chain_of(Rng& rng, const local_search_settings& s,
                                      std::uint64_t max_steps,
                                      std::uint64_t* final_rows = nullptr, Poll poll = {}) {
  using A = local_algorithm;
  static_assert(Algorithm == A::hc || Algorithm == A::hc_sideways || Algorithm == A::hc_restart);
  const std::uint32_t sideways = Algorithm == A::hc ? 0u : s.hill.max_sideways;
  return register_hill_climb<N>(rng, s.hill, sideways, max_steps, Algorithm == A::hc_restart,
                                final_rows, poll);
}

}  // namespace nq
