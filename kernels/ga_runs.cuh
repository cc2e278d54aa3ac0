#pragma once
// Block-per-run ga (launched by population.cu): where a run keeps its two populations, their
// costs, the pairs' parents, the group leaders and each thread's line counters, and the body
// that breeds a generation from the last, its draws from the streams the CPU's genetic_search
// draws from.
// Included by population.cu alone: the unnamed namespace keeps these names to that one file,
// as they were before it was split.

#include "kernels/population_runs.cuh"
#include "nqueens/detail/population.hpp"

namespace nq::cuda {
namespace {

/// Where a ga run keeps its parts, in bytes from the start of its workspace.
struct ga_layout {
  std::uint32_t size = 0, elite = 0, pairs = 0, groups = 0;
  std::uint64_t genes[2] = {}, cost[2] = {}, parents = 0, leaders = 0, spare = 0, lines = 0;
  std::uint64_t total = 0;
};

ga_layout ga_layout_of(index_t n, const genetic_settings& g) {
  ga_layout at;
  at.size = g.population ? g.population : default_population(n);
  at.elite = g.elite < at.size ? g.elite : at.size;
  at.pairs = (at.size - at.elite + 1) / 2;
  at.groups = genetic::leader_groups(n, at.size);
  std::uint64_t end = 0;
  const auto take = [&](std::uint64_t bytes) {
    const std::uint64_t at_ = end;
    end = aligned(end + bytes);
    return at_;
  };
  for (auto& genes : at.genes) genes = take(std::uint64_t{at.size} * n * sizeof(row_t));
  for (auto& cost : at.cost) cost = take(std::uint64_t{at.size} * sizeof(std::uint32_t));
  at.parents = take(std::uint64_t{at.pairs} * 3 * sizeof(std::uint32_t));
  at.leaders = take(g.leaders ? std::uint64_t{at.groups} * sizeof(std::uint32_t) : 0);
  at.spare = take(n * sizeof(row_t));
  at.lines = take(std::uint64_t{population_threads} * lines_per_board(n) * sizeof(count_t));
  at.total = end;
  return at;
}

/// ga: thread t makes individuals t, t + T, ... of the start, and pairs of a contiguous chunk of
/// each generation's, so that the pairs' equal parents are counted in order for the mutation
/// step.
struct ga_runs : run_base {
  using shared_state = run_state;
  ga_layout at;

