#pragma once
/// @file
/// @brief Parallel placement for huge n: the step logic shared by CPU threads and the kernel.
///
/// The columns fall into segments, fixed by n alone; segment k starts with the rows k,
/// k + segments, ... so that its rows spread over the whole board. Placement runs in passes. In
/// pass p, block j owns 2^p neighbouring segments; its pool is the rows at their open columns.
/// It fills its open columns in order as QS4 does (a uniform draw from the pool, taken when both
/// diagonals are free), one column per round, all blocks at once, until it has placed a quarter
/// of the open columns it began the pass with (the last pass, a single block, places all). So
/// a block's pool grows as the board fills (a block's open columns shrink by 3/4 while the
/// blocks merge in pairs), which is what keeps QS4's tail short. A round has two phases, separated
/// by barriers: claim (every block reads only committed lines and claims the two diagonals of its
/// candidate) and resolve (a block whose two lines no other block claimed commits them; every
/// claimant of a contested line withdraws and tries again next round). Who wins depends only on the
/// set of claims, never on their order, so the board depends on (seed, n) alone: not on the thread
/// count nor on the device. A column whose pool shows no free square is deferred; a sequential pass
/// finally inserts the deferred queens by swaps.
///
/// Lines hold 2 bits each: 0 free, 1 committed, 2 claimed once this round, 3 contested.

#include <atomic>
#include <cstdint>

#include "nqueens/config.hpp"
#include "nqueens/detail/lines.hpp"
#include "nqueens/rng.hpp"

#if defined(__CUDACC__)
#include <cuda/atomic>
#endif

