#pragma once
/// @file
/// @brief Which NQ_HD chain each single-chain local search is, and how its settings map onto
/// it: one place, called by the CPU reference (the algorithm chosen at run time) and by the
/// kernels (one instantiation per algorithm).

#include "nqueens/detail/stochastic_search.hpp"

namespace nq {

/// @brief Whether `a` runs as one chain on one board: all but the permutation min-conflicts,
/// beam and ga.
NQ_HD constexpr bool is_single_chain(local_algorithm a) {
  return a != local_algorithm::min_conflicts && a != local_algorithm::beam &&
         a != local_algorithm::ga;
}

/// @brief Runs chain `Algorithm` on `b`. `order` is first-choice's scratch (n(n-1) entries);
/// the others ignore it.
template <local_algorithm Algorithm, class Count, class Observer>
NQ_HD chain_outcome run_chain_of(climber_view<Count> b, std::uint32_t* order, philox_stream& rng,
                                 const local_search_settings& s, bool random_start,
                                 std::uint64_t max_steps, Observer observe) {
  using A = local_algorithm;
  if constexpr (Algorithm == A::hc)
    return hill_climb(b, rng, 0, false, s.hill, random_start, max_steps, observe);
  if constexpr (Algorithm == A::hc_sideways)
    return hill_climb(b, rng, s.hill.max_sideways, false, s.hill, random_start, max_steps, observe);
  if constexpr (Algorithm == A::hc_restart)
    return hill_climb(b, rng, s.hill.max_sideways, true, s.hill, random_start, max_steps, observe);
  if constexpr (Algorithm == A::first_choice)
    return first_choice(b, order, rng, s.first_choice.fixed_order, random_start, max_steps,
                        observe);
  if constexpr (Algorithm == A::min_conflicts_column)
    return column_min_conflicts(b, rng, s.column, random_start, max_steps, observe);
  if constexpr (Algorithm == A::sa)
    return anneal(b, rng, s.annealing, random_start, max_steps, observe);
  if constexpr (Algorithm == A::random)
    return random_search(b, rng, random_start, max_steps, observe);
  if constexpr (Algorithm == A::random_opt)
    return random_opt(b, rng, s.random_opt.sweep, random_start, max_steps, observe);
  if constexpr (Algorithm == A::hc_random_p) {
    const auto& j = s.random_jump;
    return jump_climb(b, rng, jump_schedule{j.p, 1.0, j.p, j.q, false, false}, s.hill.ties,
                      random_start, max_steps, observe);
  }
  if constexpr (Algorithm == A::hc_anneal_p) {
    const auto& j = s.annealed_jump;
    return jump_climb(b, rng, jump_schedule{j.p, j.cooling, j.p_min, j.q, false, true}, s.hill.ties,
                      random_start, max_steps, observe);
  }
  if constexpr (Algorithm == A::hc_memory)
    return jump_climb(b, rng, jump_schedule{0.0, 1.0, 0.0, s.memory.q, true, false}, s.hill.ties,
                      random_start, max_steps, observe);
  return chain_outcome{};
}

/// @brief The same, for `s.algorithm` (a single chain; anything else returns an empty outcome).
template <class Count, class Observer>
NQ_HD chain_outcome run_chain(climber_view<Count> b, std::uint32_t* order, philox_stream& rng,
                              const local_search_settings& s, bool random_start,
                              std::uint64_t max_steps, Observer observe) {
  using A = local_algorithm;
  switch (s.algorithm) {
#define NQ_RUN_CHAIN(name) \
  case A::name:            \
    return run_chain_of<A::name>(b, order, rng, s, random_start, max_steps, observe);
    NQ_RUN_CHAIN(hc)
    NQ_RUN_CHAIN(hc_sideways)
    NQ_RUN_CHAIN(hc_restart)
    NQ_RUN_CHAIN(first_choice)
    NQ_RUN_CHAIN(min_conflicts_column)
    NQ_RUN_CHAIN(sa)
    NQ_RUN_CHAIN(random)
    NQ_RUN_CHAIN(random_opt)
    NQ_RUN_CHAIN(hc_random_p)
    NQ_RUN_CHAIN(hc_anneal_p)
    NQ_RUN_CHAIN(hc_memory)
#undef NQ_RUN_CHAIN
    default:
      return chain_outcome{};
  }
}

}  // namespace nq
