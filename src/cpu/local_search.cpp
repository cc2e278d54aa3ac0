#include "nqueens/local_search.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "core/deadline.hpp"
#include "cpu/population_search.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/detail/stopwatch.hpp"
#include "nqueens/error.hpp"
#include "nqueens/detail/local_chain.hpp"
#include "nqueens/min_conflicts.hpp"
#include "nqueens/verify.hpp"

namespace nq {
namespace {

using count_t = std::uint16_t;  // n <= max_climber_n; read as int16_t up to small_climber_n

constexpr std::array<std::pair<local_algorithm, std::string_view>, 14> names{{
    {local_algorithm::hc, "hc"},
    {local_algorithm::hc_sideways, "hc-sideways"},
    {local_algorithm::hc_restart, "hc-restart"},
    {local_algorithm::first_choice, "first-choice"},
    {local_algorithm::min_conflicts, "min-conflicts"},
    {local_algorithm::min_conflicts_column, "min-conflicts"},
    {local_algorithm::sa, "sa"},
    {local_algorithm::random, "random"},
    {local_algorithm::random_opt, "random-opt"},
    {local_algorithm::hc_random_p, "hc-random-p"},
    {local_algorithm::hc_anneal_p, "hc-anneal-p"},
    {local_algorithm::hc_memory, "hc-memory"},
    {local_algorithm::beam, "beam"},
    {local_algorithm::ga, "ga"},
}};

constexpr std::uint64_t check_every = 1024;  // observer calls between race checks

/// Forwards steps to the trace and stops the chain at the time limit or a stop request (read
/// about every 2 ms, however long a step takes) or when a lower-numbered run has solved.
struct host_observer {
  const trace_fn* trace;
  detail::deadline time_limit;
  const std::atomic<std::uint64_t>* first_solved;  // stop once a lower-numbered run solved
  std::uint64_t stream;
  const row_t* board;  // the chain's board, for the trace
  std::uint64_t calls = 0;

  bool operator()(const chain_state& s) {
    if (trace) {
      trace_row row;
      row.step = s.steps;
      row.restarts = s.restarts;
      row.cost = s.cost;
      row.temperature = s.temperature;
      row.queen_row = board;
      (*trace)(row);
    }
    if (time_limit.passed()) return false;
    if (++calls % check_every != 0) return true;
    return !first_solved || first_solved->load(std::memory_order_relaxed) >= stream;
  }
  /// Asked within a long step (a scan of n(n-1) moves): the stop and the time limit only, the
  /// clock read each time. The polls come milliseconds apart, where the steps before a long
  /// scan came microseconds apart: counted as steps, thousands of polls would pass unread.
  bool still_wanted() { return !time_limit.passed_now(); }
};

}  // namespace

std::string_view algorithm_name(local_algorithm algorithm) {
  for (const auto& [a, name] : names)
    if (a == algorithm) return name;
  return "?";
}

std::optional<local_algorithm> find_local_algorithm(std::string_view name) {
  for (const auto& [a, known] : names)
    if (known == name) return a;
  return std::nullopt;
}

std::uint64_t default_max_steps(local_algorithm algorithm) {
  switch (algorithm) {
    case local_algorithm::sa:
    case local_algorithm::random_opt:
    case local_algorithm::hc_random_p:
    case local_algorithm::hc_anneal_p:
    case local_algorithm::hc_memory:
      return 50'000;
    case local_algorithm::random:
      return 1'000'000;
    case local_algorithm::beam:
    case local_algorithm::ga:
      return 1'000;
    default:
      return 0;
  }
}

index_t max_local_n(local_algorithm algorithm) {
  return algorithm == local_algorithm::min_conflicts ? max_n : max_climber_n;
}

std::uint32_t default_population(index_t n) {
  return static_cast<std::uint32_t>(std::min<index_t>(2 * n * n, 4096));
}

struct local_workspace::impl {
  impl(index_t n_, const local_search_settings& s)
      : n(n_), settings(s), queen_row(n), rows(n), diag(2 * n - 1), anti(2 * n - 1) {
    NQ_EXPECTS(n >= 1 && n <= max_local_n(s.algorithm), "board size out of range");
    // Not zeroed (16 GiB at 65,535 queens): first_choice writes it before reading it.
    if (s.algorithm == local_algorithm::first_choice)
      order = std::make_unique_for_overwrite<std::uint32_t[]>(std::size_t{n} * (n - 1));
  }

