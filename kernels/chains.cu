// Thread-per-run chains: each thread owns one board and runs the same NQ_HD chain as the CPU
// reference, from the same Philox stream. Up to 32 queens the board and its lines sit in the
// thread's local memory; above, in a slice of global scratch per thread. The threads are
// persistent: each takes runs from a counter, a chunk at a time and in order, so a lane whose
// run ends starts the next instead of idling until its warp's longest run is done, and a stop
// that ends the claims leaves exactly the first runs run. Run r draws from stream (seed, r),
// whichever thread takes it: the results do not depend on it. A batch's runs are tallied on
// the device (each block's short runs in shared bins, merged once at its end), so nothing per
// run need cross back; outcomes are stored only where the caller asks for them.

#include <algorithm>

#include "kernels/block_chains.cuh"
#include "kernels/chain_runs.cuh"
#include "kernels/chains.cuh"
#include "kernels/device_ops.cuh"
#include "kernels/exec.cuh"
#include "kernels/gpu.hpp"
#include "kernels/runtime.cuh"
#include "nqueens/error.hpp"
#include "nqueens/detail/local_chain.hpp"

namespace nq::cuda {
namespace {

using A = local_algorithm;

/// Tallies launch_outcome_tally's outcomes, a thread each (grid-stride).
struct outcome_tally {
  const chain_outcome* outcomes;
  std::uint64_t count;
  device_tally tally;
  NQ_HD void operator()(thread_id id) const {
    std::uint64_t restarts = 0, most = 0;
    for (std::uint64_t i = id.global(); i < count; i += id.grid_threads()) {
      const chain_outcome& out = outcomes[i];
      restarts += out.restarts;
      if (out.steps >= device_tally::head_steps && out.steps < tally.bin_steps && out.steps > most)
        most = out.steps;
      tally_globally(tally, out.steps, out.solved);
    }
    if (restarts != 0)
      atomic_add(&tally.words[device_tally::restarts], static_cast<unsigned long long>(restarts));
    if (most != 0)
      atomic_max(&tally.words[device_tally::most_steps], static_cast<unsigned long long>(most));
  }
};

template <A Algorithm>
void launch_runs(const chain_launch& job, const chain_claims& claims, const device_tally& tally,
                 unsigned char* scratch) {
  if constexpr (Algorithm == A::hc || Algorithm == A::hc_sideways ||
                Algorithm == A::hc_restart || Algorithm == A::sa || Algorithm == A::random)
    if (register_chain_eligible(job)) {
      launch_register_runs(job, claims, tally);
      return;
    }
  if (job.n <= gpu::max_thread_chain_n) {
    launch_blocks<chain_block>("chain_runs", runs_blocks<Algorithm, true>(job, claims.chunk), 0,
                               chain_runs<Algorithm, true>{{}, job, claims, tally, nullptr});
  } else if constexpr (Algorithm != A::first_choice) {  // its order is n(n-1) entries: refused
    launch_blocks<chain_block>("scratch_chain_runs", runs_blocks<Algorithm, false>(job, 1), 0,
                               chain_runs<Algorithm, false>{{}, job, claims, tally, scratch});
  }
}

template <A Algorithm>
std::uint64_t scratch_bytes(const chain_launch& job) {
  if constexpr (Algorithm == A::first_choice) {
    return 0;
  } else {
    return std::uint64_t{runs_blocks<Algorithm, false>(job, 1)} * chain_block *
           scratch_per_chain(job.n);
  }
}

/// Calls call(std::integral_constant<A, a>{}) for the job's algorithm a (a thread chain's).
template <class Call>
decltype(auto) with_algorithm(const chain_launch& job, Call call) {
  using result = decltype(call(std::integral_constant<A, single_chain_algorithms[0]>{}));
  return with_single_chain(job.settings.algorithm, call, [&]() -> result {
    throw usage_error(std::string(algorithm_name(job.settings.algorithm)) +
                      " has no thread-per-run GPU chain");
  });
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

std::uint64_t chain_scratch_bytes(const chain_launch& job) {
  if (job.n <= gpu::max_thread_chain_n || has_block_chain(job.settings.algorithm, job.n)) return 0;
  return with_algorithm(job, [&](auto a) { return scratch_bytes<a()>(job); });
}

void launch_chain_runs(const chain_launch& job, const chain_claims& claims,
                       const device_tally& tally, unsigned char* scratch) {
  NQ_EXPECTS(has_thread_chain(job.settings, job.n) &&
                 !has_block_chain(job.settings.algorithm, job.n),
             "a thread-per-run chain");
  NQ_EXPECTS(claims.chunk >= 1 && chain_claims::check_runs % claims.chunk == 0,
             "a chunk that divides check_runs");
  NQ_EXPECTS(!tally.words || tally.bin_steps >= device_tally::head_steps,
             "bins for the head's steps at least");
  with_algorithm(job, [&](auto a) { launch_runs<a()>(job, claims, tally, scratch); });
}

void launch_outcome_tally(const chain_outcome* outcomes, std::uint64_t count,
                          const device_tally& tally) {
  constexpr unsigned block = 256;
  launch_threads("outcome_tally", grid_size(count, block, 1024), block,
                 outcome_tally{outcomes, count, tally});
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
  // Kept until the launch has ended (freeing them would wait for it without raising the stop).
  device_buffer<unsigned long long> counter;
  device_buffer<unsigned char> scratch;
  if (has_block_chain(job.settings.algorithm, job.n)) {
    launch_block_chains(job);
  } else {
    // Every run is taken and stored: the stop ends the runs themselves (the observer's).
    counter = device_buffer<unsigned long long>(1);
    fill_bytes(counter.data(), 0, 1);
    scratch = device_buffer<unsigned char>(chain_scratch_bytes(job));
    with_algorithm(job, [&](auto a) {
      launch_runs<a()>(job, {.counter = counter.data()}, {}, scratch.data());
    });
    if (!stop) synchronize();  // before the counter and the scratch are freed
  }
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
