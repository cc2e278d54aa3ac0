// Thread-per-run chains: each thread owns one board and runs the same NQ_HD chain as the CPU
// reference, from the same Philox stream. Up to 32 queens the board and its lines sit in the
// thread's local memory; above, in a slice of global scratch per thread. The threads are
// persistent: each takes run after run from a counter, so a lane whose run ends starts the
// next instead of idling until its warp's longest run is done. Run r draws from stream
// (seed, r) and writes outcome r, whichever thread takes it: the results do not depend on it.

#include "kernels/block_chains.cuh"
#include "kernels/chains.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/error.hpp"
#include "nqueens/local_chain.hpp"

namespace nq::cuda {
namespace {

constexpr int max_chain_n = static_cast<int>(gpu::max_thread_chain_n);
constexpr unsigned chain_block = 128;
constexpr std::uint32_t check_every = 1024;  // observer calls between checks, as on the CPU
constexpr std::uint64_t scratch_budget = std::uint64_t{2} << 30;  // bytes of boards in flight
using A = local_algorithm;

/// Stops a chain at its time limit, or once a lower-numbered run has solved (solve --chains),
/// checked every 1024 observer calls as the CPU reference does.
struct device_observer {
  const chain_launch* job;
  std::uint64_t run;
  std::uint64_t start_ns;
  std::uint32_t calls = 0;
  NQ_HD bool operator()(const chain_state& state) {
    if (job->trace) record_trace_row(*job, state);
    // A stop raised before the run, or a time limit already past, ends it at its start, as
    // the CPU's deadline does (it reads both at the first step).
    if (calls == 0 && ((job->stop && stop_raised(job->stop)) ||
                       (job->time_limit_ns != 0 && clock_ns() - start_ns >= job->time_limit_ns)))
      return false;
    if (++calls % check_every != 0) return true;
    if (job->first_solved && load_relaxed(job->first_solved) < run) return false;
    if (job->stop && stop_raised(job->stop)) return false;
    return job->time_limit_ns == 0 || clock_ns() - start_ns < job->time_limit_ns;
  }
};

/// Runs chain i of `job` on `b` and stores its outcome and board; a run numbered above one
/// already solved is not started (stopped, no steps), and a solving run joins the race.
template <A Algorithm>
NQ_HD void run_and_store(climber_view<std::int16_t> b, std::uint32_t* order,
                         const chain_launch& job, std::uint64_t i) {
  const std::uint64_t run = job.first + i;
  chain_outcome out;
  if (job.first_solved && load_relaxed(job.first_solved) < run) {
    out.stopped = true;
    job.outcomes[i] = out;
    return;
  }
  philox_stream rng(job.seed, run);
  const device_observer observe{&job, run, job.time_limit_ns ? clock_ns() : 0};
  out = run_chain_of<Algorithm>(b, order, rng, job.settings, true, job.max_steps, observe);
  if (job.first_solved && out.solved)
    atomic_min(job.first_solved, static_cast<unsigned long long>(run));
  job.outcomes[i] = out;
  if (job.boards)
    for (index_t col = 0; col < job.n; ++col) job.boards[i * job.n + col] = b.queen_row[col];
}

/// The next run of the launch for a thread that has finished one, or job.count when none is
/// left. Runs are handed out in order, so the race's lower-numbered runs start first.
NQ_HD inline std::uint64_t next_run(const chain_launch& job, unsigned long long* counter) {
  const auto i = static_cast<std::uint64_t>(atomic_add(counter, 1ull));
  return i < job.count ? i : job.count;
}

/// Up to 32 queens: the board in the thread's own arrays.
template <A Algorithm>
struct local_chains {
  chain_launch job;
  unsigned long long* counter;  // runs handed out so far
  NQ_HD void operator()(thread_id) const {
    row_t queen_row[max_chain_n];
    std::int16_t rows[max_chain_n], diag[2 * max_chain_n - 1], anti[2 * max_chain_n - 1];
    // Only first-choice reads the move order; the others leave it unallocated.
    constexpr int order_size = Algorithm == A::first_choice ? max_chain_n * (max_chain_n - 1) : 1;
    std::uint32_t order[order_size];
    const climber_view<std::int16_t> b{queen_row, rows, diag, anti, job.n};
    for (std::uint64_t i = next_run(job, counter); i < job.count; i = next_run(job, counter))
      run_and_store<Algorithm>(b, order, job, i);
  }
};

/// Above 32 queens: the board in the thread's slice of global scratch (scratch_per_chain bytes),
/// reused for each run it takes.
template <A Algorithm>
struct scratch_chains {
  chain_launch job;
  unsigned long long* counter;  // runs handed out so far
  unsigned char* scratch;
  NQ_HD void operator()(thread_id id) const {
    const index_t n = job.n;
    unsigned char* mine = scratch + id.global() * scratch_per_chain(n);
    auto* queen_row = reinterpret_cast<row_t*>(mine);
    auto* lines = reinterpret_cast<std::int16_t*>(mine + n * sizeof(row_t));
    const climber_view<std::int16_t> b{queen_row, lines, lines + n, lines + 3 * n - 1, n};
    for (std::uint64_t i = next_run(job, counter); i < job.count; i = next_run(job, counter))
      run_and_store<Algorithm>(b, nullptr, job, i);
  }
};

/// Blocks of persistent threads for `count` runs of `body`: no more than the device holds at
/// once (more would start only once the counter is spent), none without a run, and no more
/// than `most`.
template <class Body>
unsigned persistent_blocks(const Body& body, std::uint64_t count, std::uint64_t most) {
  const std::uint64_t blocks =
      std::min<std::uint64_t>({grid_size(count, chain_block, max_grid_blocks),
                               resident_grid_blocks(chain_block, body), most});
  return static_cast<unsigned>(std::max<std::uint64_t>(1, blocks));
}

template <A Algorithm>
void launch(const chain_launch& job, const std::atomic<bool>* stop, unsigned* flag) {
  device_buffer<unsigned long long> counter(1);
  fill_bytes(counter.data(), 0, 1);
  if (job.n <= gpu::max_thread_chain_n) {
    const local_chains<Algorithm> body{job, counter.data()};
    launch_threads("local_chains", persistent_blocks(body, job.count, max_grid_blocks), chain_block,
                   body);
  } else if constexpr (Algorithm != A::first_choice) {  // its order is n(n-1) entries: refused
    // Each thread's board in scratch, within the budget (at 10,922 queens, 16,384 boards).
    scratch_chains<Algorithm> body{job, counter.data(), nullptr};
    const std::uint64_t per_block = chain_block * scratch_per_chain(job.n);
    const unsigned blocks = persistent_blocks(body, job.count, scratch_budget / per_block);
    device_buffer<unsigned char> scratch(blocks * per_block);
    body.scratch = scratch.data();
    launch_threads("scratch_chains", blocks, chain_block, body);
  }
  wait_raising(stop, flag);  // before the counter and the scratch are freed
}

void launch_chains_of(const chain_launch& job, const std::atomic<bool>* stop, unsigned* flag) {
  if (has_block_chain(job.settings.algorithm, job.n)) {
    launch_block_chains(job);
    return;
  }
  switch (job.settings.algorithm) {
#define NQ_CHAIN_CASE(name)           \
  case A::name:                       \
    launch<A::name>(job, stop, flag); \
    break;
    NQ_CHAIN_CASE(hc)
    NQ_CHAIN_CASE(hc_sideways)
    NQ_CHAIN_CASE(hc_restart)
    NQ_CHAIN_CASE(first_choice)
    NQ_CHAIN_CASE(min_conflicts_column)
    NQ_CHAIN_CASE(sa)
    NQ_CHAIN_CASE(random)
    NQ_CHAIN_CASE(random_opt)
    NQ_CHAIN_CASE(hc_random_p)
    NQ_CHAIN_CASE(hc_anneal_p)
    NQ_CHAIN_CASE(hc_memory)
#undef NQ_CHAIN_CASE
    default:
      throw usage_error(std::string(algorithm_name(job.settings.algorithm)) +
                        " has no thread-per-run GPU chain");
  }
}

}  // namespace

bool has_thread_chain(const local_search_settings& settings, index_t n) {
  const A a = settings.algorithm;
  if (!is_single_chain(a) || n < 1) return false;
  return n <= gpu::max_thread_chain_n || (a != A::first_choice && n <= gpu::max_global_chain_n);
}

std::uint64_t max_chains_per_launch(index_t n) {
  // Scratch is per thread, not per run, so it no longer bounds a launch; but a stop drops the
  // launch it reaches whole (the backend keeps no per-run record for it), and progress comes
  // a launch at a time, so above 32 queens, where a run is long, a launch holds no more runs
  // than a board each would fit in the scratch budget (as when the scratch was per run).
  constexpr std::uint64_t most = std::uint64_t{1} << 24;
  if (n <= gpu::max_thread_chain_n) return most;
  return std::max<std::uint64_t>(1, std::min(most, scratch_budget / scratch_per_chain(n)));
}

void launch_thread_chains(const chain_launch& request, const std::atomic<bool>* stop) {
  NQ_EXPECTS(has_thread_chain(request.settings, request.n), "a chain the kernels run");
  NQ_EXPECTS(request.count >= 1 && request.count <= max_chains_per_launch(request.n),
             "one launch holds 1..max_chains_per_launch runs");
  NQ_EXPECTS(!request.trace || request.count == 1, "a trace of one run");
  mapped_buffer<unsigned> stop_flag(stop ? 1 : 0);
  chain_launch job = request;
  job.stop = stop ? stop_flag.device() : nullptr;
  if (stop && stop->load(std::memory_order_relaxed)) raise_flag(stop_flag.host());
  launch_chains_of(job, stop, stop_flag.host());
  if (stop) wait_raising(stop, stop_flag.host());  // before the flag is freed
}

}  // namespace nq::cuda

