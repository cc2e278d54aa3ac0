#pragma once
/// @file
/// @brief The step logic of the population searches (ga and beam), shared by the CPU reference
/// (src/cpu/genetic.cpp, src/cpu/beam.cpp) and the kernels (kernels/population.cu).
///
/// Every random draw comes from a stream keyed by (seed, run, generation, individual), so the
/// individuals of a generation can be bred or scored in any order, or all at once, and still
/// give the same population:
///   - generation 0 (the starting population): individual i draws from (run, 0, i);
///   - ga, generation g >= 1: pair p picks its parents from (run, g, 2p) and recombines and
///     mutates its children from (run, g, 2p + 1);
///   - beam, generation g >= 1: successor j of state s has the tie-break key word j of
///     (run, g, s); the stochastic variant makes draw i from (run, g, i).

#include <cmath>

#include "nqueens/detail/climb.hpp"
#include "nqueens/local_settings.hpp"
#include "nqueens/rng.hpp"

namespace nq {

/// @brief The stream of one individual of one generation of one run: a Philox key derived from
/// (seed, run, generation), the individual in the counter.
NQ_HD inline philox_stream population_stream(std::uint64_t seed, std::uint64_t run,
                                             std::uint64_t generation, std::uint64_t individual) {
  const r123::Philox4x32::ctr_type at = {
      {static_cast<std::uint32_t>(generation), static_cast<std::uint32_t>(generation >> 32),
       static_cast<std::uint32_t>(run), static_cast<std::uint32_t>(run >> 32) ^ 0x9E3779B9u}};
  const r123::Philox4x32::key_type key = {
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
  const auto derived = r123::Philox4x32{}(at, key);
  return philox_stream((std::uint64_t{derived[1]} << 32) | derived[0], individual);
}

/// @brief Non-attacking pairs when `cost` pairs attack: what the GA maximises.
NQ_HD constexpr index_t fitness_of(index_t n, index_t cost) { return n * (n - 1) / 2 - cost; }

/// @brief Attacking pairs of `genes`, with `lines` (5n - 2 counters) as scratch: O(n).
template <class Count>
NQ_HD index_t genes_cost(row_t* genes, index_t n, Count* lines) {
  return recount(climber_view<Count>{genes, lines, lines + n, lines + 3 * n - 1, n});
}

namespace genetic {

/// @brief A random individual: n independent rows, or (permutation) a Fisher-Yates shuffle.
NQ_HD inline void random_individual(row_t* genes, index_t n, bool permutation, philox_stream& rng) {
  if (!permutation) {
    for (index_t i = 0; i < n; ++i) genes[i] = rng.below(static_cast<std::uint32_t>(n));
    return;
  }
  for (index_t i = 0; i < n; ++i) genes[i] = static_cast<row_t>(i);
  for (index_t i = n; i > 1; --i) {
    const index_t j = rng.below(static_cast<std::uint32_t>(i));
    const row_t kept = genes[i - 1];
    genes[i - 1] = genes[j];
    genes[j] = kept;
  }
}

/// @brief The winner of a tournament of `size` contestants drawn with replacement from
/// `count` individuals (first best wins).
template <class Cost>
NQ_HD std::uint32_t tournament(const Cost* cost, std::uint32_t count, std::uint32_t size,
                               philox_stream& rng) {
  std::uint32_t winner = rng.below(count);
  for (std::uint32_t i = 1; i < size; ++i) {
    const std::uint32_t contestant = rng.below(count);
    if (cost[contestant] < cost[winner]) winner = contestant;
  }
  return winner;
}

/// @brief Groups of the leader selection: min(2n, population).
NQ_HD constexpr std::uint32_t leader_groups(index_t n, std::uint32_t population) {
  return 2 * n < population ? static_cast<std::uint32_t>(2 * n) : population;
}

/// @brief The leader of group g of `groups`: the first best of its consecutive part.
template <class Cost>
NQ_HD std::uint32_t group_leader(const Cost* cost, std::uint32_t population, std::uint32_t groups,
                                 std::uint32_t g) {
  const auto begin = static_cast<std::uint32_t>(std::uint64_t{g} * population / groups);
  const auto end = static_cast<std::uint32_t>(std::uint64_t{g + 1} * population / groups);
  std::uint32_t best = begin;
  for (std::uint32_t i = begin + 1; i < end; ++i)
    if (cost[i] < cost[best]) best = i;
  return best;
}

/// @brief Both parents of pair p, drawn from its selection stream: tournaments, or uniformly
/// among the `groups` leaders when `leaders` is not null.
template <class Cost>
NQ_HD void select_parents(const Cost* cost, std::uint32_t population, const genetic_settings& s,
                          const std::uint32_t* leaders, std::uint32_t groups, philox_stream& rng,
                          std::uint32_t& a, std::uint32_t& b) {
  if (leaders) {
    a = leaders[rng.below(groups)];
    b = leaders[rng.below(groups)];
  } else {
    a = tournament(cost, population, s.tournament, rng);
    b = tournament(cost, population, s.tournament, rng);
  }
}

/// @brief Order crossover (OX1): the child keeps `a` on [lo, hi) and takes the other rows in
/// the order they appear in `b`, starting after hi and wrapping around. `used`: n flags.
template <class Flag>
NQ_HD void order_crossover(const row_t* a, const row_t* b, row_t* child, index_t n, index_t lo,
                           index_t hi, Flag* used) {
  for (index_t i = 0; i < n; ++i) used[i] = 0;
  for (index_t i = lo; i < hi; ++i) {
    child[i] = a[i];
    used[a[i]] = 1;
  }
  index_t out = hi % n;
  for (index_t k = 0; k < n; ++k) {
    const row_t gene = b[(hi + k) % n];
    if (used[gene]) continue;
    child[out] = gene;
    out = (out + 1) % n;
  }
}

/// @brief One gene to a random row, or (permutation) two genes swapped.
NQ_HD inline void mutate(row_t* genes, index_t n, bool permutation, philox_stream& rng) {
  const auto bound = static_cast<std::uint32_t>(n);
  if (permutation) {
    const std::uint32_t i = rng.below(bound), j = rng.below(bound);
    const row_t kept = genes[i];
    genes[i] = genes[j];
    genes[j] = kept;
  } else {
    const std::uint32_t gene = rng.below(bound);
    genes[gene] = rng.below(bound);
  }
}

/// @brief The mutation probability of a pair's children. With a mutation step, `equal_pairs`
/// counts the run's pairs of equal parents so far, this one included (one fused multiply-add,
/// rounded the same on host and device).
NQ_HD inline double pair_mutation(const genetic_settings& s, bool equal,
                                  std::uint64_t equal_pairs) {
  if (s.mutation_step > 0.0) {
    const double raised = ::fma(static_cast<double>(equal_pairs), s.mutation_step, s.mutation);
    return raised < 1.0 ? raised : 1.0;
  }
  return equal ? s.equal_parent_mutation : s.mutation;
}

/// @brief Pair p's children from parents a and b, drawn from its breeding stream: crossover
/// with its probability (one-point, or order crossover for permutations), then each child
/// mutates with probability `mutation`. `used`: n flags of scratch.
template <class Flag>
NQ_HD void breed(const row_t* a, const row_t* b, row_t* first, row_t* second, index_t n,
                 const genetic_settings& s, double mutation, philox_stream& rng, Flag* used) {
  const auto bound = static_cast<std::uint32_t>(n);
  if (n >= 2 && rng.uniform() < s.crossover) {
    if (s.permutation) {
      index_t lo = rng.below(bound), hi = rng.below(bound);
      if (lo > hi) {
        const index_t kept = lo;
        lo = hi;
        hi = kept;
      }
      ++hi;
      order_crossover(a, b, first, n, lo, hi, used);
      order_crossover(b, a, second, n, lo, hi, used);
    } else {
      const index_t cut = 1 + rng.below(bound - 1);
      for (index_t i = 0; i < n; ++i) {
        first[i] = i < cut ? a[i] : b[i];
        second[i] = i < cut ? b[i] : a[i];
      }
    }
  } else {
    for (index_t i = 0; i < n; ++i) {
      first[i] = a[i];
      second[i] = b[i];
    }
  }
  if (rng.uniform() < mutation) mutate(first, n, s.permutation, rng);
  if (rng.uniform() < mutation) mutate(second, n, s.permutation, rng);
}

/// @brief Whether two individuals have the same genes.
NQ_HD inline bool same_genes(const row_t* a, const row_t* b, index_t n) {
  for (index_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace genetic

namespace beam {

/// @brief Successors of one state: every queen to every other row of its column.
NQ_HD constexpr index_t successors_per_state(index_t n) { return n * (n - 1); }

/// @brief Successor j of a state (j < n(n-1)): its column, and the k-th other row of it.
NQ_HD constexpr index_t successor_col(index_t n, index_t j) { return j / (n - 1); }

/// @brief Sort key of a successor: its cost above, its random tie-break below. Ties between
/// equal keys go to the lower successor number (state, then j).
NQ_HD constexpr std::uint64_t successor_key(index_t cost, std::uint32_t tie) {
  return (static_cast<std::uint64_t>(cost) << 32) | tie;
}

/// @brief The cost of successor j of state `b` whose cost is `cost`.
template <class Count>
NQ_HD index_t successor_cost(climber_view<Count> b, index_t cost, index_t j) {
  const index_t n = b.n();
  const index_t col = successor_col(n, j);
  const index_t row = other_row(j % (n - 1), b.queen_row[col]);
  return static_cast<index_t>(static_cast<std::int64_t>(cost) + relocation_delta(b, col, row));
}

/// @brief Copies state `from` into `to`, applies its successor j and recounts: the new cost.
template <class Count>
NQ_HD index_t take_successor(climber_view<Count> from, climber_view<Count> to, index_t j) {
  const index_t n = from.n();
  for (index_t col = 0; col < n; ++col) to.queen_row[col] = from.queen_row[col];
  const index_t col = successor_col(n, j);
  to.queen_row[col] = static_cast<row_t>(other_row(j % (n - 1), from.queen_row[col]));
  return recount(to);
}

/// @brief Draw i of the stochastic variant: a target in [0, total) of the successors' summed
/// fitness; the successor whose running sum first exceeds it is drawn.
NQ_HD inline std::uint64_t draw_target(philox_stream& rng, std::uint64_t total) {
  const auto target = static_cast<std::uint64_t>(rng.uniform() * static_cast<double>(total));
  return target < total ? target : total - 1;
}

}  // namespace beam
}  // namespace nq
