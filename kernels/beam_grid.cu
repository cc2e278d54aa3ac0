// Whole-grid beam (shape 2): one run at a time, its k states in global memory, each generation
// a few launches in stream order: every one of the k n(n-1) successors scored by a thread of
// the grid, then the k kept chosen (plain: a radix select of the k-th least (key, number), the
// k up to it taken and sorted, grid_select.cuh; stochastic: Thrust's scan of the fitness and a
// binary search per draw), then the k taken and recounted, a thread each. The keys and draws
// come from the keyed streams of nqueens/detail/population.hpp, and selections, sorts, scans and
// searches do not depend on thread timing, so the beam is exactly the CPU reference's. One
// thread ends each generation on the device (grid_control.cuh); the host queues generations in
// batches and reads nothing between them; Thrust's temporaries are cached for the run.

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
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

constexpr unsigned beam_threads = 256;
using count_t = std::uint16_t;  // a line holds at most n <= max_global_chain_n queens

NQ_HD constexpr index_t beam_lines(index_t n) { return 5 * n - 2; }

/// What the controller reads after each generation.
struct beam_summary {
  std::uint64_t least_key;    // (cost << 32) | index of the first best state
  std::uint64_t fitness_sum;  // over the beam
};

/// The run's device memory, as every launch sees it.
struct beam_run {
  index_t n;
  std::uint32_t width;
  std::uint64_t per_state;   // n(n-1) successors of each state
  std::uint64_t successors;  // width * per_state: at most about 2^27 (has_population_run's cap)
  std::uint64_t seed, run;
  row_t* queen_row[2];     // width * n each: the present beam and the next
  count_t* lines[2];       // width * (5n - 2) each
  std::uint32_t* cost[2];  // width each
  std::uint64_t* keys;     // per successor: its key (plain), its fitness's running sum (stochastic)
  std::uint64_t* kept_keys;  // width (plain): the keys of the successors kept, sorted
  std::uint64_t* targets;    // width (stochastic): the draws' targets
  std::uint64_t* chosen;     // width: the successors kept, in order
  beam_summary* summary;
  control_view c;

  NQ_HD bool done() const { return c.done(); }
  NQ_HD const row_t* members(unsigned which) const { return queen_row[which]; }

  NQ_HD climber_view<count_t> view(unsigned which, std::uint64_t state) const {
    count_t* at = lines[which] + state * beam_lines(n);
    return {queen_row[which] + state * n, at, at + n, at + 3 * n - 1, n};
  }
};

/// Adds state s, whose cost is `cost`, to the summary of the beam being made.
NQ_HD inline void summarise_state(const beam_run& r, std::uint64_t s, index_t cost) {
  atomic_min(&r.summary->least_key, (std::uint64_t{cost} << 32) | s);
  atomic_add(&r.summary->fitness_sum, static_cast<std::uint64_t>(fitness_of(r.n, cost)));
}

/// One thread, before the start: the run's clock, and the summary cleared for the first beam.
struct beam_begin {
  beam_run r;
  NQ_HD void operator()(const thread_id& id) const {
    if (id.global() != 0) return;
    r.c.start();
    r.summary->least_key = ~std::uint64_t{0};
    r.summary->fitness_sum = 0;
  }
};

/// One thread, within a generation: a stop or the time limit drops it (grid_control.cuh);
/// before the states are taken (`reset`), the summary is cleared for the beam they make.
struct beam_cut {
  beam_run r;
  bool reset;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done() || id.global() != 0) return;
    r.c.cut();
    if (!reset || r.done()) return;
    r.summary->least_key = ~std::uint64_t{0};
    r.summary->fitness_sum = 0;
  }
};

/// The successors as grid_select.cuh's elements: numbered in order, keyed by beam_score.
struct beam_elements {
  beam_run r;
  NQ_HD std::uint64_t count() const { return r.successors; }
  NQ_HD std::uint64_t key(std::uint64_t x) const { return r.keys[x]; }
  NQ_HD std::uint64_t number(std::uint64_t x) const { return x; }
  NQ_HD bool done() const { return r.done(); }
};

