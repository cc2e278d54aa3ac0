// The genetic algorithm: tournament (or leader) selection, crossover, mutation and elitism, on
// the column encoding (any rows; single-point crossover, one gene set to a random row) or the
// permutation encoding (order crossover, swap mutation). The operators and the keyed streams
// are nqueens/detail/population.hpp's, which the GPU kernel runs too, pair by pair in parallel.

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>

#include "cpu/population_search.hpp"
#include "nqueens/error.hpp"

namespace nq::detail {
namespace {

struct population {
  // The genes are not zeroed: every individual is written before it is read (the first
  // population made, each child bred whole: permutations' order crossover from permutations,
  // which genetic_search checks a start board is), and a population of 4,096 boards of 32,000
  // queens is half a gigabyte to clear before a stop could be seen.
  population(index_t n, std::size_t size)
      : n(n), genes(std::make_unique_for_overwrite<row_t[]>(size * n)), cost(size) {}
  row_t* individual(std::size_t i) { return genes.get() + i * n; }
  const row_t* individual(std::size_t i) const { return genes.get() + i * n; }
  std::size_t size() const { return cost.size(); }
  index_t n;
  std::unique_ptr<row_t[]> genes;
  std::vector<index_t> cost;
};

}  // namespace

chain_outcome genetic_search(index_t n, const genetic_settings& settings, std::uint64_t seed,
                             std::uint64_t run, const row_t* start, std::uint64_t max_steps,
                             const population_observer& observe, std::vector<row_t>& best,
                             const std::function<bool()>& interrupted) {
  const std::size_t size = settings.population ? settings.population : default_population(n);
  const auto count = static_cast<std::uint32_t>(size);
  const bool perm = settings.permutation;
  // Order crossover writes every gene of a child only from parents that are permutations, and
  // the populations are not zeroed: a start board that repeats a row is refused.
  if (perm && start) {
    std::vector<bool> seen(n);
    for (index_t col = 0; col < n; ++col) {
      if (start[col] >= n || seen[start[col]])
        throw usage_error(
            "ga --encoding permutation starts from a permutation (each row once); "
            "the board given has row " +
            std::to_string(start[col] + 1) + (start[col] >= n ? " off the board" : " twice"));
      seen[start[col]] = true;
    }
  }
  std::vector<std::uint16_t> lines(5 * n - 2), used(n);
  population pop(n, size), next(n, size);
  // The first population, asked after each individual whether it is still wanted: a stop keeps
  // the individuals made (at least one) as the population, and ends the run.
  bool cut = false;
  std::size_t made = 0;
  while (made < size && !cut) {
    row_t* genes = pop.individual(made);
    if (made == 0 && start) {
      std::copy(start, start + n, genes);
    } else {
      philox_stream rng = population_stream(seed, run, 0, made);
      genetic::random_individual(genes, n, perm, rng);
    }
    pop.cost[made] = genes_cost(genes, n, lines.data());
    ++made;
    cut = made < size && interrupted && interrupted();
  }
  pop.cost.resize(made);
  chain_outcome out;
  trace_row row = population_row(n, pop.cost, 0);
  out.cost = row.cost;
  out.stopped = !observe(row) || cut;
  std::vector<std::size_t> rank(size);
  const std::size_t elite = std::min<std::size_t>(settings.elite, size);
  const std::uint32_t groups = genetic::leader_groups(n, count);
  std::vector<std::uint32_t> leaders(settings.leaders ? groups : 0);
  std::vector<row_t> spare(n);
  std::uint64_t equal_pairs = 0;  // the run's pairs of equal parents (the mutation step)
  while (out.cost != 0 && !out.stopped && (max_steps == 0 || out.steps < max_steps)) {
    const std::uint64_t generation = out.steps + 1;
    std::iota(rank.begin(), rank.end(), std::size_t{0});
    std::stable_sort(rank.begin(), rank.end(),
                     [&](std::size_t a, std::size_t b) { return pop.cost[a] < pop.cost[b]; });
    for (std::uint32_t g = 0; g < leaders.size(); ++g)
      leaders[g] = genetic::group_leader(pop.cost.data(), count, groups, g);
    for (std::size_t filled = 0; filled < elite; ++filled)
      std::copy_n(pop.individual(rank[filled]), n, next.individual(filled));
    bool dropped = false;  // a stop during the generation drops it
    for (std::size_t filled = elite, pair = 0; filled < size; filled += 2, ++pair) {
      if ((dropped = interrupted && interrupted())) break;
      philox_stream pick = population_stream(seed, run, generation, 2 * pair);
      std::uint32_t a = 0, b = 0;
      genetic::select_parents(pop.cost.data(), count, settings,
                              settings.leaders ? leaders.data() : nullptr, groups, pick, a, b);
      const bool equal = genetic::same_genes(pop.individual(a), pop.individual(b), n);
      equal_pairs += equal;
      philox_stream breed = population_stream(seed, run, generation, 2 * pair + 1);
      row_t* second = filled + 1 < size ? next.individual(filled + 1) : spare.data();
      genetic::breed(pop.individual(a), pop.individual(b), next.individual(filled), second, n,
                     settings, genetic::pair_mutation(settings, equal, equal_pairs), breed,
                     used.data());
    }
    for (std::size_t i = 0; i < size && !dropped; ++i) {
      if ((dropped = interrupted && interrupted())) break;
      next.cost[i] = genes_cost(next.individual(i), n, lines.data());
    }
    if (dropped) {
      out.stopped = true;
      break;
    }
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
