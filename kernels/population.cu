// Block-per-run ga and beam: a block holds one run's population (in shared memory when it fits,
// else in its slice of global scratch) and breeds or scores it generation by generation, its
// threads in parallel, drawing from the streams keyed by (seed, run, generation, individual) that
// the CPU reference draws from (nqueens/population.hpp). Only a summary per generation leaves
// the block, and only when a trace asks for it.

#include <atomic>

#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/population.cuh"
#include "nqueens/error.hpp"
#include "nqueens/population.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned population_threads = 128;
constexpr std::uint64_t scratch_budget = std::uint64_t{2} << 30;
constexpr std::uint64_t most_runs = std::uint64_t{1} << 24;
using count_t = std::uint16_t;

NQ_HD constexpr std::uint64_t aligned(std::uint64_t bytes) { return (bytes + 15) / 16 * 16; }
NQ_HD constexpr index_t lines_per_board(index_t n) { return 5 * n - 2; }

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

/// Where a beam run keeps its parts.
struct beam_layout {
  std::uint32_t width = 0;
  std::uint64_t successors = 0;  // width * n(n-1)
  unsigned key_bits = 0;         // bound the successors' keys (a cost above a 32-bit tie-break)
  unsigned number_bits = 0;      // and their numbers
  std::uint64_t keys = 0, chosen = 0, targets = 0, queen_row[2] = {}, cost[2] = {}, lines[2] = {};
  std::uint64_t total = 0;
};

beam_layout beam_layout_of(index_t n, const beam_settings& b) {
  beam_layout at;
  at.width = b.width;
  at.successors = std::uint64_t{b.width} * beam::successors_per_state(n);
  const std::uint64_t most_cost = std::uint64_t{n} * (n - 1) / 2;  // attacking pairs
  while (at.key_bits < 32 && most_cost >> at.key_bits != 0) ++at.key_bits;
  at.key_bits += 32;
  while (at.number_bits < 64 && (at.successors - 1) >> at.number_bits != 0 && at.successors > 1)
    ++at.number_bits;
  std::uint64_t end = 0;
  const auto take = [&](std::uint64_t bytes) {
    const std::uint64_t at_ = end;
    end = aligned(end + bytes);
    return at_;
  };
  at.keys = take(at.successors * sizeof(std::uint64_t));
  at.chosen = take(std::uint64_t{at.width} * sizeof(std::uint64_t));
  // Stochastic: the draws' targets; plain: the k best in number order, before they are ranked.
  at.targets = take(std::uint64_t{at.width} * sizeof(std::uint64_t));
  for (auto& rows : at.queen_row) rows = take(std::uint64_t{at.width} * n * sizeof(row_t));
  for (auto& cost : at.cost) cost = take(std::uint64_t{at.width} * sizeof(std::uint32_t));
  for (auto& lines : at.lines)
    lines = take(std::uint64_t{at.width} * lines_per_board(n) * sizeof(count_t));
  at.total = end;
  return at;
}

std::uint64_t run_bytes(const local_search_settings& s, index_t n) {
  return s.algorithm == local_algorithm::ga ? ga_layout_of(n, s.genetic).total
                                            : beam_layout_of(n, s.beam).total;
}

bool in_shared(const local_search_settings& s, index_t n) {
  return run_bytes(s, n) <= population_shared_budget;
}

/// What every thread reads between phases; thread 0 alone writes it.
struct run_state {
  std::uint64_t steps;
  std::uint64_t best;
  std::uint64_t equal_pairs;  // ga: the run's pairs of equal parents
  std::uint64_t start_ns;
  unsigned current;  // which of the two populations is the present one
  bool stopped;
};

/// What both searches share: the run's place, the summaries and the end.
struct run_base {
  population_launch launch;
  unsigned char* scratch;  // null: the workspace is in shared memory
  std::uint64_t bytes;     // of one run's workspace

  template <class Block>
  NQ_HD unsigned char* workspace(Block& block) const {
    return scratch ? scratch + block.index() * bytes : block.shared();
  }