namespace nq {

/// @brief Candidates drawn ahead of a round, so that the CPU can prefetch their lines.
inline constexpr unsigned placement_candidates = 4;
/// @brief Draws a column makes in one round before it is deferred.
inline constexpr unsigned placement_max_tries = 64;
/// @brief Rounds a column may lose a contested claim before it is deferred: two blocks whose
/// only free squares share a line would otherwise contest it forever.
inline constexpr unsigned placement_max_losses = 4;

/// @brief Share of its open columns (in sixteenths) a block places in a pass before the blocks
/// merge: 4 left about 400 of 10^6 queens deferred, 8 (a half) 3,600, 2 only 25 but a last,
/// sequential pass over 39% of the board.
inline constexpr index_t placement_quota_sixteenths = 4;
/// @brief Segments of an n-queens board: about 8192 columns each, at most 16384.
NQ_HD constexpr index_t placement_segments(index_t n) {
  const index_t k = n / 8192;
  return k < 1 ? 1 : k > 16384 ? 16384 : k;
}
/// @brief First column of segment k.
NQ_HD constexpr index_t placement_segment_begin(index_t n, index_t segments, index_t k) {
  const index_t base = n / segments, extra = n % segments;
  return k * base + (k < extra ? k : extra);
}
/// @brief Deferred columns a run may leave before it restarts (3,681 measured at 4 x 10^6;
/// n / 1024 was too few at 10^7, where every restart overflowed again).
NQ_HD constexpr index_t placement_deferred_capacity(index_t n) {
  const index_t cap = n / 128 + 4096;
  return cap < n ? cap : n;
}
/// @brief 64-bit words holding the 2-bit states of one family of 2n - 1 diagonals.
NQ_HD constexpr index_t placement_line_words(index_t n) { return (diag_line_count(n) + 31) / 32; }

/// @brief The board, its lines and the state of one pass (arrays indexed by segment or block).
struct placement_view {
  row_t* queen_row;
  std::uint64_t* diag_state;       ///< placement_line_words(n) words
  std::uint64_t* anti_diag_state;  ///< placement_line_words(n) words
  index_t* seg_next;               ///< per segment: its first open column (open: up to its end)
  const index_t* seg_prefix;       ///< segments + 1: open columns before segment k, at pass start
  index_t* cur;                    ///< per block: the segment of the column being placed
  index_t* quota;                  ///< per block: columns left to place in this pass
  index_t* candidate;              ///< per block: placement_candidates columns, drawn ahead
  philox_stream* rng;              ///< per block: stream (seed, restart, pass, block)
  std::uint8_t* claimed;           ///< per block: bit 0 claimed this round; above: claims lost
  std::uint32_t* deferred;         ///< deferred columns, in no particular order
  unsigned long long* deferred_count;
  index_t deferred_capacity;
  index_t n;
  index_t segments;
  index_t group;   ///< segments per block in this pass (2^pass)
  index_t blocks;  ///< ceil(segments / group)
};

namespace detail {

#if defined(__CUDACC__)
using line_word_ref = ::cuda::atomic_ref<std::uint64_t, ::cuda::thread_scope_device>;
using count_ref = ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>;
namespace line_order = ::cuda::std;
#else
using line_word_ref = std::atomic_ref<std::uint64_t>;
using count_ref = std::atomic_ref<unsigned long long>;
namespace line_order = ::std;
#endif

NQ_HD inline unsigned line_state(std::uint64_t* words, index_t line) {
  const auto word = line_word_ref(words[line >> 5]).load(line_order::memory_order_relaxed);
  return static_cast<unsigned>(word >> ((line & 31) * 2)) & 3u;
}
NQ_HD inline std::uint64_t line_or(std::uint64_t* words, index_t line, std::uint64_t state) {
  return line_word_ref(words[line >> 5])
      .fetch_or(state << ((line & 31) * 2), line_order::memory_order_relaxed);
}
NQ_HD inline void line_xor(std::uint64_t* words, index_t line, std::uint64_t state) {
  line_word_ref(words[line >> 5])
      .fetch_xor(state << ((line & 31) * 2), line_order::memory_order_relaxed);
}
NQ_HD inline void line_clear(std::uint64_t* words, index_t line) {
  line_word_ref(words[line >> 5])
      .fetch_and(~(std::uint64_t{3} << ((line & 31) * 2)), line_order::memory_order_relaxed);
}
/// Claims a line: claimed once (2), or contested (3) when another block claimed it too.
NQ_HD inline void claim_line(std::uint64_t* words, index_t line) {
  const unsigned before = static_cast<unsigned>(line_or(words, line, 2) >> ((line & 31) * 2)) & 3u;
  if (before & 2u) line_or(words, line, 1);
}

NQ_HD inline bool square_free(const placement_view& v, index_t col, row_t row) {
  return line_state(v.diag_state, diag_index(v.n, col, row)) != 1 &&
         line_state(v.anti_diag_state, anti_diag_index(col, row)) != 1;
}

NQ_HD inline index_t segment_end(const placement_view& v, index_t k) {
  return placement_segment_begin(v.n, v.segments, k + 1);
}
NQ_HD inline index_t block_last(const placement_view& v, index_t j) {
  const index_t last = (j + 1) * v.group;
  return last < v.segments ? last : v.segments;
}
/// Open columns of block j: the rows they hold are its pool.
NQ_HD inline index_t pool_size(const placement_view& v, index_t j) {
  const index_t cur = v.cur[j], last = block_last(v, j);
  return segment_end(v, cur) - v.seg_next[cur] + v.seg_prefix[last] - v.seg_prefix[cur + 1];
}
/// The u-th open column of block j (segments after the current one are untouched this pass).
NQ_HD inline index_t pool_column(const placement_view& v, index_t j, index_t u) {
  const index_t cur = v.cur[j];
  const index_t open = segment_end(v, cur) - v.seg_next[cur];
  if (u < open) return v.seg_next[cur] + u;
  const index_t offset = u - open + v.seg_prefix[cur + 1];
  index_t lo = cur + 1, hi = block_last(v, j);
  while (hi - lo > 1) {
    const index_t mid = lo + (hi - lo) / 2;
    if (v.seg_prefix[mid] <= offset)
      lo = mid;
    else
      hi = mid;
  }
  return v.seg_next[lo] + (offset - v.seg_prefix[lo]);
}
/// Block j is done with its current column: the next one, in this segment or a later one.
NQ_HD inline unsigned consume(const placement_view& v, index_t j) {
  index_t cur = v.cur[j];
  ++v.seg_next[cur];
  const index_t last = block_last(v, j);
  while (cur + 1 < last && v.seg_next[cur] == segment_end(v, cur)) ++cur;
  v.cur[j] = cur;
  return --v.quota[j] == 0 ? 1u : 0u;
}

}  // namespace detail

/// @brief The initial board: segment k's columns hold its rows k, k + segments, ... in order.
NQ_HD inline row_t placement_initial_row(index_t n, index_t segments, index_t col) {
  const index_t base = n / segments, extra = n % segments;
  // Segments below `extra` hold base + 1 columns.
  const index_t wide = extra * (base + 1);
  const index_t k = col < wide ? col / (base + 1) : extra + (col - wide) / base;
  const index_t t = col - placement_segment_begin(n, segments, k);
  return static_cast<row_t>(k + t * segments);
}

/// @brief The random stream of block k of a pass (pass 255: the insertion) in restart r.
NQ_HD inline philox_stream placement_stream(std::uint64_t seed, std::uint64_t restart,
                                            unsigned pass, index_t k) {
  return philox_stream(seed, (restart << 40) | (std::uint64_t{pass} << 32) | k);
}

/// @brief Draws block j's candidates for its current column (after start and every resolve).
NQ_HD inline void placement_draw(const placement_view& v, index_t j) {
  if (v.quota[j] == 0) return;
  const auto pool = static_cast<std::uint32_t>(detail::pool_size(v, j));
  for (unsigned c = 0; c < placement_candidates; ++c)
    v.candidate[j * placement_candidates + c] = detail::pool_column(v, j, v.rng[j].below(pool));
}

/// @brief Starts block j of a pass: its first open segment, its quota (half its open columns;
/// all in the last pass), its stream and candidates. seg_prefix must hold the pass's counts.
/// Returns 1 when the block has nothing to place in this pass.
NQ_HD inline unsigned placement_start(const placement_view& v, index_t j, std::uint64_t seed,
                                      std::uint64_t restart, unsigned pass) {
  index_t first = j * v.group;
  const index_t last = detail::block_last(v, j);
  while (first + 1 < last && v.seg_next[first] == detail::segment_end(v, first)) ++first;
  v.cur[j] = first;
  const index_t open = v.seg_prefix[last] - v.seg_prefix[j * v.group];
  v.quota[j] = v.blocks == 1 ? open : open * placement_quota_sixteenths / 16;
  v.rng[j] = placement_stream(seed, restart, pass, j);
  v.claimed[j] = 0;
  placement_draw(v, j);
  return v.quota[j] == 0 ? 1u : 0u;
}

/// @brief The claim phase of block j: finds a square free of committed lines in its pool and
/// claims its diagonals, or defers the column when none turns up. Returns 1 when the block has
/// just finished its pass (its last column deferred), else 0.
NQ_HD inline unsigned placement_claim(const placement_view& v, index_t j) {
  if (v.quota[j] == 0) return 0;
  row_t* q = v.queen_row;
  const index_t col = v.seg_next[v.cur[j]];
  const index_t pool = detail::pool_size(v, j);
  const index_t* cand = v.candidate + j * placement_candidates;
  index_t at = cand[0];
  bool found = false;
  if (pool <= placement_max_tries) {
    // A small pool is searched whole, from a random place on.
    const index_t start = v.rng[j].below(static_cast<std::uint32_t>(pool));
    for (index_t t = 0; t < pool && !found; ++t) {
      at = detail::pool_column(v, j, (start + t) % pool);
      found = detail::square_free(v, col, q[at]);
    }
  } else {
    for (unsigned t = 0; t < placement_max_tries && !found; ++t) {
      at = t < placement_candidates
               ? cand[t]
               : detail::pool_column(v, j, v.rng[j].below(static_cast<std::uint32_t>(pool)));
      found = detail::square_free(v, col, q[at]);
    }
  }
  const row_t row = q[at];
  q[at] = q[col];
  q[col] = row;
  if (found && (v.claimed[j] >> 1) < placement_max_losses) {
    detail::claim_line(v.diag_state, diag_index(v.n, col, row));
    detail::claim_line(v.anti_diag_state, anti_diag_index(col, row));
    v.claimed[j] |= 1;
    return 0;
  }
  v.claimed[j] = 0;
  const auto slot =
      detail::count_ref(*v.deferred_count).fetch_add(1, detail::line_order::memory_order_relaxed);
  if (slot < v.deferred_capacity) v.deferred[slot] = static_cast<std::uint32_t>(col);
  const unsigned finished = detail::consume(v, j);
  placement_draw(v, j);
  return finished;
}

/// @brief The resolve phase of block j: commits its claim when no other block claimed either
/// line, else withdraws it. Returns 1 when the block has just finished its pass, else 0.
NQ_HD inline unsigned placement_resolve(const placement_view& v, index_t j) {
  if (!(v.claimed[j] & 1)) return 0;
  const index_t col = v.seg_next[v.cur[j]];
  const row_t row = v.queen_row[col];
  const index_t d = diag_index(v.n, col, row), a = anti_diag_index(col, row);
  unsigned finished = 0;
  if (detail::line_state(v.diag_state, d) == 2 && detail::line_state(v.anti_diag_state, a) == 2) {
    detail::line_xor(v.diag_state, d, 3);  // 2 -> 1: committed
    detail::line_xor(v.anti_diag_state, a, 3);
    v.claimed[j] = 0;
    finished = detail::consume(v, j);
  } else {
    detail::line_clear(v.diag_state, d);
    detail::line_clear(v.anti_diag_state, a);
    v.claimed[j] = static_cast<std::uint8_t>((v.claimed[j] & ~1u) + 2);
  }
  placement_draw(v, j);
  return finished;
}

/// @brief Whether column `col` is among sorted[from, count) (deferred, not yet inserted).
NQ_HD inline bool placement_pending(const std::uint32_t* sorted, index_t from, index_t count,
                                    index_t col) {
  while (from < count) {
    const index_t mid = from + (count - from) / 2;
    if (sorted[mid] == col) return true;
    if (sorted[mid] < col)
      from = mid + 1;
    else
      count = mid;
  }
  return false;
}

/// @brief Inserts deferred column sorted[i] (the deferred columns in ascending order, those
/// before i inserted): on its own square when that is free, else by exchanging rows with a
/// random placed column b when all four new lines are free. One thread at a time. `tries`
/// counts the partners drawn; false when `max_tries` of them all failed.
NQ_HD inline bool placement_insert(const placement_view& v, const std::uint32_t* sorted,
                                   index_t count, index_t i, philox_stream& rng,
                                   std::uint64_t max_tries, std::uint64_t& tries) {
  using detail::line_or;
  using detail::line_state;
  row_t* q = v.queen_row;
  const index_t n = v.n, a = sorted[i];
  const row_t ra = q[a];
  if (detail::square_free(v, a, ra)) {
    line_or(v.diag_state, diag_index(n, a, ra), 1);
    line_or(v.anti_diag_state, anti_diag_index(a, ra), 1);
    return true;
  }
  for (std::uint64_t t = 0; t < max_tries; ++t) {
    ++tries;
    const index_t b = rng.below(static_cast<std::uint32_t>(n));
    if (b == a || placement_pending(sorted, i + 1, count, b)) continue;
    const row_t rb = q[b];
    const index_t da = diag_index(n, a, rb), aa = anti_diag_index(a, rb);
    const index_t db = diag_index(n, b, ra), ab = anti_diag_index(b, ra);
    // b's own lines never coincide with the new ones (a != b, ra != rb): all four must be free.
    if (da == db || aa == ab || line_state(v.diag_state, da) || line_state(v.diag_state, db) ||
        line_state(v.anti_diag_state, aa) || line_state(v.anti_diag_state, ab))
      continue;
    detail::line_clear(v.diag_state, diag_index(n, b, rb));
    detail::line_clear(v.anti_diag_state, anti_diag_index(b, rb));
    line_or(v.diag_state, da, 1);
    line_or(v.anti_diag_state, aa, 1);
    line_or(v.diag_state, db, 1);
    line_or(v.anti_diag_state, ab, 1);
    q[a] = rb;
    q[b] = ra;
    return true;
  }
  return false;
}

/// @brief Partners a deferred queen may draw in the last pass, at most.
inline constexpr std::uint64_t placement_max_insert_tries = 1u << 16;

/// @brief Queens a stopped run left off free lines: the columns still open in each of the
/// `segments` segments (seg_next[k] the first of segment k), and the deferred ones (the count
/// may pass the list's capacity, whose queens are all the list can hold).
inline index_t placement_unplaced(index_t n, index_t segments, const index_t* seg_next,
                                  unsigned long long deferred_count, index_t deferred_capacity) {
  index_t open =
      deferred_count < deferred_capacity ? static_cast<index_t>(deferred_count) : deferred_capacity;
  for (index_t k = 0; k < segments; ++k)
    open += placement_segment_begin(n, segments, k + 1) - seg_next[k];
  return open;
}

/// @brief The last pass, on one host thread (the CPU's and the GPU's alike): inserts the
/// `count` deferred columns `sorted` (ascending) one by one, from stream (seed, restart, 255,
/// 0), adding each one's tries to `steps`. False when one cannot be inserted (the run restarts)
/// or when `limit_reached()` stops it, with the queens not inserted in `unplaced`.
template <class Limit>
bool placement_insert_all(const placement_view& v, const std::uint32_t* sorted, index_t count,
                          std::uint64_t seed, std::uint64_t restart, std::uint64_t& steps,
                          index_t& unplaced, Limit limit_reached) {
  philox_stream rng = placement_stream(seed, restart, 255, 0);
  const std::uint64_t max_tries =
      placement_max_insert_tries < 64 + 16 * v.n ? placement_max_insert_tries : 64 + 16 * v.n;
  for (index_t i = 0; i < count; ++i) {
    std::uint64_t tries = 0;
    const bool placed = placement_insert(v, sorted, count, i, rng, max_tries, tries);
    steps += tries;
    if (!placed) return false;
    if (i + 1 < count && limit_reached()) {
      unplaced = count - i - 1;
      return false;
    }
  }
  return true;
}

}  // namespace nq
