#pragma once
/// @file
/// @brief The hill-climbing family as single chains: hc, hc-sideways, hc-restart, first-choice,
/// hc-random-p, hc-anneal-p and hc-memory. Each runs on a caller-owned board and stream, so a
/// CPU thread and a GPU thread given the same (seed, run) walk the same path. Steps are moves
/// made (hc, hc-sideways, hc-restart, first-choice) or iterations (the jump variants).

#include "nqueens/detail/climb.hpp"
#include "nqueens/local_settings.hpp"

namespace nq {
namespace detail {

/// Step bookkeeping shared by every chain: limits, and the observer called after each step.
template <class Observer>
struct chain_tracker {
  Observer& observe;
  std::uint64_t max_steps;  // 0: none
  chain_outcome out{};

  NQ_HD bool may_step() const {
    return out.cost != 0 && !out.stopped && (max_steps == 0 || out.steps < max_steps);
  }
  /// Calls the observer; false (and stopped) when it asks to stop.
  NQ_HD bool report(double temperature = -1.0) {
    if (!observe(chain_state{out.steps, out.restarts, out.cost, temperature})) out.stopped = true;
    return !out.stopped;
  }
  NQ_HD chain_outcome finish() {
    out.solved = out.cost == 0;
    return out;
  }
  /// Asked during a long step: false (and stopped) once the observer wants no more.
  NQ_HD bool keep_scanning() {
    if (!observe.still_wanted()) out.stopped = true;
    return !out.stopped;
  }
};

/// A long step's poll: the observer's still_wanted() (the host's: a stop or a time limit, the
/// clock read at each poll) where it has one; else none, and no code (the device's observers).
template <class Observer>
struct tracker_poll {
  chain_tracker<Observer>* t;
  NQ_HD bool operator()() const { return t->keep_scanning(); }
};
/// Whether `Observer` is asked during long steps (the host's, with a clock or a stop).
template <class Observer>
inline constexpr bool polls = requires(Observer& o) {
  o.still_wanted();
};

template <class Observer>
NQ_HD auto scan_poll(chain_tracker<Observer>& t) {
  if constexpr (polls<Observer>)
    return tracker_poll<Observer>{&t};
  else
    return scan_goes_on{};
}

/// Neighbours first-choice tries between polls (about 6 ms at 5,000 queens, where each is a
/// cache miss into its order).
inline constexpr std::uint32_t first_choice_poll_moves = 1u << 16;

/// The starting board: random (n draws), or the one already in `b`.
template <class Count>
NQ_HD index_t start_board(climber_view<Count> b, philox_stream& rng, bool random_start) {
  return random_start ? random_board(b, rng) : recount(b);
}

/// Applies `m` and counts the step.
template <class Count, class Observer>
NQ_HD void take(climber_view<Count> b, chain_tracker<Observer>& t, const queen_move& m) {
  relocate(b, m.col, m.row);
  t.out.cost = static_cast<index_t>(static_cast<std::int64_t>(t.out.cost) + m.delta);
  ++t.out.steps;
}

}  // namespace detail

/// @brief hc (max_sideways 0), hc-sideways, and with `restart` hc-restart: move to the best
/// neighbour while it is strictly better, or equal for up to `max_sideways` moves in a row (or
/// in all, with `h.total_sideways`); when stuck, stop, or with `restart` start again from a
/// fresh random board (reported as a step-less row). Ties as `h.ties` says; with `h.plateau_jump`
/// a random queen jumps after every sideways move (counted in the same step). Traces: one
/// report per move and per restart.
template <class Count, class Observer>
NQ_HD chain_outcome hill_climb(climber_view<Count> b, philox_stream& rng,
                               std::uint32_t max_sideways, bool restart,
                               const hill_climbing_settings& h, bool random_start,
                               std::uint64_t max_steps, Observer observe) {
  detail::chain_tracker<Observer> t{observe, max_steps};
  t.out.cost = detail::start_board(b, rng, random_start);
  if (!t.report()) return t.finish();
  std::uint32_t sideways = 0;
  while (t.may_step()) {
    const std::int64_t acceptable = sideways < max_sideways ? 0 : -1;
    const queen_move m = steepest_move(b, rng, acceptable, h.ties, detail::scan_poll(t));
    if (detail::polls<Observer> && t.out.stopped) break;  // a poll stopped the scan
    if (m.delta > acceptable) {
      if (!restart) break;
      t.out.cost = random_board(b, rng);
      ++t.out.restarts;
      sideways = 0;
      t.report();
      continue;
    }
    if (m.delta == 0)
      ++sideways;
    else if (!h.total_sideways)
      sideways = 0;
    detail::take(b, t, m);
    if (m.delta == 0 && h.plateau_jump) t.out.cost = random_jumps(b, rng, 1, t.out.cost);
    t.report();
  }
  return t.finish();
}

/// @brief first-choice: the n(n-1) neighbours in a uniformly random order (an incremental
/// Fisher-Yates over `order`, n(n-1) entries of scratch, set to the identity at the start so a
/// run depends on nothing before it, then reused from step to step); the first strictly better
/// one is taken; stop when none is (a long scan polls the observer as steepest_move does). With
/// `fixed_order` (the tutorial's scan) the neighbours go
/// column by column, rows ascending, from the first column at every step, and nothing is drawn
/// after the starting board.
template <class Count, class Observer>
NQ_HD chain_outcome first_choice(climber_view<Count> b, std::uint32_t* order, philox_stream& rng,
                                 bool fixed_order, bool random_start, std::uint64_t max_steps,
                                 Observer observe) {
  detail::chain_tracker<Observer> t{observe, max_steps};
  t.out.cost = detail::start_board(b, rng, random_start);
  if (!t.report()) return t.finish();
  const index_t n = b.n();
  const auto moves = static_cast<std::uint32_t>(n * (n - 1));
  // A solved start needs no order (16 GiB at 65,535 queens); asked where polls are (the host),
  // which keeps the device's chain as it was.
  if (!fixed_order && (!detail::polls<Observer> || t.may_step()))
    for (std::uint32_t k = 0; k < moves; ++k) {
      // 4 n(n-1) bytes: 16 GiB at 65,535 queens, seconds to write, so it polls too.
      if (k % detail::first_choice_poll_moves == detail::first_choice_poll_moves - 1 &&
          !detail::scan_poll(t)())
        return t.finish();
      order[k] = k;
    }
  while (t.may_step()) {
    bool moved = false;
    for (std::uint32_t i = 0; i < moves && !moved; ++i) {
      // A scan of up to n(n-1) neighbours asks now and then whether it is still wanted.
      if (i % detail::first_choice_poll_moves == detail::first_choice_poll_moves - 1 &&
          !detail::scan_poll(t)())
        break;
      std::uint32_t k = i;
      if (!fixed_order) {
        const std::uint32_t j = i + rng.below(moves - i);
        k = order[j];
        order[j] = order[i];
        order[i] = k;
      }
      queen_move m;
      m.col = k / (n - 1);
      m.row = static_cast<row_t>(other_row(k % (n - 1), b.queen_row[m.col]));
      m.delta = relocation_delta(b, m.col, m.row);
      if (m.delta < 0) {
        detail::take(b, t, m);
        moved = true;
      }
    }
    if (!moved) break;
    t.report();
  }
  return t.finish();
}

/// @brief How the jump variants mix hill-climbing steps and random jumps.
struct jump_schedule {
  double p = 0.0;        ///< probability that a step is a jump instead of a hill-climbing step
  double cooling = 1.0;  ///< p <- max(p * cooling, p_min) after each hill-climbing step
  double p_min = 0.0;
  std::uint32_t q = 2;    ///< queens per jump
  bool on_stall = false;  ///< also jump after a hill-climbing step that found no improvement
  bool report_p = false;  ///< report p as the trace's temperature column
};

/// @brief hc-random-p ({p, 1, p, q}), hc-anneal-p ({p, cooling, p_min, q}) and hc-memory
/// ({0, 1, 0, q, on_stall}). A step draws one uniform number when p > 0; a hill-climbing step
/// takes the best strictly improving move, if any (ties as `rule` says). Runs until solved or
/// the step limit.
template <class Count, class Observer>
NQ_HD chain_outcome jump_climb(climber_view<Count> b, philox_stream& rng, jump_schedule s,
                               tie_rule rule, bool random_start, std::uint64_t max_steps,
                               Observer observe) {
  detail::chain_tracker<Observer> t{observe, max_steps};
  t.out.cost = detail::start_board(b, rng, random_start);
  if (!t.report(s.report_p ? s.p : -1.0)) return t.finish();
  while (t.may_step()) {
    const double p_used = s.p;
    if (s.p > 0.0 && rng.uniform() < s.p) {
      t.out.cost = random_jumps(b, rng, s.q, t.out.cost);
      ++t.out.steps;
    } else {
      const queen_move m = steepest_move(b, rng, -1, rule, detail::scan_poll(t));
      if (detail::polls<Observer> && t.out.stopped) break;  // a poll stopped the scan
      if (m.delta < 0) {
        detail::take(b, t, m);
      } else {
        ++t.out.steps;
        if (s.on_stall) t.out.cost = random_jumps(b, rng, s.q, t.out.cost);
      }
      const double cooled = s.p * s.cooling;
      s.p = cooled > s.p_min ? cooled : s.p_min;
    }
    t.report(s.report_p ? p_used : -1.0);
  }
  return t.finish();
}

}  // namespace nq