  template <class Block>
  NQ_HD void operator()(Block& block, run_state& s) const {
    const chain_launch& job = launch.job;
    const genetic_settings& g = job.settings.genetic;
    const index_t n = job.n;
    const std::uint64_t run = job.first + block.index();
    unsigned char* base = workspace(block);
    row_t* genes[2] = {reinterpret_cast<row_t*>(base + at.genes[0]),
                       reinterpret_cast<row_t*>(base + at.genes[1])};
    std::uint32_t* cost[2] = {reinterpret_cast<std::uint32_t*>(base + at.cost[0]),
                              reinterpret_cast<std::uint32_t*>(base + at.cost[1])};
    auto* parents = reinterpret_cast<std::uint32_t*>(base + at.parents);
    auto* leaders = g.leaders ? reinterpret_cast<std::uint32_t*>(base + at.leaders) : nullptr;
    auto* spare = reinterpret_cast<row_t*>(base + at.spare);
    const auto lines_of = [&](unsigned t) {
      return reinterpret_cast<count_t*>(base + at.lines) + t * lines_per_board(n);
    };
    const std::uint32_t size = at.size, pairs = at.pairs, elite = at.elite;
    const std::uint32_t chunk = (pairs + Block::threads - 1) / Block::threads;
    const auto first_pair = [&](unsigned t) { return t * chunk < pairs ? t * chunk : pairs; };
    const auto end_pair = [&](unsigned t) {
      return first_pair(t) + chunk < pairs ? first_pair(t) + chunk : pairs;
    };
    per_thread<std::uint64_t, Block::copies> before;

    block.each([&](unsigned t) {
      if (t == 0) start(s);
      for (std::uint32_t i = t; i < size; i += Block::threads) {
        philox_stream rng = population_stream(job.seed, run, 0, i);
        genetic::random_individual(genes[0] + std::uint64_t{i} * n, n, g.permutation, rng);
        cost[0][i] =
            static_cast<std::uint32_t>(genes_cost(genes[0] + std::uint64_t{i} * n, n, lines_of(t)));
      }
    });
    summarise(block, s, cost[0], size, before);
    while (more(s)) {
      const std::uint64_t generation = s.steps + 1;
      const row_t* pop = genes[s.current];
      const std::uint32_t* now = cost[s.current];
      row_t* next = genes[s.current ^ 1];
      std::uint32_t* next_cost = cost[s.current ^ 1];
      std::uint64_t after = 0;  // the elites in order of (cost, index), as a stable sort
      for (std::uint32_t e = 0; e < elite; ++e) {
        const std::uint64_t key = least_key(block, now, size, after);
        after = key + 1;
        const std::uint64_t from = key & 0xFFFFFFFFu;
        block.each([&](unsigned t) {
          if (t == 0) next_cost[e] = now[from];
          for (index_t col = t; col < n; col += Block::threads)
            next[std::uint64_t{e} * n + col] = pop[from * n + col];
        });
      }
      if (leaders)
        block.each([&](unsigned t) {
          for (std::uint32_t gr = t; gr < at.groups; gr += Block::threads)
            leaders[gr] = genetic::group_leader(now, size, at.groups, gr);
        });
      block.each([&](unsigned t) {
        for (std::uint32_t p = first_pair(t); p < end_pair(t); ++p) {
          philox_stream pick = population_stream(job.seed, run, generation, 2 * std::uint64_t{p});
          std::uint32_t a = 0, b = 0;
          genetic::select_parents(now, size, g, leaders, at.groups, pick, a, b);
          parents[3 * p] = a;
          parents[3 * p + 1] = b;
          parents[3 * p + 2] =
              genetic::same_genes(pop + std::uint64_t{a} * n, pop + std::uint64_t{b} * n, n);
        }
      });
      std::uint64_t equal_total = 0;
      if (g.mutation_step > 0.0)
        equal_total = block.exclusive_sum(
            [&](unsigned t) {
              std::uint64_t mine = 0;
              for (std::uint32_t p = first_pair(t); p < end_pair(t); ++p)
                mine += parents[3 * p + 2];
              return mine;
            },
            before);
      block.each([&](unsigned t) {
        std::uint64_t equal_pairs = s.equal_pairs + (g.mutation_step > 0.0 ? before[t] : 0);
        for (std::uint32_t p = first_pair(t); p < end_pair(t); ++p) {
          const bool equal = parents[3 * p + 2] != 0;
          equal_pairs += equal;
          philox_stream rng =
              population_stream(job.seed, run, generation, 2 * std::uint64_t{p} + 1);
          const std::uint64_t child = elite + 2 * std::uint64_t{p};
          row_t* first = next + child * n;
          row_t* second = child + 1 < size ? next + (child + 1) * n : spare;
          genetic::breed(pop + std::uint64_t{parents[3 * p]} * n,
                         pop + std::uint64_t{parents[3 * p + 1]} * n, first, second, n, g,
                         genetic::pair_mutation(g, equal, equal_pairs), rng, lines_of(t));
          next_cost[child] = static_cast<std::uint32_t>(genes_cost(first, n, lines_of(t)));
          if (child + 1 < size)
            next_cost[child + 1] = static_cast<std::uint32_t>(genes_cost(second, n, lines_of(t)));
        }
      });
      block.each([&](unsigned t) {
        if (t != 0) return;
        s.equal_pairs += equal_total;
        s.current ^= 1;
        ++s.steps;
      });
      summarise(block, s, cost[s.current], size, before);
    }
    finish(block, s, genes[s.current], cost[s.current], size);
  }
};

}  // namespace
}  // namespace nq::cuda