  /// Thread 0, after the start and each generation: whether the run must stop. Every
  /// generation, as the CPU's observer checks.
  NQ_HD bool must_stop(const run_state& s) const {
    if (launch.stop && stop_raised(launch.stop)) return true;
    return launch.job.time_limit_ns != 0 && clock_ns() - s.start_ns >= launch.job.time_limit_ns;
  }

  NQ_HD void start(run_state& s) const {
    s.steps = s.equal_pairs = 0;
    s.current = 0;
    s.stopped = false;
    s.start_ns = launch.job.time_limit_ns ? clock_ns() : 0;
  }

  /// The least key (cost above, index below) of `count` costs: the first best individual.
  template <class Block>
  NQ_HD std::uint64_t least_key(Block& block, const std::uint32_t* cost, std::uint32_t count,
                                std::uint64_t at_least) const {
    return block.min64([&](unsigned t) {
      std::uint64_t least = ~std::uint64_t{0};
      for (std::uint32_t i = t; i < count; i += Block::threads) {
        const std::uint64_t key = (std::uint64_t{cost[i]} << 32) | i;
        if (key >= at_least && key < least) least = key;
      }
      return least;
    });
  }

  /// The summary of `count` costs: best cost into s, and the history when kept; then the stop
  /// checks.
  template <class Block, class Before>
  NQ_HD void summarise(Block& block, run_state& s, const std::uint32_t* cost, std::uint32_t count,
                       Before& before) const {
    const index_t n = launch.job.n;
    const std::uint64_t best = least_key(block, cost, count, 0) >> 32;
    const std::uint64_t sum = block.exclusive_sum(
        [&](unsigned t) {
          std::uint64_t mine = 0;
          for (std::uint32_t i = t; i < count; i += Block::threads) mine += fitness_of(n, cost[i]);
          return mine;
        },
        before);
    block.each([&](unsigned t) {
      if (t != 0) return;
      s.best = best;
      if (launch.history) launch.history[s.steps] = {best, sum};
      s.stopped = must_stop(s);
    });
  }

  /// Stores the outcome and the first best board of the present population.
  template <class Block>
  NQ_HD void finish(Block& block, const run_state& s, const row_t* boards,
                    const std::uint32_t* cost, std::uint32_t count) const {
    const chain_launch& job = launch.job;
    const std::uint64_t i = block.index();
    const std::uint64_t key = least_key(block, cost, count, 0);
    const std::uint64_t at = key & 0xFFFFFFFFu;
    block.each([&](unsigned t) {
      if (t == 0) {
        chain_outcome out;
        out.solved = s.best == 0;
        out.cost = s.best;
        out.steps = s.steps;
        out.stopped = s.stopped;
        job.outcomes[i] = out;
      }
      if (job.boards)
        for (index_t col = t; col < job.n; col += Block::threads)
          job.boards[i * job.n + col] = boards[at * job.n + col];
    });
  }

  NQ_HD bool more(const run_state& s) const {
    const std::uint64_t max_steps = launch.job.max_steps;
    return s.best != 0 && !s.stopped && (max_steps == 0 || s.steps < max_steps);
  }
};

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

/// A beam run's radix select: 8 bits a pass, its histogram in shared memory.
inline constexpr unsigned beam_digit_bits = 8;
inline constexpr unsigned beam_bins = 1u << beam_digit_bits;
static_assert(beam_bins % population_threads == 0, "whole runs of bins per thread");

/// What every thread of a beam run reads between phases: the run, and where its selection of
/// the k-th least (key, number) stands (one thread writes it).
struct beam_state : run_state {
  std::uint64_t key, number;  // the k-th's digits found so far; all of it once settled
  std::uint64_t rank;         // its rank among the successors still in the running (1: least)
  bool settled;
  unsigned counts[beam_bins];
};

/// beam: thread t scores a contiguous chunk of the successors (all k n(n-1) of them, state by
/// state); the k best are found by a radix select of the k-th, or k are drawn by fitness
/// through a block-wide running sum.
struct beam_runs : run_base {
  using shared_state = beam_state;
  beam_layout at;