  /// The lines as Count: int16_t (the faster scan, up to small_climber_n) or uint16_t, which
  /// may alias the same storage.
  template <class Count>
  climber_view<Count> view() {
    return {queen_row.data(), reinterpret_cast<Count*>(rows.data()),
            reinterpret_cast<Count*>(diag.data()), reinterpret_cast<Count*>(anti.data()), n};
  }

  template <class Observer>
  chain_outcome chain(philox_stream& rng, bool random_start, std::uint64_t max_steps,
                      Observer observe) {
    NQ_EXPECTS(is_single_chain(settings.algorithm), "a single-chain algorithm");
    if (n <= small_climber_n)
      return run_chain(view<std::int16_t>(), order.get(), rng, settings, random_start, max_steps,
                       observe);
    return run_chain(view<std::uint16_t>(), order.get(), rng, settings, random_start, max_steps,
                     observe);
  }

  chain_outcome population(const local_run& run, std::uint64_t max_steps,
                           const detail::stopwatch& clock) {
    detail::deadline limit(run.limits.time_limit, clock, run.limits.stop);
    const detail::population_observer observe = [&](const trace_row& row) {
      if (run.trace) run.trace(row);
      return !limit.passed();
    };
    if (settings.algorithm == local_algorithm::beam)
      return detail::beam_search(n, settings.beam, run.seed, run.stream, run.start, max_steps,
                                 observe, queen_row, [&] { return limit.passed(); });
    return detail::genetic_search(n, settings.genetic, run.seed, run.stream, run.start, max_steps,
                                  observe, queen_row, [&] { return limit.passed(); });
  }

  chain_outcome min_conflicts(const local_run& run) {
    min_conflicts_settings mc;
    mc.seed = run.seed;
    mc.stream = run.stream;
    mc.limits = run.limits;
    solve_result result = solve_min_conflicts(n, mc);
    if (!result.queen_row.empty()) queen_row = std::move(result.queen_row);
    chain_outcome out;
    out.solved = result.solved;
    // A run stopped while placing leaves its pairs uncounted; batches compare every run's cost.
    out.cost = result.unplaced ? verify_board(queen_row).conflicts : result.conflicts;
    out.steps = result.steps;
    out.restarts = result.restarts;
    return out;
  }

  chain_outcome run(const local_run& run) {
    const detail::stopwatch clock;
    const local_algorithm a = settings.algorithm;
    if (a == local_algorithm::min_conflicts) return min_conflicts(run);
    const std::uint64_t max_steps =
        run.limits.max_steps ? run.limits.max_steps : default_max_steps(a);
    if (a == local_algorithm::beam || a == local_algorithm::ga)
      return population(run, max_steps, clock);
    philox_stream rng(run.seed, run.stream);
    const bool random_start = run.start == nullptr;
    if (!random_start) std::copy(run.start, run.start + n, queen_row.begin());
    if (!run.trace && run.limits.time_limit <= 0 && !run.limits.stop && !run.first_solved)
      return chain(rng, random_start, max_steps, no_observer{});
    return chain(rng, random_start, max_steps,
                 host_observer{run.trace ? &run.trace : nullptr,
                               detail::deadline(run.limits.time_limit, clock, run.limits.stop),
                               run.first_solved, run.stream, queen_row.data()});
  }

  index_t n;
  local_search_settings settings;
  std::vector<row_t> queen_row;
  std::vector<count_t> rows, diag, anti;
  std::unique_ptr<std::uint32_t[]> order;  // first-choice: the order of the n(n-1) move numbers
};

local_workspace::local_workspace(index_t n, const local_search_settings& settings)
    : impl_(std::make_unique<impl>(n, settings)) {}
local_workspace::~local_workspace() = default;
local_workspace::local_workspace(local_workspace&&) noexcept = default;
local_workspace& local_workspace::operator=(local_workspace&&) noexcept = default;

chain_outcome local_workspace::run(const local_run& run) { return impl_->run(run); }
const row_t* local_workspace::board() const { return impl_->queen_row.data(); }

solve_result solve_local(index_t n, const local_search_settings& settings, const local_run& run) {
  solve_result result;
  if (!solution_exists(n)) return result;
  const detail::stopwatch clock;
  local_workspace workspace(n, settings);
  const chain_outcome out = workspace.run(run);
  result.solved = out.solved;
  result.conflicts = out.cost;
  result.steps = out.steps;
  result.restarts = out.restarts;
  result.queen_row.assign(workspace.board(), workspace.board() + n);
  result.seconds = clock.seconds();
  return result;
}

}  // namespace nq
