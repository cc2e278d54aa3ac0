// Whole-grid beam (shape 2): one run at a time, its k states in global memory, each generation
// a few launches in stream order: every one of the k n(n-1) successors scored by a thread of
// the grid, then the k kept chosen by Thrust (plain: one stable sort of the keys, carrying the
// successors' numbers; stochastic: one scan of the fitness and a binary search per draw), then
// the k taken and recounted, a thread each. The keys and draws come from the keyed streams of
// nqueens/population.hpp, and sorts, scans and searches do not depend on thread timing, so the
// beam is exactly the CPU reference's. A host loop reads one summary per generation.

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <atomic>
#include <string>

#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/population.cuh"
#include "kernels/thrust_policy.cuh"
#include "nqueens/population.hpp"

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
  std::uint64_t* numbers;  // per successor (plain): its number, sorted along with its key
  std::uint64_t* targets;  // width (stochastic): the draws' targets
  std::uint64_t* chosen;   // width: the successors kept, in order (plain: the sorted numbers)
  beam_summary* summary;

  NQ_HD climber_view<count_t> view(unsigned which, std::uint64_t state) const {
    count_t* at = lines[which] + state * beam_lines(n);
    return {queen_row[which] + state * n, at, at + n, at + 3 * n - 1, n};
  }
};

template <class Each>
NQ_HD void beam_stride(const thread_id& id, std::uint64_t work, Each each) {
  for (std::uint64_t i = id.global(); i < work; i += id.grid_threads()) each(i);
}

/// Adds state s, whose cost is `cost`, to the summary of the beam being made.
NQ_HD inline void summarise_state(const beam_run& r, std::uint64_t s, index_t cost) {
  atomic_min(&r.summary->least_key, (std::uint64_t{cost} << 32) | s);
  atomic_add(&r.summary->fitness_sum, static_cast<std::uint64_t>(fitness_of(r.n, cost)));
}

/// Clears the summary before a beam is made.
struct beam_reset {
  beam_run r;
  NQ_HD void operator()(const thread_id& id) const {
    if (id.global() != 0) return;
    r.summary->least_key = ~std::uint64_t{0};
    r.summary->fitness_sum = 0;
  }
};

/// Generation 0: state s a random board from stream (run, 0, s).
struct beam_start {
  beam_run r;
  NQ_HD void operator()(const thread_id& id) const {
    beam_stride(id, r.width, [&](std::uint64_t s) {
      philox_stream rng = population_stream(r.seed, r.run, 0, s);
      const index_t cost = random_board(r.view(0, s), rng);
      r.cost[0][s] = static_cast<std::uint32_t>(cost);
      summarise_state(r, s, cost);
    });
  }
};

/// Successor x = s n(n-1) + j of the present beam, a thread each: its key, the tie-break being
/// word j of stream (run, g, s), and its number (plain); or its fitness (stochastic).
struct beam_score {
  beam_run r;
  unsigned current;
  std::uint64_t generation;
  bool stochastic;
  NQ_HD void operator()(const thread_id& id) const {
    beam_stride(id, r.successors, [&](std::uint64_t x) {
      const std::uint64_t s = x / r.per_state, j = x % r.per_state;
      const index_t cost = beam::successor_cost(r.view(current, s), r.cost[current][s], j);
      if (stochastic) {
        r.keys[x] = fitness_of(r.n, cost);
        return;
      }
      const philox_stream ties = population_stream(r.seed, r.run, generation, s);
      r.keys[x] = beam::successor_key(cost, ties.word(j));
      r.numbers[x] = x;
    });
  }
};

