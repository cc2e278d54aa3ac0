#pragma once
/// @file
/// @brief sa and random on boards of 4 to 16 queens with the whole chain in registers, on
/// register_climb.hpp's register_board (4-bit rows in one word, byte line counts read at a
/// run-time row by a select over the few words). Each walks exactly as anneal or random_search
/// (stochastic_search.hpp) on a climber_view with a random start and no observer: the same
/// draws in the same order, the same moves, the same double arithmetic in the same order (sa's
/// exp(-delta / T) is each side's libm, as in anneal), the same chain_outcome.

#include <cmath>

#include "nqueens/detail/register_climb.hpp"

namespace nq {

/// @brief Whether register_stochastic_chain_of runs `s.algorithm` on `n` queens: sa (every
/// annealing setting: schedule, accept_equal, cool_per_move) or random, on 4..16 queens.
/// Callers fall back to run_chain_of on a climber_view otherwise.
NQ_HD constexpr bool register_stochastic_supports(const local_search_settings& s, index_t n) {
  return (s.algorithm == local_algorithm::sa || s.algorithm == local_algorithm::random) &&
         n >= min_register_climb_n && n <= max_register_climb_n;
}

namespace detail {

/// relocation_delta on a register board: the load of (col, to_row), a row other than the
/// queen's, less the pairs of the queen of `col`.
template <int N>
NQ_HD std::int32_t register_relocation_delta(const register_board<N>& b, std::uint32_t col,
                                             std::uint32_t to_row) {
  return static_cast<std::int32_t>(b.line_load(col, to_row)) -
         (static_cast<std::int32_t>(b.line_load(col, b.row_of(col))) - 3);
}

}  // namespace detail

/// @brief anneal (sa) from a random start with no observer, on N queens (4..16) in registers:
/// the chain_outcome anneal returns on a climber_view with the same stream and settings, the
/// same words drawn. `final_rows`, `Rng` and `poll` as register_hill_climb's: the poll is asked
/// every 1,024 observer calls (the start and each step) before the next step, so a run solved
/// or at max_steps by then ends as it is, where a stopping observer would also mark it stopped.
template <int N, class Rng, class Poll = no_register_poll>
NQ_HD chain_outcome register_anneal(Rng& rng, const annealing_settings& s, std::uint64_t max_steps,
                                    std::uint64_t* final_rows = nullptr, Poll poll = {}) {
  detail::register_board<N> b;
  chain_outcome out{};
  double temperature = s.initial_temperature > 0.0
                           ? s.initial_temperature
                           : static_cast<double>(N) * static_cast<double>(N);
  std::uint32_t cost = b.randomise(rng);
  std::uint32_t calls = 1;  // the observer's: the start's
  const auto accepts = [&](std::int32_t delta) {
    if (delta < 0) return true;
    if (delta == 0) return s.accept_equal;
    return rng.uniform() < exp(-static_cast<double>(delta) / temperature);
  };
  while (cost != 0 && (max_steps == 0 || out.steps < max_steps)) {
    if (calls++ % 1024 == 0 && poll()) {  // the call of the last step
      out.stopped = true;
      break;
    }
    std::uint32_t col = 0, row = 0;
    std::int32_t delta = 0;
    bool accept = false;
    if (s.cool_per_move) {
      for (;;) {  // any square of a random column until one is accepted; its own square stays
        col = rng.below(static_cast<std::uint32_t>(N));
        row = rng.below(static_cast<std::uint32_t>(N));
        if (row == b.row_of(col)) break;
        delta = detail::register_relocation_delta(b, col, row);
        if (accepts(delta)) {
          accept = true;
          break;
        }
      }
    } else {  // random_neighbour: a column, then one of its N - 1 other rows
      col = rng.below(static_cast<std::uint32_t>(N));
      const std::uint32_t other = rng.below(static_cast<std::uint32_t>(N - 1));
      row = other < b.row_of(col) ? other : other + 1;
      delta = detail::register_relocation_delta(b, col, row);
      accept = accepts(delta);
    }
    if (accept) {
      b.relocate(col, row);
      cost = static_cast<std::uint32_t>(static_cast<std::int32_t>(cost) + delta);
    }
    ++out.steps;
    const double cooled = temperature * s.cooling;
    temperature = cooled > s.min_temperature ? cooled : s.min_temperature;
  }
  out.cost = cost;
  out.solved = cost == 0;
  if (final_rows) *final_rows = b.queen_row;
  return out;
}

/// @brief random_search (random: a fresh random board every step) from a random start with no
/// observer, on N queens (4..16) in registers, as register_anneal.
template <int N, class Rng, class Poll = no_register_poll>
NQ_HD chain_outcome register_random_search(Rng& rng, std::uint64_t max_steps,
                                           std::uint64_t* final_rows = nullptr, Poll poll = {}) {
  detail::register_board<N> b;
  chain_outcome out{};
  std::uint32_t cost = b.randomise(rng);
  std::uint32_t calls = 1;  // the observer's: the start's
  while (cost != 0 && (max_steps == 0 || out.steps < max_steps)) {
    if (calls++ % 1024 == 0 && poll()) {  // the call of the last step
      out.stopped = true;
      break;
    }
    cost = b.randomise(rng);
    ++out.steps;
  }
  out.cost = cost;
  out.solved = cost == 0;
  if (final_rows) *final_rows = b.queen_row;
  return out;
}

/// @brief run_chain_of<Algorithm> (sa or random) with a random start and no observer, on N
/// queens in registers (`final_rows` and `poll` as register_hill_climb's).
template <local_algorithm Algorithm, int N, class Rng, class Poll = no_register_poll>
NQ_HD chain_outcome register_stochastic_chain_of(Rng& rng, const local_search_settings& s,
                                                 std::uint64_t max_steps,
                                                 std::uint64_t* final_rows = nullptr,
                                                 Poll poll = {}) {
  using A = local_algorithm;
  static_assert(Algorithm == A::sa || Algorithm == A::random);
  if constexpr (Algorithm == A::sa)
    return register_anneal<N>(rng, s.annealing, max_steps, final_rows, poll);
  else
    return register_random_search<N>(rng, max_steps, final_rows, poll);
}

}  // namespace nq
