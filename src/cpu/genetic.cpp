// The genetic algorithm: tournament (or leader) selection, crossover, mutation and elitism, on
// the column
// encoding (any rows; single-point crossover, one gene set to a random row) or the permutation
// encoding (order crossover, swap mutation).

#include <algorithm>
#include <numeric>

#include "cpu/population_search.hpp"

namespace nq::detail {
namespace {

struct population {
  population(index_t n, std::size_t size) : n(n), genes(size * n), cost(size) {}
  row_t* individual(std::size_t i) { return genes.data() + i * n; }
  const row_t* individual(std::size_t i) const { return genes.data() + i * n; }
  std::size_t size() const { return cost.size(); }
  index_t n;
  std::vector<row_t> genes;
  std::vector<index_t> cost;
};

void random_individual(row_t* genes, index_t n, bool permutation, philox_stream& rng) {
  if (!permutation) {
    for (index_t i = 0; i < n; ++i) genes[i] = rng.below(static_cast<std::uint32_t>(n));
    return;
  }
  std::iota(genes, genes + n, row_t{0});
  for (index_t i = n; i > 1; --i)
    std::swap(genes[i - 1], genes[rng.below(static_cast<std::uint32_t>(i))]);
}

/// The winner of a tournament of `size` contestants drawn with replacement (first best wins).
std::size_t tournament(const population& pop, std::uint32_t size, philox_stream& rng) {
  const auto count = static_cast<std::uint32_t>(pop.size());
  std::size_t winner = rng.below(count);
  for (std::uint32_t i = 1; i < size; ++i) {
    const std::size_t contestant = rng.below(count);
    if (pop.cost[contestant] < pop.cost[winner]) winner = contestant;
  }
  return winner;
}

/// Selection by leaders: the best (first best) of each of `groups` consecutive, nearly equal
/// parts of the population.
std::vector<std::size_t> group_leaders(const population& pop, std::size_t groups) {
  std::vector<std::size_t> leaders(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t begin = g * pop.size() / groups, end = (g + 1) * pop.size() / groups;
    std::size_t best = begin;
    for (std::size_t i = begin + 1; i < end; ++i)
      if (pop.cost[i] < pop.cost[best]) best = i;
    leaders[g] = best;
  }
  return leaders;
}

/// Order crossover (OX1): the child keeps `a` on [lo, hi) and takes the other rows in the order
/// they appear in `b`, starting after hi and wrapping around.
void order_crossover(const row_t* a, const row_t* b, row_t* child, index_t n, index_t lo,
                     index_t hi, std::vector<char>& used) {
  std::fill(used.begin(), used.end(), 0);
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

void mutate(row_t* genes, index_t n, bool permutation, philox_stream& rng) {
  const auto bound = static_cast<std::uint32_t>(n);
  if (permutation) {
    std::swap(genes[rng.below(bound)], genes[rng.below(bound)]);
  } else {
    const index_t gene = rng.below(bound);
    genes[gene] = rng.below(bound);
  }
}

}  // namespace

chain_outcome genetic_search(index_t n, const genetic_settings& settings, philox_stream& rng,
                             const row_t* start, std::uint64_t max_steps,
                             const population_observer& observe, std::vector<row_t>& best) {
  const std::size_t size = settings.population ? settings.population : default_population(n);
  const bool perm = settings.permutation;
  board_cost cost_of(n);
  population pop(n, size), next(n, size);
  for (std::size_t i = 0; i < size; ++i) {
    row_t* genes = pop.individual(i);
    if (i == 0 && start)
      std::copy(start, start + n, genes);
    else
      random_individual(genes, n, perm, rng);
    pop.cost[i] = cost_of(genes);
  }
  chain_outcome out;
  trace_row row = population_row(n, pop.cost, 0);
  out.cost = row.cost;
  out.stopped = !observe(row);
  std::vector<std::size_t> rank(size);
  std::vector<char> used(n);
  const std::size_t elite = std::min<std::size_t>(settings.elite, size);
  double escalated = settings.mutation;
  std::vector<std::size_t> leaders;
  const auto parent = [&] {
    if (!settings.leaders) return tournament(pop, settings.tournament, rng);
    return leaders[rng.below(static_cast<std::uint32_t>(leaders.size()))];
  };
  while (out.cost != 0 && !out.stopped && (max_steps == 0 || out.steps < max_steps)) {
    std::iota(rank.begin(), rank.end(), std::size_t{0});
    std::stable_sort(rank.begin(), rank.end(),
                     [&](std::size_t a, std::size_t b) { return pop.cost[a] < pop.cost[b]; });
    if (settings.leaders) leaders = group_leaders(pop, std::min<std::size_t>(2 * n, size));
    std::size_t filled = 0;
    for (; filled < elite; ++filled)
      std::copy_n(pop.individual(rank[filled]), n, next.individual(filled));
    while (filled < size) {
      const row_t* a = pop.individual(parent());
      const row_t* b = pop.individual(parent());
      const bool equal = std::equal(a, a + n, b);
      row_t* first = next.individual(filled);
      row_t* second = filled + 1 < size ? next.individual(filled + 1) : nullptr;
      std::vector<row_t> spare;
      if (!second) {
        spare.resize(n);
        second = spare.data();
      }
      if (n >= 2 && rng.uniform() < settings.crossover) {
        const auto bound = static_cast<std::uint32_t>(n);
        if (perm) {
          index_t lo = rng.below(bound), hi = rng.below(bound);
          if (lo > hi) std::swap(lo, hi);
          ++hi;
          order_crossover(a, b, first, n, lo, hi, used);
          order_crossover(b, a, second, n, lo, hi, used);
        } else {
          const index_t cut = 1 + rng.below(bound - 1);
          std::copy(a, a + cut, first);
          std::copy(b + cut, b + n, first + cut);
          std::copy(b, b + cut, second);
          std::copy(a + cut, a + n, second + cut);
        }
      } else {
        std::copy(a, a + n, first);
        std::copy(b, b + n, second);
      }
      double mutation = equal ? settings.equal_parent_mutation : settings.mutation;
      if (settings.mutation_step > 0.0) {
        if (equal) escalated = std::min(1.0, escalated + settings.mutation_step);
        mutation = escalated;
      }
      for (row_t* child : {first, second})
        if (rng.uniform() < mutation) mutate(child, n, perm, rng);
      filled += 2;
    }
    for (std::size_t i = 0; i < size; ++i) next.cost[i] = cost_of(next.individual(i));
    std::swap(pop, next);
    ++out.steps;
    row = population_row(n, pop.cost, out.steps);
    out.cost = row.cost;
    out.stopped = !observe(row);
  }
  const auto at = std::min_element(pop.cost.begin(), pop.cost.end()) - pop.cost.begin();
  best.assign(pop.individual(static_cast<std::size_t>(at)),
              pop.individual(static_cast<std::size_t>(at)) + n);
  out.solved = out.cost == 0;
  return out;
}

}  // namespace nq::detail