/// Draw i's target in [0, total) from stream (run, g, i); 0 when no successor has fitness.
struct beam_targets {
  beam_run r;
  std::uint64_t generation;
  NQ_HD void operator()(const thread_id& id) const {
    const std::uint64_t total = r.keys[r.successors - 1];
    beam_stride(id, r.width, [&](std::uint64_t i) {
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
    beam_stride(id, r.width, [&](std::uint64_t i) {
      // Past the end only when no successor has fitness: the last, as on the CPU.
      const std::uint64_t x = r.chosen[i] < r.successors ? r.chosen[i] : r.successors - 1;
      const index_t cost = beam::take_successor(r.view(current, x / r.per_state),
                                                r.view(current ^ 1, i), x % r.per_state);
      r.cost[current ^ 1][i] = static_cast<std::uint32_t>(cost);
      summarise_state(r, i, cost);
    });
  }
};

/// The history's row of a generation, and at the end the first best board.
struct beam_record {
  beam_run r;
  unsigned current;
  generation_summary* history;  // or null
  std::uint64_t step;
  row_t* board;  // or null
  NQ_HD void operator()(const thread_id& id) const {
    const std::uint64_t best = r.summary->least_key;
    if (history && id.global() == 0) history[step] = {best >> 32, r.summary->fitness_sum};
    if (!board) return;
    const row_t* from = r.queen_row[current] + (best & 0xFFFFFFFFu) * r.n;
    beam_stride(id, r.n, [&](std::uint64_t col) { board[col] = from[col]; });
  }
};

unsigned beam_blocks(std::uint64_t work) { return grid_size(work, beam_threads); }

/// Runs a Thrust step (thrust_step), or, without running it, returns false when `cut` says the
/// generation stops there: the stop is read where the host waits for the device anyway.
template <class Call, class Cut>
bool cut_or_step(const char* what, Call call, Cut cut) {
  if (cut()) return false;
  thrust_step(what, call);
  return true;
}

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
        numbers(stochastic ? 0 : successors),
        targets(stochastic ? width : 0),
        chosen(stochastic ? width : 0),
        summary(1) {}
  device_buffer<row_t> queen_row0, queen_row1;
  device_buffer<count_t> lines0, lines1;
  device_buffer<std::uint32_t> cost0, cost1;
  device_buffer<std::uint64_t> keys, numbers, targets, chosen;
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
                   memory.numbers.data(),
                   memory.targets.data(),
                   b.stochastic ? memory.chosen.data() : memory.numbers.data(),
                   memory.summary.data()};
  const std::uint64_t start_ns = job.time_limit_ns ? clock_ns() : 0;
  unsigned current = 0;
  std::uint64_t steps = 0;
  beam_summary seen{};
  bool stopped = false;
  const auto must_stop = [&] {
    return stopped = (stop && stop->load(std::memory_order_relaxed)) ||
                     (job.time_limit_ns != 0 && clock_ns() - start_ns >= job.time_limit_ns);
  };
  // The beam `current` has been made and summarised: its history row, then the stop checks,
  // every generation as the CPU's observer makes them.
  const auto summarise = [&] {
    if (launch.history)
      launch_threads("beam_record", 1, 1, beam_record{r, current, launch.history, steps, nullptr});
    copy_to_host(&seen, r.summary, 1);
    must_stop();
  };
  launch_threads("beam_reset", 1, 1, beam_reset{r});
  launch_threads("beam_start", beam_blocks(b.width), beam_threads, beam_start{r});
  summarise();
  const auto best = [&] { return seen.least_key >> 32; };
  while (best() != 0 && !stopped && (job.max_steps == 0 || steps < job.max_steps)) {
    const std::uint64_t generation = steps + 1;
    launch_threads("beam_score", beam_blocks(successors), beam_threads,
                   beam_score{r, current, generation, b.stochastic});
    // A stop is read wherever the host waits anyway (before each Thrust step, and once the
    // successors are ranked): one then drops the generation before its states are taken, as
    // the CPU does, so a wide beam's generation is cut short.
    bool ranked = false;
    if (b.stochastic) {
      ranked = cut_or_step(
          "summing the successors' fitness",
          [&] { thrust::inclusive_scan(on_device(), r.keys, r.keys + successors, r.keys); },
          must_stop);
      if (ranked) {
        launch_threads("beam_targets", beam_blocks(b.width), beam_threads,
                       beam_targets{r, generation});
        ranked = cut_or_step(
            "drawing successors",
            [&] {
              thrust::upper_bound(on_device(), r.keys, r.keys + successors, r.targets,
                                  r.targets + b.width, r.chosen);
            },
            must_stop);
      }
    } else {
      // A stable sort of keys whose numbers start in order: (key, number) order, the CPU's.
      ranked = cut_or_step(
          "sorting the successors",
          [&] {
            thrust::stable_sort_by_key(on_device(), r.keys, r.keys + successors, r.numbers);
          },
          must_stop);
    }
    if (!ranked || must_stop()) break;
    launch_threads("beam_reset", 1, 1, beam_reset{r});
    launch_threads("beam_take", beam_blocks(b.width), beam_threads, beam_take{r, current});
    current ^= 1;
    ++steps;
    summarise();
  }
  chain_outcome out;
  out.solved = best() == 0;
  out.cost = best();
  out.steps = steps;
  out.stopped = stopped;
  copy_to_device(job.outcomes + slot, &out, 1);
  if (job.boards)
    launch_threads("beam_record", beam_blocks(n), beam_threads,
                   beam_record{r, current, nullptr, steps, job.boards + slot * n});
  synchronize();  // before the run's memory is freed
}

}  // namespace nq::cuda
