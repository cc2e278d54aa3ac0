// Whole-grid ga (shape 2): one run at a time, its population in global memory, each generation
// a few grid-wide launches (rank the elite, pick parents, count equal pairs, breed, score) that
// follow one another on the default stream. Every individual draws from its own keyed stream
// (nqueens/detail/population.hpp), and the scores meet in atomic minima and integer sums, so the
// population does not depend on thread timing and is exactly the CPU reference's. One thread
// ends each generation on the device (grid_control.cuh): the host queues generations in
// batches and reads nothing between them. More than 8 elites are ranked by a radix select of
// the elite's last key and a sort of the elite alone (grid_select.cuh), Thrust's temporaries
// cached for the run.

#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <atomic>
#include <string>

#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/grid_control.cuh"
#include "kernels/grid_select.cuh"
#include "kernels/population.cuh"
#include "kernels/thrust_policy.cuh"
#include "nqueens/detail/population.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned grid_threads = 256;
constexpr unsigned score_threads = 256;
constexpr unsigned equal_threads = 256;
constexpr unsigned most_score_blocks = 4096;
constexpr unsigned most_global_score_blocks = 256;  // each with its own 20n bytes of counters
// Past this many elites, a radix select of the last elite's key and a sort of the elite rank
// them: a launch and a pass over the population per elite would cost O(elite * population)
// (--elite goes up to 10^7). Not tuned.
constexpr std::uint32_t most_ranking_launches = 8;

NQ_HD constexpr index_t score_lines(index_t n) { return 5 * n - 2; }

/// What the controller reads after each generation, and the run's equal-pairs count.
struct grid_summary {
  std::uint64_t least_key;    // (cost << 32) | index of the first best individual
  std::uint64_t fitness_sum;  // over the population
  std::uint64_t equal_pairs;  // the run's pairs of equal parents so far (the mutation step)
};

/// The run's device memory, as every phase sees it.
struct grid_run {
  index_t n;
  std::uint32_t size, elite, pairs, groups;
  std::uint64_t seed, run;
  genetic_settings settings;
  row_t* genes[2];
  std::uint32_t* cost;           // of the present population (scored in place)
  std::uint32_t* parents;        // 2 per pair
  std::uint32_t* equal;          // per pair: its parents are equal
  std::uint64_t* equal_through;  // per pair: the run's equal pairs up to it (mutation step)
  std::uint32_t* leaders;        // groups, or null
  std::uint64_t* ranked;         // the elite's keys, in order
  std::uint8_t* used;            // n flags per pair (order crossover)
  row_t* spare;                  // the dropped second child of an odd last pair
  grid_summary* summary;
  control_view c;

  NQ_HD bool done() const { return c.done(); }
  NQ_HD const row_t* members(unsigned which) const { return genes[which]; }

  NQ_HD std::uint64_t key(std::uint64_t i) const { return (std::uint64_t{cost[i]} << 32) | i; }
};

/// Generation 0: individual i from stream (run, 0, i).
struct grid_start {
  grid_run r;
  NQ_HD void operator()(const thread_id& id) const {
    if (id.global() == 0) r.c.start();
    grid_stride(id, r.size, [&](std::uint64_t i) {
      philox_stream rng = population_stream(r.seed, r.run, 0, i);
      genetic::random_individual(r.genes[0] + i * r.n, r.n, r.settings.permutation, rng);
    });
  }
};

/// Clears the summary before a population is scored, and the elite's keys before they are
/// ranked.
struct grid_reset {
  grid_run r;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done()) return;
    if (id.global() == 0) {
      r.summary->least_key = ~std::uint64_t{0};
      r.summary->fitness_sum = 0;
    }
    grid_stride(id, r.elite, [&](std::uint64_t e) { r.ranked[e] = ~std::uint64_t{0}; });
  }
};

/// Attacking pairs of every individual, a block each (blocks stride over the population): the
/// block's threads count the queens of their columns into line counters (in shared memory, or a
/// slice of global scratch for large n), each queen adding the queens already on its lines.
struct grid_score {
  struct no_state {
    unsigned char unused;
  };
  using shared_state = no_state;
  const row_t* genes;
  std::uint32_t* cost;
  grid_summary* summary;
  index_t n;
  std::uint32_t size;
  unsigned blocks;
  std::uint32_t* scratch;  // null: the counters are in shared memory
  control_view c;