  template <class Block>
  NQ_HD void operator()(Block& block, beam_state& s) const {
    const chain_launch& job = launch.job;
    const index_t n = job.n;
    const std::uint64_t run = job.first + block.index();
    unsigned char* base = workspace(block);
    auto* keys = reinterpret_cast<std::uint64_t*>(base + at.keys);
    auto* chosen = reinterpret_cast<std::uint64_t*>(base + at.chosen);
    auto* targets = reinterpret_cast<std::uint64_t*>(base + at.targets);
    std::uint32_t* cost[2] = {reinterpret_cast<std::uint32_t*>(base + at.cost[0]),
                              reinterpret_cast<std::uint32_t*>(base + at.cost[1])};
    const auto view = [&](unsigned which, std::uint64_t state) {
      row_t* rows = reinterpret_cast<row_t*>(base + at.queen_row[which]) + state * n;
      count_t* lines =
          reinterpret_cast<count_t*>(base + at.lines[which]) + state * lines_per_board(n);
      return climber_view<count_t>{rows, lines, lines + n, lines + 3 * n - 1, n};
    };
    const std::uint32_t width = at.width;
    const std::uint64_t total = at.successors, per_state = beam::successors_per_state(n);
    const std::uint64_t chunk = (total + Block::threads - 1) / Block::threads;
    const auto first_of = [&](unsigned t) { return t * chunk < total ? t * chunk : total; };
    const auto end_of = [&](unsigned t) {
      return first_of(t) + chunk < total ? first_of(t) + chunk : total;
    };
    per_thread<std::uint64_t, Block::copies> before, mine;

    block.each([&](unsigned t) {
      if (t == 0) start(s);
      for (std::uint32_t i = t; i < width; i += Block::threads) {
        philox_stream rng = population_stream(job.seed, run, 0, i);
        cost[0][i] = static_cast<std::uint32_t>(random_board(view(0, i), rng));
      }
    });
    summarise(block, s, cost[0], width, before);
    while (more(s)) {
      const std::uint64_t generation = s.steps + 1;
      const unsigned now = s.current;
      block.each([&](unsigned t) {
        std::uint64_t state = ~std::uint64_t{0};
        philox_stream ties(0, 0);
        for (std::uint64_t x = first_of(t); x < end_of(t); ++x) {
          if (x / per_state != state) {
            state = x / per_state;
            ties = population_stream(job.seed, run, generation, state);
          }
          const std::uint64_t j = x % per_state;
          keys[x] = beam::successor_key(beam::successor_cost(view(now, state), cost[now][state], j),
                                        ties.word(j));
        }
      });
      if (!job.settings.beam.stochastic)
        choose_best(block, s, keys, targets, chosen, first_of, end_of, before, mine);
      else
        draw(block, keys, chosen, targets, first_of, end_of, before, mine, run, generation);
      block.each([&](unsigned t) {
        for (std::uint32_t i = t; i < width; i += Block::threads)
          cost[now ^ 1][i] = static_cast<std::uint32_t>(beam::take_successor(
              view(now, chosen[i] / per_state), view(now ^ 1, i), chosen[i] % per_state));
        if (t == 0) {
          s.current ^= 1;
          ++s.steps;
        }
      });
      summarise(block, s, cost[s.current], width, before);
    }
    finish(block, s, reinterpret_cast<const row_t*>(base + at.queen_row[s.current]),
           cost[s.current], width);
  }