/// Generation 0: state s a random board from stream (run, 0, s).
struct beam_start {
  beam_run r;
  NQ_HD void operator()(const thread_id& id) const {
    grid_stride(id, r.width, [&](std::uint64_t s) {
      philox_stream rng = population_stream(r.seed, r.run, 0, s);
      const index_t cost = random_board(r.view(0, s), rng);
      r.cost[0][s] = static_cast<std::uint32_t>(cost);
      summarise_state(r, s, cost);
    });
  }
};

/// Successor x = s n(n-1) + j of the present beam, a thread each: its key, the tie-break being
/// word j of stream (run, g, s) (plain); or its fitness (stochastic).
struct beam_score {
  beam_run r;
  unsigned current;
  std::uint64_t generation;
  bool stochastic;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done()) return;
    grid_stride(id, r.successors, [&](std::uint64_t x) {
      const std::uint64_t s = x / r.per_state, j = x % r.per_state;
      const index_t cost = beam::successor_cost(r.view(current, s), r.cost[current][s], j);
      if (stochastic) {
        r.keys[x] = fitness_of(r.n, cost);
        return;
      }
      const philox_stream ties = population_stream(r.seed, r.run, generation, s);
      r.keys[x] = beam::successor_key(cost, ties.word(j));
    });
  }
};

/// Draw i's target in [0, total) from stream (run, g, i); 0 when no successor has fitness.
struct beam_targets {
  beam_run r;
  std::uint64_t generation;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done()) return;
    const std::uint64_t total = r.keys[r.successors - 1];
    grid_stride(id, r.width, [&](std::uint64_t i) {
      philox_stream rng = population_stream(r.seed, r.run, generation, i);
      r.targets[i] = total == 0 ? 0 : beam::draw_target(rng, total);
    });
  }
};

/// State i of the next beam: the chosen successor, copied and recounted.
struct beam_take {
  beam_run r;
  unsigned current;
  NQ_HD void operator()(const thread_id& id) const {
    if (r.done()) return;
    grid_stride(id, r.width, [&](std::uint64_t i) {
      // Past the end only when no successor has fitness: the last, as on the CPU.
      const std::uint64_t x = r.chosen[i] < r.successors ? r.chosen[i] : r.successors - 1;
      const index_t cost = beam::take_successor(r.view(current, x / r.per_state),
                                                r.view(current ^ 1, i), x % r.per_state);
      r.cost[current ^ 1][i] = static_cast<std::uint32_t>(cost);
      summarise_state(r, i, cost);
    });
  }
};

unsigned beam_blocks(std::uint64_t work) { return grid_size(work, beam_threads); }

/// The memory of one whole-grid beam run, owned for its length.
struct beam_buffers {
  beam_buffers(index_t n, std::uint32_t width, std::uint64_t successors, bool stochastic)
      : queen_row0(std::uint64_t{width} * n),
        queen_row1(std::uint64_t{width} * n),
        lines0(std::uint64_t{width} * beam_lines(n)),
        lines1(std::uint64_t{width} * beam_lines(n)),
        cost0(width),
        cost1(width),
        keys(successors),
        kept_keys(stochastic ? 0 : width),
        targets(stochastic ? width : 0),
        chosen(width),
        select(stochastic ? 0 : 1),
        control(1),
        summary(1) {}
  device_buffer<row_t> queen_row0, queen_row1;
  device_buffer<count_t> lines0, lines1;
  device_buffer<std::uint32_t> cost0, cost1;
  device_buffer<std::uint64_t> keys, kept_keys, targets, chosen;
  device_buffer<select_state> select;
  device_buffer<run_control> control;
  device_buffer<beam_summary> summary;
};

}  // namespace