  template <class Block>
  NQ_HD void operator()(Block& block, no_state&) const {
    if (c.done()) return;  // uniform: written by an earlier launch
    const index_t lines = score_lines(n);
    std::uint32_t* rows = scratch ? scratch + std::uint64_t{block.index()} * lines
                                  : reinterpret_cast<std::uint32_t*>(block.shared());
    std::uint32_t* diag = rows + n;
    std::uint32_t* anti = rows + 3 * n - 1;
    per_thread<std::uint64_t, Block::copies> before, pairs;
    for (std::uint64_t i = block.index(); i < size; i += blocks) {
      const row_t* queen_row = genes + i * n;
      block.each([&](unsigned t) {
        for (index_t line = t; line < lines; line += Block::threads) rows[line] = 0;
      });
      block.each([&](unsigned t) {
        std::uint64_t mine = 0;
        for (index_t col = t; col < n; col += Block::threads) {
          const index_t row = queen_row[col];
          mine += atomic_add(&rows[row], 1u);
          mine += atomic_add(&diag[row + n - 1 - col], 1u);
          mine += atomic_add(&anti[col + row], 1u);
        }
        pairs[t] = mine;
      });
      const std::uint64_t total = block.exclusive_sum([&](unsigned t) { return pairs[t]; }, before);
      block.each([&](unsigned t) {
        if (t != 0) return;
        cost[i] = static_cast<std::uint32_t>(total);
        atomic_min(&summary->least_key, (total << 32) | i);
        atomic_add(&summary->fitness_sum, static_cast<std::uint64_t>(fitness_of(n, total)));
      });
    }
  }
};

/// Elite place e: the least key after place e - 1's, as a stable sort by cost would have it.
struct grid_rank {
  grid_run r;
  std::uint32_t e;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done()) return;
    const std::uint64_t after = e == 0 ? 0 : r.ranked[e - 1] + 1;
    std::uint64_t least = ~std::uint64_t{0};
    grid_stride(id, r.size, [&](std::uint64_t i) {
      const std::uint64_t key = r.key(i);
      if (key >= after && key < least) least = key;
    });
    if (least != ~std::uint64_t{0}) atomic_min(&r.ranked[e], least);
  }
};

/// The individuals as grid_select.cuh's elements: keys unique, the index in the key.
struct grid_elements {
  grid_run r;
  NQ_HD std::uint64_t count() const { return r.size; }
  NQ_HD std::uint64_t key(std::uint64_t i) const { return r.key(i); }
  NQ_HD std::uint64_t number(std::uint64_t i) const { return i; }
  NQ_HD bool done() const { return r.done(); }
};

/// The next population's first `elite` individuals: the ranked ones, unchanged.
struct grid_copy_elite {
  grid_run r;
  unsigned current;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done()) return;
    grid_stride(id, std::uint64_t{r.elite} * r.n, [&](std::uint64_t x) {
      const std::uint64_t e = x / r.n, col = x % r.n;
      const std::uint64_t from = r.ranked[e] & 0xFFFFFFFFu;
      r.genes[current ^ 1][x] = r.genes[current][from * r.n + col];
    });
  }
};

struct grid_leaders {
  grid_run r;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done()) return;
    grid_stride(id, r.groups, [&](std::uint64_t g) {
      r.leaders[g] = genetic::group_leader(r.cost, r.size, r.groups, static_cast<std::uint32_t>(g));
    });
  }
};

/// Pair p's parents, from stream (run, generation, 2p), and whether they are equal.
struct grid_select {
  grid_run r;
  unsigned current;
  std::uint64_t generation;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done()) return;
    const row_t* pop = r.genes[current];
    grid_stride(id, r.pairs, [&](std::uint64_t p) {
      philox_stream pick = population_stream(r.seed, r.run, generation, 2 * p);
      std::uint32_t a = 0, b = 0;
      genetic::select_parents(r.cost, r.size, r.settings, r.leaders, r.groups, pick, a, b);
      r.parents[2 * p] = a;
      r.parents[2 * p + 1] = b;
      r.equal[p] =
          genetic::same_genes(pop + std::uint64_t{a} * r.n, pop + std::uint64_t{b} * r.n, r.n);
    });
  }
};

/// With a mutation step: the run's equal pairs through each pair, in pair order, by one block
/// (each thread a contiguous chunk, a block-wide sum between); then the run's count moves on.
struct grid_count_equal {
  struct no_state {
    unsigned char unused;
  };
  using shared_state = no_state;
  grid_run r;

