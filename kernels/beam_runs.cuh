#pragma once
// Block-per-run beam (launched by population.cu): where a run keeps its successors' keys, its two
// beams and their line counters, and the body that scores all k n(n-1) successors of a
// generation and keeps k of them: the k least by a radix select with its histogram in shared
// memory, or (stochastic) k drawn by fitness, as the CPU's beam_search of the same run.
// Included by population.cu alone: the unnamed namespace keeps these names to that one file,
// as they were before it was split.

#include "kernels/population_runs.cuh"
#include "nqueens/detail/population.hpp"

namespace nq::cuda {
namespace {

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
}  // namespace nq::cuda
