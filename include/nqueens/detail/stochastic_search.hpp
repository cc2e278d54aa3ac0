#pragma once
/// @file
/// @brief Single-chain searches driven by random neighbours: sa, random, random-opt and the
/// textbook min-conflicts (--variant column). Same conventions as hill_climbing.hpp.

#include <cmath>

#include "nqueens/detail/hill_climbing.hpp"

namespace nq {
namespace detail {

/// A uniformly random neighbour: a column, then one of its n - 1 other rows (two draws).
template <class Count>
NQ_HD queen_move random_neighbour(climber_view<Count> b, philox_stream& rng) {
  const auto n = static_cast<std::uint32_t>(b.n());
  queen_move m;
  m.col = rng.below(n);
  m.row = static_cast<row_t>(other_row(rng.below(n - 1), b.queen_row[m.col]));
  m.delta = relocation_delta(b, m.col, m.row);
  return m;
}

}  // namespace detail

/// @brief sa. Per neighbour (the default): a random neighbour per step (the step), taken when
/// better, when equal unless `accept_equal` is off, and when worse by d with probability
/// exp(-d / T), one uniform draw; then T <- max(T * cooling, min_temperature). Per move
/// (`cool_per_move`, the tutorial's loop): squares of random columns (a column, then any row,
/// the queen's own included) are drawn until one is accepted by the same rule, the queen's own
/// square always; that move is the step, and T cools once. Double precision on host and device;
/// exp is each side's libm, CUDA's and glibc's, which may differ in the last bit (docs/gpu.md, GPU
/// status: a decision differs with probability at most 2^-53).
template <class Count, class Observer>
NQ_HD chain_outcome anneal(climber_view<Count> b, philox_stream& rng, const annealing_settings& s,
                           bool random_start, std::uint64_t max_steps, Observer observe) {
  detail::chain_tracker<Observer> t{observe, max_steps};
  double temperature = s.initial_temperature > 0.0
                           ? s.initial_temperature
                           : static_cast<double>(b.n()) * static_cast<double>(b.n());
  t.out.cost = detail::start_board(b, rng, random_start);
  if (!t.report(temperature)) return t.finish();
  const auto accepts = [&](std::int64_t delta) {
    if (delta < 0) return true;
    if (delta == 0) return s.accept_equal;
    return rng.uniform() < exp(-static_cast<double>(delta) / temperature);
  };
  const auto n = static_cast<std::uint32_t>(b.n());
  while (t.may_step()) {
    queen_move m;
    bool accept = false;
    if (s.cool_per_move) {
      for (;;) {
        m.col = rng.below(n);
        m.row = static_cast<row_t>(rng.below(n));
        if (m.row == b.queen_row[m.col]) break;  // stays put: accepted, a step
        m.delta = relocation_delta(b, m.col, m.row);
        if (accepts(m.delta)) {
          accept = true;
          break;
        }
      }
    } else {
      m = detail::random_neighbour(b, rng);
      accept = accepts(m.delta);
    }
    const double used = temperature;
    if (accept) {
      detail::take(b, t, m);
    } else {
      ++t.out.steps;
    }
    const double cooled = temperature * s.cooling;
    temperature = cooled > s.min_temperature ? cooled : s.min_temperature;
    t.report(used);
  }
  return t.finish();
}

/// @brief random: every step draws a whole fresh board (n draws).
template <class Count, class Observer>
NQ_HD chain_outcome random_search(climber_view<Count> b, philox_stream& rng, bool random_start,
                                  std::uint64_t max_steps, Observer observe) {
  detail::chain_tracker<Observer> t{observe, max_steps};
  t.out.cost = detail::start_board(b, rng, random_start);
  if (!t.report()) return t.finish();
  while (t.may_step()) {
    t.out.cost = random_board(b, rng);
    ++t.out.steps;
    t.report();
  }
  return t.finish();
}

/// @brief random-opt: every step moves one random queen to a random other row and keeps the
/// move unless it is worse. With `sweep` (the Python program's iteration) a step visits every
/// column in order, moving its queen to a random row (possibly its own, one draw) and keeping
/// the move unless it is worse; the run ends at the first solved board, mid-sweep too.
template <class Count, class Observer>
NQ_HD chain_outcome random_opt(climber_view<Count> b, philox_stream& rng, bool sweep,
                               bool random_start, std::uint64_t max_steps, Observer observe) {
  detail::chain_tracker<Observer> t{observe, max_steps};
  t.out.cost = detail::start_board(b, rng, random_start);
  if (!t.report()) return t.finish();
  const auto n = static_cast<std::uint32_t>(b.n());
  while (sweep && t.may_step()) {
    for (index_t col = 0; col < n && t.out.cost != 0; ++col) {
      const auto row = static_cast<row_t>(rng.below(n));
      if (row == b.queen_row[col]) continue;
      const std::int64_t delta = relocation_delta(b, col, row);
      if (delta > 0) continue;
      relocate(b, col, row);
      t.out.cost = static_cast<index_t>(static_cast<std::int64_t>(t.out.cost) + delta);
    }
    ++t.out.steps;
    t.report();
  }
  while (!sweep && t.may_step()) {
    const queen_move m = detail::random_neighbour(b, rng);
    if (m.delta <= 0) {
      detail::take(b, t, m);
    } else {
      ++t.out.steps;
    }
    t.report();
  }
  return t.finish();
}

/// @brief min-conflicts --variant column: each step picks a uniformly random attacked queen and
/// puts it on the row of its column with the fewest attackers (its own row included; ties
/// uniformly), two draws. After `steps_per_try` steps without a solution, a fresh random board
/// while restarts remain (reported as a step-less row).
template <class Count, class Observer>
NQ_HD chain_outcome column_min_conflicts(climber_view<Count> b, philox_stream& rng,
                                         const column_min_conflicts_settings& s, bool random_start,
                                         std::uint64_t max_steps, Observer observe) {
  detail::chain_tracker<Observer> t{observe, max_steps};
  const index_t n = b.n();
  const std::uint64_t per_try = s.steps_per_try ? s.steps_per_try : 100 * n;
  t.out.cost = detail::start_board(b, rng, random_start);
  if (!t.report()) return t.finish();
  std::uint64_t try_steps = 0;
  while (t.may_step()) {
    if (try_steps == per_try) {
      if (t.out.restarts == s.restarts) break;
      t.out.cost = random_board(b, rng);
      ++t.out.restarts;
      try_steps = 0;
      t.report();
      continue;
    }
    std::uint32_t attacked = 0;
    for (index_t col = 0; col < n; ++col) attacked += queen_pairs(b, col) > 0;
    std::uint32_t pick = rng.below(attacked);
    index_t col = 0;
    for (;; ++col)
      if (queen_pairs(b, col) > 0 && pick-- == 0) break;
    // Attackers per row of this column: the line load, less the queen itself on its own row.
    const index_t current = b.queen_row[col];
    std::int64_t least = INT64_MAX;
    std::uint32_t ties = 0;
    for (index_t row = 0; row < n; ++row) {
      const std::int64_t load = line_load(b, col, row) - (row == current ? 3 : 0);
      if (load < least) {
        least = load;
        ties = 0;
      }
      ties += load == least;
    }
    std::uint32_t chosen = ties == 1 ? 0 : rng.below(ties);
    index_t row = 0;
    for (;; ++row)
      if (line_load(b, col, row) - (row == current ? 3 : 0) == least && chosen-- == 0) break;
    queen_move m{col, static_cast<row_t>(row), least - queen_pairs(b, col)};
    if (row != current) {
      detail::take(b, t, m);
    } else {
      ++t.out.steps;
    }
    ++try_steps;
    t.report();
  }
  return t.finish();
}

}  // namespace nq