  template <class Block>
  NQ_HD void operator()(Block& block, no_state&) const {
    if (r.done()) return;  // uniform: written by an earlier launch
    const std::uint64_t pairs = r.pairs;
    const std::uint64_t chunk = (pairs + Block::threads - 1) / Block::threads;
    const auto first_of = [&](unsigned t) { return t * chunk < pairs ? t * chunk : pairs; };
    const auto end_of = [&](unsigned t) {
      return first_of(t) + chunk < pairs ? first_of(t) + chunk : pairs;
    };
    per_thread<std::uint64_t, Block::copies> before;
    const std::uint64_t total = block.exclusive_sum(
        [&](unsigned t) {
          std::uint64_t mine = 0;
          for (std::uint64_t p = first_of(t); p < end_of(t); ++p) mine += r.equal[p];
          return mine;
        },
        before);
    block.each([&](unsigned t) {
      std::uint64_t through = r.summary->equal_pairs + before[t];
      for (std::uint64_t p = first_of(t); p < end_of(t); ++p) {
        through += r.equal[p];
        r.equal_through[p] = through;
      }
    });
    block.each([&](unsigned t) {
      if (t == 0) r.summary->equal_pairs += total;
    });
  }
};

/// Pair p's children, from stream (run, generation, 2p + 1), into the next population.
struct grid_breed {
  grid_run r;
  unsigned current;
  std::uint64_t generation;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done()) return;
    const row_t* pop = r.genes[current];
    row_t* next = r.genes[current ^ 1];
    const index_t n = r.n;
    grid_stride(id, r.pairs, [&](std::uint64_t p) {
      const bool equal = r.equal[p] != 0;
      const std::uint64_t equal_pairs = r.settings.mutation_step > 0.0 ? r.equal_through[p] : 0;
      philox_stream rng = population_stream(r.seed, r.run, generation, 2 * p + 1);
      const std::uint64_t child = r.elite + 2 * p;
      row_t* second = child + 1 < r.size ? next + (child + 1) * n : r.spare;
      genetic::breed(pop + std::uint64_t{r.parents[2 * p]} * n,
                     pop + std::uint64_t{r.parents[2 * p + 1]} * n, next + child * n, second, n,
                     r.settings, genetic::pair_mutation(r.settings, equal, equal_pairs), rng,
                     r.used ? r.used + p * n : nullptr);
    });
  }
};

unsigned blocks_for(std::uint64_t work) {
  return grid_size(static_cast<index_t>(work), grid_threads);
}

/// The memory of one whole-grid run, owned for its length.
struct grid_buffers {
  grid_buffers(index_t n, const genetic_settings& g, std::uint32_t size, std::uint32_t pairs,
               std::uint32_t groups, std::uint32_t elite, std::uint64_t score_scratch)
      : genes0(std::uint64_t{size} * n),
        genes1(std::uint64_t{size} * n),
        cost(size),
        parents(std::uint64_t{pairs} * 2),
        equal(pairs),
        equal_through(g.mutation_step > 0.0 ? pairs : 0),
        leaders(g.leaders ? groups : 0),
        ranked(elite),
        select(elite > most_ranking_launches ? 1 : 0),
        control(1),
        used(g.permutation ? std::uint64_t{pairs} * n : 0),
        spare(n),
        lines(score_scratch),
        summary(1) {}
  device_buffer<row_t> genes0, genes1;
  device_buffer<std::uint32_t> cost, parents, equal;
  device_buffer<std::uint64_t> equal_through;
  device_buffer<std::uint32_t> leaders;
  device_buffer<std::uint64_t> ranked;
  device_buffer<select_state> select;
  device_buffer<run_control> control;
  device_buffer<std::uint8_t> used;
  device_buffer<row_t> spare;
  device_buffer<std::uint32_t> lines;
  device_buffer<grid_summary> summary;
};

}  // namespace

bool whole_grid_population(const population_launch& launch) {
  const chain_launch& job = launch.job;
  if (job.settings.algorithm != local_algorithm::ga &&
      job.settings.algorithm != local_algorithm::beam)
    return false;
  switch (launch.shape) {
    case gpu::population_shape::block_per_run:
      return false;
    case gpu::population_shape::whole_grid:
      return true;
    case gpu::population_shape::automatic:
      break;
  }
  return population_run_bytes(job.settings, job.n) > population_shared_budget &&
         job.count < whole_grid_below_runs;
}