void run_whole_grid_beam(const population_launch& launch, std::uint64_t slot,
                         const std::atomic<bool>* stop) {
  const chain_launch& job = launch.job;
  const beam_settings& b = job.settings.beam;
  NQ_EXPECTS(job.settings.algorithm == local_algorithm::beam, "a whole-grid beam run");
  NQ_EXPECTS(b.width >= 1 && slot < job.count, "a beam of at least one state and a slot");
  const index_t n = job.n;
  const std::uint64_t per_state = beam::successors_per_state(n);
  const std::uint64_t successors = std::uint64_t{b.width} * per_state;
  beam_buffers memory(n, b.width, successors, b.stochastic);
  generation_driver driver(stop);
  thrust_cache cache;
  const beam_run r{n,
                   b.width,
                   per_state,
                   successors,
                   job.seed,
                   job.first + slot,
                   {memory.queen_row0.data(), memory.queen_row1.data()},
                   {memory.lines0.data(), memory.lines1.data()},
                   {memory.cost0.data(), memory.cost1.data()},
                   memory.keys.data(),
                   memory.kept_keys.data(),
                   memory.targets.data(),
                   memory.chosen.data(),
                   memory.summary.data(),
                   {memory.control.data(), driver.stop_flag(), driver.done_flag(), job.max_steps,
                    job.time_limit_ns}};
  // A key is a cost (at most n(n-1)/2 attacking pairs) above a 32-bit tie-break.
  const unsigned key_bits = 32 + bits_below(std::uint64_t{n} * (n - 1) / 2 + 1);
  const unsigned number_bits = bits_below(successors);
  fill_bytes(memory.control.data(), 0, 1);
  if (!b.stochastic)
    launch_threads("select_clear", 1, select_threads, select_clear{memory.select.data()});
  launch_threads("beam_begin", 1, 1, beam_begin{r});
  launch_threads("beam_start", beam_blocks(b.width), beam_threads, beam_start{r});
  launch_threads("beam_check", 1, 1, generation_check<beam_run>{r, false, launch.history});
  // A stop or the time limit is read on the device before the successors are ranked and once
  // they are: one then drops the generation before its states are taken, as the CPU does.
  driver.run(
      batch_generations(successors), job.max_steps,
      [&](std::uint64_t generation, unsigned current) {
        launch_threads("beam_score", beam_blocks(successors), beam_threads,
                       beam_score{r, current, generation, b.stochastic});
        launch_threads("beam_cut", 1, 1, beam_cut{r, false});
        if (b.stochastic) {
          thrust_step("summing the successors' fitness", [&] {
            thrust::inclusive_scan(in_stream(cache), r.keys, r.keys + successors, r.keys);
          });
          launch_threads("beam_targets", beam_blocks(b.width), beam_threads,
                         beam_targets{r, generation});
          thrust_step("drawing successors", [&] {
            thrust::upper_bound(in_stream(cache), r.keys, r.keys + successors, r.targets,
                                r.targets + b.width, r.chosen);
          });
        } else {
          select_least(beam_elements{r}, memory.select.data(), b.width, key_bits, number_bits,
                       r.kept_keys, r.chosen);
          // (key, number) order, the CPU's: by number, then stably by key.
          thrust_step("sorting the successors kept", [&] {
            thrust::sort_by_key(in_stream(cache), r.chosen, r.chosen + b.width, r.kept_keys);
            thrust::stable_sort_by_key(in_stream(cache), r.kept_keys, r.kept_keys + b.width,
                                       r.chosen);
          });
        }
        launch_threads("beam_cut", 1, 1, beam_cut{r, true});
        launch_threads("beam_take", beam_blocks(b.width), beam_threads, beam_take{r, current});
        launch_threads("beam_check", 1, 1, generation_check<beam_run>{r, true, launch.history});
      });
  launch_threads("beam_finish", beam_blocks(n), beam_threads,
                 generation_finish<beam_run>{r, job.outcomes + slot,
                                             job.boards ? job.boards + slot * n : nullptr});
  synchronize();  // before the run's memory is freed
}

}  // namespace nq::cuda
