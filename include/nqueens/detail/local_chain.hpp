#pragma once
/// @file
/// @brief Which NQ_HD chain each single-chain local search is, and how its settings map onto
/// it: one place, called by the CPU reference (the algorithm chosen at run time) and by the
/// kernels (one instantiation per algorithm).

#include <cstddef>
#include <type_traits>

#include "nqueens/detail/stochastic_search.hpp"

namespace nq {
namespace detail {

/// with_single_chain from single_chain_algorithms[I] on.
template <std::size_t I, class Call, class Otherwise>
decltype(auto) with_single_chain_from(local_algorithm a, Call& call, Otherwise& otherwise) {
  if constexpr (I == single_chain_algorithms.size()) {
    return otherwise();
  } else {
    constexpr local_algorithm chain = single_chain_algorithms[I];
    if (a == chain) return call(std::integral_constant<local_algorithm, chain>{});
    return with_single_chain_from<I + 1>(a, call, otherwise);
  }
}

}  // namespace detail

/// @brief Calls `call(std::integral_constant<local_algorithm, a>{})` when `a` is a single chain
/// (single_chain_algorithms), else `otherwise()`; both return the same type. The one step from
/// an algorithm chosen at run time to its chain's instantiation, for the CPU reference
/// (run_chain) and the kernels' launches alike. Host code.
template <class Call, class Otherwise>
decltype(auto) with_single_chain(local_algorithm a, Call call, Otherwise otherwise) {
  return detail::with_single_chain_from<0>(a, call, otherwise);
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
/// The CPU reference's: the kernels instantiate run_chain_of for each algorithm.
template <class Count, class Observer>
chain_outcome run_chain(climber_view<Count> b, std::uint32_t* order, philox_stream& rng,
                        const local_search_settings& s, bool random_start, std::uint64_t max_steps,
                        Observer observe) {
  return with_single_chain(
      s.algorithm,
      [&](auto chain) {
        return run_chain_of<decltype(chain)::value>(b, order, rng, s, random_start, max_steps,
                                                    observe);
      },
      [] { return chain_outcome{}; });
}

}  // namespace nq