void run_whole_grid(const population_launch& launch, std::uint64_t slot,
                    const std::atomic<bool>* stop) {
  const chain_launch& job = launch.job;
  const genetic_settings& g = job.settings.genetic;
  NQ_EXPECTS(job.settings.algorithm == local_algorithm::ga, "a whole-grid run is a ga run");
  NQ_EXPECTS(g.population >= 1 && slot < job.count, "a resolved population and a slot");
  const index_t n = job.n;
  const std::uint32_t size = g.population;
  const std::uint32_t elite = g.elite < size ? g.elite : size;
  const std::uint32_t pairs = (size - elite + 1) / 2;
  const std::uint32_t groups = genetic::leader_groups(n, size);
  const std::size_t score_bytes = score_lines(n) * sizeof(std::uint32_t);
  const bool score_shared = score_bytes <= population_shared_budget;
  const unsigned score_blocks = size < (score_shared ? most_score_blocks : most_global_score_blocks)
                                    ? size
                                    : (score_shared ? most_score_blocks : most_global_score_blocks);
  grid_buffers memory(n, g, size, pairs, groups, elite,
                      score_shared ? 0 : std::uint64_t{score_blocks} * score_lines(n));
  generation_driver driver(stop);
  thrust_cache cache;
  grid_run r{n,
             size,
             elite,
             pairs,
             groups,
             job.seed,
             job.first + slot,
             g,
             {memory.genes0.data(), memory.genes1.data()},
             memory.cost.data(),
             memory.parents.data(),
             memory.equal.data(),
             memory.equal_through.data(),
             g.leaders ? memory.leaders.data() : nullptr,
             memory.ranked.data(),
             memory.used.data(),
             memory.spare.data(),
             memory.summary.data(),
             {memory.control.data(), driver.stop_flag(), driver.done_flag(), job.max_steps,
              job.time_limit_ns}};
  const bool selects = elite > most_ranking_launches;
  // A key is a cost (at most n(n-1)/2 attacking pairs) above an index.
  const unsigned key_bits = 32 + bits_below(std::uint64_t{n} * (n - 1) / 2 + 1);
  fill_bytes(memory.summary.data(), 0, 1);
  fill_bytes(memory.control.data(), 0, 1);
  if (selects)
    launch_threads("select_clear", 1, select_threads, select_clear{memory.select.data()});
  // Scores population `current`; then one thread ends the generation.
  const auto score = [&](unsigned current, bool made) {
    launch_threads("grid_reset", blocks_for(elite), grid_threads, grid_reset{r});
    launch_blocks<score_threads>(
        "grid_score", score_blocks, score_shared ? score_bytes : 0,
        grid_score{r.genes[current], r.cost, r.summary, n, size, score_blocks,
                   score_shared ? nullptr : memory.lines.data(), r.c});
    launch_threads("grid_check", 1, 1, generation_check<grid_run>{r, made, launch.history});
  };
  launch_threads("grid_start", blocks_for(size), grid_threads, grid_start{r});
  score(0, false);
  driver.run(batch_generations(std::uint64_t{size} * n), job.max_steps,
             [&](std::uint64_t generation, unsigned current) {
               if (selects) {
                 select_least(grid_elements{r}, memory.select.data(), elite, key_bits, 0, r.ranked,
                              nullptr);
                 thrust_step("ranking the elite",
                             [&] { thrust::sort(in_stream(cache), r.ranked, r.ranked + elite); });
               } else {
                 for (std::uint32_t e = 0; e < elite; ++e)
                   launch_threads("grid_rank", blocks_for(size), grid_threads, grid_rank{r, e});
               }
               if (elite > 0)
                 launch_threads("grid_copy_elite", blocks_for(std::uint64_t{elite} * n),
                                grid_threads, grid_copy_elite{r, current});
               if (g.leaders)
                 launch_threads("grid_leaders", blocks_for(groups), grid_threads, grid_leaders{r});
               if (pairs > 0) {
                 launch_threads("grid_select", blocks_for(pairs), grid_threads,
                                grid_select{r, current, generation});
                 if (g.mutation_step > 0.0)
                   launch_blocks<equal_threads>("grid_count_equal", 1, 0, grid_count_equal{r});
                 launch_threads("grid_breed", blocks_for(pairs), grid_threads,
                                grid_breed{r, current, generation});
               }
               score(current ^ 1, true);
             });
  launch_threads("grid_finish", blocks_for(n), grid_threads,
                 generation_finish<grid_run>{r, job.outcomes + slot,
                                             job.boards ? job.boards + slot * n : nullptr});
  synchronize();  // before the run's memory is freed
}

}  // namespace nq::cuda