  /// The k least successors in order of (key, number): the k-th found by a radix select from
  /// the top digit (8 bits a pass: a histogram of the digits of the successors still in the
  /// running, keys then numbers, until the k-th's digit holds no other), then the k up to it
  /// taken in number order (a block-wide running count) and each placed by its rank among them.
  /// O(passes k n(n-1) + k^2) a generation, where k block-wide minima each took O(k n(n-1)).
  template <class Block, class First, class End, class PerThread>
  NQ_HD void choose_best(Block& block, beam_state& s, const std::uint64_t* keys,
                         std::uint64_t* taken, std::uint64_t* chosen, First first_of, End end_of,
                         PerThread& before, PerThread& mine) const {
    constexpr unsigned per_thread_bins = beam_bins / Block::threads;
    block.each([&](unsigned t) {
      if (t != 0) return;
      s.key = s.number = 0;
      s.rank = at.width;
      s.settled = false;
    });
    const unsigned key_passes = (at.key_bits + beam_digit_bits - 1) / beam_digit_bits;
    const unsigned number_passes = (at.number_bits + beam_digit_bits - 1) / beam_digit_bits;
    for (unsigned pass = 0; pass < key_passes + number_passes && !s.settled; ++pass) {
      const bool on_number = pass >= key_passes;
      const unsigned shift =
          ((on_number ? key_passes + number_passes : key_passes) - 1 - pass) * beam_digit_bits;
      const unsigned above = shift + beam_digit_bits;
      const std::uint64_t k_key = s.key, k_number = s.number, rank = s.rank;
      const auto high = [&](std::uint64_t x) { return above >= 64 ? 0 : x >> above; };
      block.each([&](unsigned t) {
        for (unsigned b = t; b < beam_bins; b += Block::threads) s.counts[b] = 0;
      });
      block.each([&](unsigned t) {
        for (std::uint64_t x = first_of(t); x < end_of(t); ++x) {
          const std::uint64_t key = keys[x];
          if (on_number ? key != k_key || high(x) != high(k_number) : high(key) != high(k_key))
            continue;
          atomic_add(&s.counts[((on_number ? x : key) >> shift) & (beam_bins - 1)], 1u);
        }
      });
      block.exclusive_sum(
          [&](unsigned t) {
            std::uint64_t sum = 0;
            for (unsigned b = t * per_thread_bins; b < (t + 1) * per_thread_bins; ++b)
              sum += s.counts[b];
            mine[t] = sum;
            return sum;
          },
          before);
      block.each([&](unsigned t) {
        std::uint64_t below = before[t];
        if (below >= rank || rank > below + mine[t]) return;
        for (unsigned b = t * per_thread_bins; b < (t + 1) * per_thread_bins; ++b) {
          const std::uint64_t here = s.counts[b];
          if (rank > below + here) {
            below += here;
            continue;
          }
          const std::uint64_t digits = std::uint64_t{beam_bins - 1} << shift;
          const std::uint64_t fill = shift == 0 ? 0 : (std::uint64_t{1} << shift) - 1;
          std::uint64_t& field = on_number ? s.number : s.key;
          field = ((on_number ? k_number : k_key) & ~digits) | (std::uint64_t{b} << shift);
          s.rank = rank - below;
          if (here == s.rank) {  // every successor of digit b is kept: the k-th is their greatest
            field |= fill;
            if (!on_number) s.number = ~std::uint64_t{0};
            s.settled = true;
          }
          return;
        }
      });
    }
    // Every successor up to the k-th: k of them, numbers being unique.
    const std::uint64_t k_key = s.key, k_number = s.number;
    const auto kept = [&](std::uint64_t x) {
      return keys[x] < k_key || (keys[x] == k_key && x <= k_number);
    };
    block.exclusive_sum(
        [&](unsigned t) {
          std::uint64_t count = 0;
          for (std::uint64_t x = first_of(t); x < end_of(t); ++x) count += kept(x);
          return count;
        },
        before);
    block.each([&](unsigned t) {
      std::uint64_t slot = before[t];
      for (std::uint64_t x = first_of(t); x < end_of(t); ++x)
        if (kept(x) && slot < at.width) taken[slot++] = x;
    });
    block.each([&](unsigned t) {
      for (std::uint32_t i = t; i < at.width; i += Block::threads) {
        const std::uint64_t x = taken[i], key = keys[x];
        std::uint32_t place = 0;
        for (std::uint32_t j = 0; j < at.width; ++j) {
          const std::uint64_t other = keys[taken[j]];
          place += other < key || (other == key && taken[j] < x);
        }
        chosen[place] = x;
      }
    });
  }