namespace nq::gpu {

std::vector<chain_outcome> run_thread_chains(index_t n, const local_search_settings& settings,
                                             std::uint64_t seed, std::uint64_t first,
                                             std::uint64_t count, const chain_options& options,
                                             std::vector<row_t>* boards,
                                             std::vector<trace_row>* trace,
                                             const std::atomic<bool>* stop) {
  NQ_EXPECTS(!trace || count == 1, "a trace of one run");
  if (!cuda::has_thread_chain(settings, n))
    throw usage_error(std::string(algorithm_name(settings.algorithm)) +
                      " on n=" + std::to_string(n) + " has no thread-per-run GPU chain");
  std::vector<chain_outcome> outcomes(count);
  if (count == 0) return outcomes;
  cuda::device_buffer<chain_outcome> d_outcomes(count);
  cuda::device_buffer<row_t> d_boards(boards ? count * n : 0);
  const std::uint64_t fit = cuda::max_chains_per_launch(n);
  const std::uint64_t per_launch =
      options.runs_per_launch ? std::min(options.runs_per_launch, fit) : fit;
  cuda::chain_launch job;
  job.n = n;
  job.settings = settings;
  job.seed = seed;
  job.max_steps = options.max_steps ? options.max_steps : default_max_steps(settings.algorithm);
  job.time_limit_ns = cuda::limit_ns(options.time_limit);
  // A trace's length is known once the run has ended: a first guess (the step limit, within
  // 2^20 rows), and a second run, the same chain, when the guess was short.
  constexpr std::uint64_t first_guess = 1 << 20, most_rows = std::uint64_t{1} << 25;  // 1 GiB
  std::uint64_t capacity =
      trace ? (job.max_steps && job.max_steps < first_guess ? job.max_steps + 2 : first_guess) : 0;
  cuda::device_buffer<chain_state> d_trace;
  cuda::device_buffer<unsigned long long> d_rows(trace ? 1 : 0);
  bool again = false;               // the chain runs a second time, for its trace alone
  std::atomic<bool> at_once{true};  // the rerun of a chain stopped at its start
  for (unsigned long long rows = 0;;) {
    if (trace) {
      d_trace = cuda::device_buffer<chain_state>(capacity);
      cuda::fill_bytes(d_rows.data(), 0, 1);
      job.trace = d_trace.data();
      job.trace_capacity = capacity;
      job.trace_rows = d_rows.data();
    }
    for (std::uint64_t done = 0; done < count; done += per_launch) {
      job.first = first + done;
      job.count = std::min(per_launch, count - done);
      job.outcomes = d_outcomes.data() + done;
      job.boards = boards ? d_boards.data() + done * n : nullptr;
      cuda::launch_thread_chains(job, stop);
    }
    if (!trace) break;
    cuda::copy_to_host(&rows, d_rows.data(), 1);
    if (rows > capacity && !again) {
      // The trace outgrew its first guess. The outcome and board are this run's; the chain
      // runs again for its trace alone, as far as this run went, with neither the stop nor the
      // clock (raised or run out by now, they would cut it short at its start).
      cuda::copy_to_host(outcomes.data(), d_outcomes.data(), count);
      if (boards) {
        boards->resize(count * n);
        cuda::copy_to_host(boards->data(), d_boards.data(), count * n);
      }
      again = true;
      const bool at_start = outcomes[0].stopped && outcomes[0].steps == 0;
      stop = at_start ? &at_once : nullptr;  // a step limit of 0 would be none
      job.time_limit_ns = 0;
      if (outcomes[0].stopped && !at_start) job.max_steps = outcomes[0].steps;
    }
    if (rows > most_rows)
      throw resource_error("a GPU trace of " + std::to_string(rows) +
                           " rows is more than the 2^25 a run keeps; give --max-steps");
    if (rows <= capacity) {
      std::vector<chain_state> states(rows);
      cuda::copy_to_host(states.data(), d_trace.data(), rows);
      trace->clear();
      for (const chain_state& state : states)
        trace->push_back({.step = state.steps,
                          .restarts = state.restarts,
                          .cost = state.cost,
                          .temperature = state.temperature});
      break;
    }
    capacity = rows;
  }
  if (again) return outcomes;  // the first run's, kept above
  cuda::copy_to_host(outcomes.data(), d_outcomes.data(), count);
  if (boards) {
    boards->resize(count * n);
    cuda::copy_to_host(boards->data(), d_boards.data(), count * n);
  }
  return outcomes;
}

}  // namespace nq::gpu