  /// k successors drawn with replacement by fitness: draw i's target from stream (run, g, i),
  /// found by the thread whose running sums hold it.
  template <class Block, class First, class End, class PerThread>
  NQ_HD void draw(Block& block, const std::uint64_t* keys, std::uint64_t* chosen,
                  std::uint64_t* targets, First first_of, End end_of, PerThread& before,
                  PerThread& mine, std::uint64_t run, std::uint64_t generation) const {
    const index_t n = launch.job.n;
    const std::uint64_t sum = block.exclusive_sum(
        [&](unsigned t) {
          std::uint64_t fitness = 0;
          for (std::uint64_t x = first_of(t); x < end_of(t); ++x)
            fitness += fitness_of(n, keys[x] >> 32);
          mine[t] = fitness;
          return fitness;
        },
        before);
    block.each([&](unsigned t) {
      for (std::uint32_t i = t; i < at.width; i += Block::threads) {
        if (sum == 0) {  // no fitness at all: the last, as on the CPU
          chosen[i] = at.successors - 1;
          continue;
        }
        philox_stream rng = population_stream(launch.job.seed, run, generation, i);
        targets[i] = beam::draw_target(rng, sum);
      }
    });
    if (sum == 0) return;
    block.each([&](unsigned t) {
      for (std::uint32_t i = 0; i < at.width; ++i) {
        const std::uint64_t target = targets[i];
        if (target < before[t] || target >= before[t] + mine[t]) continue;
        std::uint64_t running = before[t];
        for (std::uint64_t x = first_of(t); x < end_of(t); ++x) {
          running += fitness_of(n, keys[x] >> 32);
          if (running > target) {
            chosen[i] = x;
            break;
          }
        }
      }
    });
  }
};

}  // namespace

bool has_population_run(const local_search_settings& s, index_t n) {
  if (s.algorithm != local_algorithm::ga && s.algorithm != local_algorithm::beam) return false;
  if (n < 1 || n > gpu::max_global_chain_n) return false;
  if (s.algorithm == local_algorithm::beam && s.beam.width == 0) return false;
  return run_bytes(s, n) <= scratch_budget / 2;
}

std::uint64_t population_run_bytes(const local_search_settings& s, index_t n) {
  return run_bytes(s, n);
}

std::uint64_t max_population_runs_per_launch(const local_search_settings& s, index_t n) {
  if (in_shared(s, n)) return most_runs;
  const std::uint64_t fit = scratch_budget / run_bytes(s, n);
  return fit < 1 ? 1 : fit < most_runs ? fit : most_runs;
}

void launch_population_runs(const population_launch& request, const std::atomic<bool>* stop) {
  const chain_launch& job = request.job;
  NQ_EXPECTS(has_population_run(job.settings, job.n), "a population run the kernels run");
  NQ_EXPECTS(job.count >= 1 && job.count <= max_population_runs_per_launch(job.settings, job.n),
             "one launch holds 1..max_population_runs_per_launch runs");
  NQ_EXPECTS(!request.history || job.count == 1, "a history for one run");
  if (whole_grid_population(request)) {
    for (std::uint64_t slot = 0; slot < job.count; ++slot) {
      if (job.settings.algorithm == local_algorithm::ga)
        run_whole_grid(request, slot, stop);
      else
        run_whole_grid_beam(request, slot, stop);
    }
    return;
  }
  const bool shared = in_shared(job.settings, job.n);
  const std::uint64_t bytes = run_bytes(job.settings, job.n);
  device_buffer<unsigned char> scratch(shared ? 0 : job.count * bytes);
  mapped_buffer<unsigned> stop_flag(stop ? 1 : 0);
  population_launch launch = request;
  launch.stop = stop ? stop_flag.device() : nullptr;
  if (stop && stop->load(std::memory_order_relaxed)) raise_flag(stop_flag.host());
  const run_base base{launch, shared ? nullptr : scratch.data(), bytes};
  const auto blocks = static_cast<unsigned>(job.count);
  if (job.settings.algorithm == local_algorithm::ga)
    launch_blocks<population_threads>("ga_runs", blocks, shared ? bytes : 0,
                                      ga_runs{base, ga_layout_of(job.n, job.settings.genetic)});
  else
    launch_blocks<population_threads>("beam_runs", blocks, shared ? bytes : 0,
                                      beam_runs{base, beam_layout_of(job.n, job.settings.beam)});
  wait_raising(stop, stop_flag.host());  // before the scratch and the flag are freed
}

}  // namespace nq::cuda

namespace nq::gpu {

bool has_population_run(const local_search_settings& settings, index_t n) {
  return cuda::has_population_run(settings, n);
}

population_shape resolved_population_shape(const local_search_settings& settings, index_t n,
                                           std::uint64_t runs, population_shape requested) {
  cuda::population_launch launch;
  launch.shape = requested;
  launch.job.n = n;
  launch.job.settings = settings;
  if (!launch.job.settings.genetic.population)
    launch.job.settings.genetic.population = default_population(n);
  launch.job.count = runs;
  return cuda::whole_grid_population(launch) ? population_shape::whole_grid
                                             : population_shape::block_per_run;
}

std::vector<chain_outcome> run_population_runs(index_t n, const local_search_settings& settings,
                                               std::uint64_t seed, std::uint64_t first,
                                               std::uint64_t count, const chain_options& options,
                                               std::vector<row_t>* boards,
                                               std::vector<trace_row>* trace,
                                               const std::atomic<bool>* stop) {
  if (!cuda::has_population_run(settings, n))
    throw usage_error(std::string(algorithm_name(settings.algorithm)) +
                      " on n=" + std::to_string(n) + " has no block-per-run GPU search");
  NQ_EXPECTS(!trace || count == 1, "a trace of one run");
  std::vector<chain_outcome> outcomes(count);
  if (count == 0) return outcomes;
  cuda::population_launch launch;
  launch.shape = options.shape;
  cuda::chain_launch& job = launch.job;
  job.n = n;
  job.settings = settings;
  if (!job.settings.genetic.population) job.settings.genetic.population = default_population(n);
  job.seed = seed;
  job.max_steps = options.max_steps ? options.max_steps : default_max_steps(settings.algorithm);
  job.time_limit_ns = cuda::limit_ns(options.time_limit);
  cuda::device_buffer<chain_outcome> d_outcomes(count);
  cuda::device_buffer<row_t> d_boards(boards ? count * n : 0);
  cuda::device_buffer<cuda::generation_summary> history(trace ? job.max_steps + 1 : 0);
  launch.history = trace ? history.data() : nullptr;
  const std::uint64_t fit = cuda::max_population_runs_per_launch(job.settings, n);
  const std::uint64_t per_launch =
      options.runs_per_launch ? std::min(options.runs_per_launch, fit) : fit;
  for (std::uint64_t done = 0; done < count; done += per_launch) {
    job.first = first + done;
    job.count = std::min(per_launch, count - done);
    job.outcomes = d_outcomes.data() + done;
    job.boards = boards ? d_boards.data() + done * n : nullptr;
    cuda::launch_population_runs(launch, stop);
  }
  cuda::copy_to_host(outcomes.data(), d_outcomes.data(), count);
  if (boards) {
    boards->resize(count * n);
    cuda::copy_to_host(boards->data(), d_boards.data(), count * n);
  }
  if (trace) {
    const std::uint64_t rows = outcomes[0].steps + 1;
    std::vector<cuda::generation_summary> summaries(rows);
    cuda::copy_to_host(summaries.data(), history.data(), rows);
    const std::uint32_t size = settings.algorithm == local_algorithm::ga
                                   ? job.settings.genetic.population
                                   : settings.beam.width;
    trace->clear();
    for (std::uint64_t g = 0; g < rows; ++g) {
      trace_row row;
      row.step = g;
      row.cost = summaries[g].best_cost;
      row.best_fitness = static_cast<double>(fitness_of(n, row.cost));
      row.mean_fitness = static_cast<double>(summaries[g].fitness_sum) / size;
      trace->push_back(row);
    }
  }
  return outcomes;
}

}  // namespace nq::gpu
