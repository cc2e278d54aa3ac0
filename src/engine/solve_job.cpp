// The solve request: its memory check, its algorithm on the CPU or (chains, parallel, lattice)
// where its device says, and its record.

#include "engine/solve_job.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <new>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/whole_number.hpp"
#include "engine/device_choice.hpp"
#include "engine/local_parameters.hpp"
#include "engine/stop_bridge.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/chains.hpp"
#include "nqueens/detail/climb.hpp"
#include "nqueens/construction.hpp"
#include "nqueens/detail/memory.hpp"
#include "nqueens/error.hpp"
#include "nqueens/lattice.hpp"
#include "nqueens/min_conflicts.hpp"
#include "nqueens/placement_solver.hpp"
#include "nqueens/systematic.hpp"
#include "nqueens/verify.hpp"

namespace nq {
namespace engine {
namespace {

constexpr index_t default_lattice_n = index_t{1} << 20;  // no algorithm: lattice from here on

bool is_parallel(const std::string& algorithm) { return algorithm == "parallel"; }
bool is_lattice(const std::string& algorithm) { return algorithm == "lattice"; }

}  // namespace

std::optional<local_algorithm> solve_local_algorithm(const solve_request& request,
                                                     const std::string& algorithm) {
  const auto named = find_local_algorithm(algorithm);
  if (!named) return std::nullopt;
  // min-conflicts names both variants; the settings say which.
  if (*named == local_algorithm::min_conflicts &&
      request.local.algorithm == local_algorithm::min_conflicts_column)
    return local_algorithm::min_conflicts_column;
  return named;
}

namespace {

solve_result run_systematic(const solve_request& request, const std::string& algorithm) {
  systematic_settings settings;
  settings.randomize = request.randomize;
  settings.seed = request.seed;
  settings.limits = request.limits;
  settings.max_memory = request.max_memory;
  settings.level_fn = request.bfs_level;
  return solve_systematic(algorithm, request.n, settings);
}

/// chains: all of them on the chosen backend, which also gives the kept chain's board and
/// trace (see solve_chains): exactly what one chain with its number gives on the CPU.
solve_result run_chains(const solve_request& request, solve_report& report) {
  const auto backend =
      choose_backend(request.device.kind, request.local, request.n, 0, report.note);
  report.device = backend->device();
  report.device_name = backend->device_name();
  chains_settings settings;
  settings.chains = request.chains;
  settings.seed = request.seed;
  settings.limits = request.limits;
  settings.trace = request.trace;
  chains_result kept = solve_chains(request.n, request.local, settings, *backend);
  report.chain = kept.chain;
  return std::move(kept.result);
}

solve_result run_threaded(const solve_request& request, const std::string& algorithm,
                          solve_report& report, const lattice_plan* lattice) {
  placement_settings settings;
  settings.seed = request.seed;
  settings.threads =
      request.threads ? request.threads : std::max(1u, std::thread::hardware_concurrency());
  settings.limits = request.limits;
  report.threads = settings.threads;
  if (!is_lattice(algorithm))
    return solve_placement_on(request.device.kind, request.n, settings, report.note,
                              request.progress, report.device);
  NQ_EXPECTS(lattice != nullptr, "the solve's lattice plan");
  return solve_lattice_on(request.device.kind, *lattice, settings, request.keep_board, report.note,
                          request.progress, report.device, &report.kernel_seconds);
}

/// Runs the request; `lattice` is the lattice's plan when it runs the lattice.
solve_result run_one(const solve_request& request, const std::string& algorithm,
                     solve_report& report, const lattice_plan* lattice) {
  if (request.chains) return run_chains(request, report);
  if (report.threaded) return run_threaded(request, algorithm, report, lattice);
  if (algorithm == "constructive") return solve_constructive(request.n, request.limits.stop);
  if (is_systematic(algorithm)) return run_systematic(request, algorithm);
  if (report.chain_search) {
    local_run run;
    run.seed = request.seed;
    run.stream = request.chain;
    run.limits = request.limits;
    run.trace = request.trace;
    if (!request.start.empty()) run.start = request.start.data();
    return solve_local(request.n, request.local, run);
  }
  min_conflicts_settings settings;
  settings.seed = request.seed;
  settings.limits = request.limits;
  return solve_min_conflicts(request.n, settings, request.progress);
}

}  // namespace

std::string solve_algorithm(const solve_request& request) {
  if (!request.algorithm.empty()) return request.algorithm;
  // Huge boards take every core by default; smaller ones keep the one-core min-conflicts,
  // which needs no threads to start (a million queens in 0.05 s).
  return request.n >= default_lattice_n ? "lattice" : "min-conflicts";
}

std::uint64_t solve_memory_bytes(const solve_request& request, const lattice_plan* lattice) {
  const std::string algorithm = solve_algorithm(request);
  const auto local = solve_local_algorithm(request, algorithm);
  if (local == local_algorithm::min_conflicts) {
    // The margin is the process itself (code, libraries, stacks), seen in the peak at 10^8. A
    // run a limit stops allocates nothing more: it does not count the pairs of its board.
    return min_conflicts_memory_bytes(request.n) + (std::uint64_t{4} << 20);
  }
  if (local) {
    local_search_settings settings = request.local;
    settings.algorithm = *local;
    return local_memory_bytes(settings, request.n);
  }
  // Every array the run allocates (the GPU path holds the board on the host too), and the
  // process itself; a stopped run counts nothing more.
  if (is_parallel(algorithm)) return placement_memory_bytes(request.n) + (std::uint64_t{8} << 20);
  if (is_lattice(algorithm)) {
    // On the GPU, the host holds the board copied back and the line counts of its CPU check.
    std::optional<lattice_plan> own;
    if (!lattice) lattice = &own.emplace(plan_lattice(request.n, request.seed));
    const std::uint64_t cpu = lattice_memory_bytes(*lattice, request.threads);
    const std::uint64_t gpu = request.n * sizeof(row_t) + verify_memory_bytes(request.n);
    return (request.device.kind == device_kind::cpu ? cpu : std::max(cpu, gpu)) +
           (std::uint64_t{8} << 20);
  }
  return request.n * sizeof(row_t) + (std::uint64_t{1} << 20);
}

std::uint64_t check_solve_memory(const solve_request& request, const lattice_plan* lattice) {
  const std::uint64_t need = solve_memory_bytes(request, lattice);
  const auto available = request.memory_limit ? request.memory_limit : available_memory_bytes();
  if (available && need > *available)
    throw resource_error(
        "n=" + std::to_string(request.n) + " needs about " + format_bytes(need) +
        " of memory, but only " + format_bytes(*available) +
        (request.memory_limit ? " is allowed by --memory-limit" : " is available"));
  return need;
}

std::uint64_t check_solve_memory(const solve_request& request) {
  return check_solve_memory(request, nullptr);
}

/// Every field of to_json's record but the rows, in order.
nlohmann::ordered_json solve_record_head(const solve_report& report) {
  const solve_result& result = report.result;
  nlohmann::ordered_json record;
  record["n"] = report.n;
  record["algorithm"] = report.algorithm;
  record["device"] = report.device;
  if (report.chains) {
    record["device_name"] = report.device_name;
    record["chains"] = report.chains;
  }
  if (report.threaded) record["threads"] = report.threads;
  if (report.kernel_seconds >= 0) record["kernel_seconds"] = report.kernel_seconds;
  if (report.chain_search) record["chain"] = report.chain;
  record["seed"] = report.seed;
  record["solved"] = result.solved;
  if (report.stopped_placing) {
    record["conflicts"] = nullptr;  // a stopped placement leaves queens off the board's lines
    record["unplaced"] = result.unplaced;
  } else if (!solution_exists(report.n) || !report.pairs_counted) {
    record["conflicts"] = nullptr;  // n = 2, 3 (no board was made), or pairs left uncounted
  } else {
    record["conflicts"] = result.conflicts;
  }
  record["steps"] = result.steps;
  record["restarts"] = result.restarts;
  record["seconds"] = result.seconds;
  if (report.local)
    record["parameters"] = parameters_record(local_parameters(report.settings, report.n));
  return record;
}

std::string solve_json_head(const solve_report& report) {
  std::string head = solve_record_head(report).dump();
  head.pop_back();  // the closing brace: the rows follow
  return head;
}

namespace {

/// Whether a queen of `board` can move within its column without raising the attacking pairs.
/// hc-sideways stops unsolved where no move lowers them; if one keeps them, only its sideways
/// limit stopped it (whether the limit counts moves in a row or in all, plateau jumps or not).
bool has_sideways_move(const std::vector<row_t>& board) {
  const index_t n = board.size();
  std::vector<row_t> rows(board);
  std::vector<std::int32_t> row_count(n), diag(2 * n - 1), anti(2 * n - 1);
  const climber_view<std::int32_t> b{rows.data(), row_count.data(), diag.data(), anti.data(), n};
  recount(b);
  for (index_t col = 0; col < n; ++col)
    if (detail::least_load(b, col) - queen_pairs(b, col) <= 0) return true;
  return false;
}

/// Why a hill climber that stopped by itself stopped.
std::string climber_stop(const solve_report& report) {
  const hill_climbing_settings& hill = report.settings.hill;
  const std::vector<row_t>& board = report.result.queen_row;
  switch (report.settings.algorithm) {
    case local_algorithm::hc:
      return " (no move lowers the cost: a local minimum or a plateau)";
    case local_algorithm::hc_sideways:
      return !board.empty() && has_sideways_move(board)
                 ? " (the sideways limit: " + detail::count_of(hill.max_sideways, "sideways move") +
                       (hill.total_sideways ? " in all)" : " in a row)")
                 : " (no move keeps or lowers the cost)";
    case local_algorithm::first_choice:
      return " (no neighbour lowers the cost)";
    default:
      return "";
  }
}

}  // namespace

std::string failure_reason(const search_limits& limits, const solve_report& report,
                           bool why_climbers_stop) {
  using detail::count_of;
  const solve_result& result = report.result;
  const bool lattice = is_lattice(report.algorithm);
  std::uint64_t max_steps = limits.max_steps;
  if (!max_steps && report.local) max_steps = default_max_steps(report.settings.algorithm);
  const std::string steps = count_of(result.steps, "step");
  // lattice adds up its sub-boards' steps, each bounded by the step limit on its own: the time
  // limit is asked first, and the step limit is named per sub-board.
  if (lattice && limits.time_limit > 0 && result.seconds >= limits.time_limit) max_steps = 0;
  if (lattice && max_steps)
    return "no solution found: a sub-board reached the step limit (" + count_of(max_steps, "step") +
           " each; " + steps + " in all)";
  if (max_steps && result.steps >= max_steps)
    return "no solution found within the step limit (" + steps +
           (limits.max_steps ? "" : ", the algorithm's default; see --max-steps") + ")";
  if (limits.time_limit > 0 && result.seconds >= limits.time_limit) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f s", result.seconds);
    return "no solution found within the time limit (" + steps + ", " + seconds + ")";
  }
  std::string text =
      "no solution found: " + report.algorithm + " stopped after " + steps +
      (report.pairs_counted ? " with " + count_of(result.conflicts, "attacking pair") + " left"
       : result.queen_row.empty() ? ", before placing every queen (no board)"
                                  : ", its attacking pairs not counted");
  if (why_climbers_stop && report.local) text += climber_stop(report);
  // The first clash of the board it was left with, as verify names it.
  if (!result.queen_row.empty() && result.queen_row.size() <= max_clash_check_n) {
    const auto check = verify_board(result.queen_row);
    if (check.first_clash) {
      const clash& c = *check.first_clash;
      text += ", first between columns " + std::to_string(c.col_a + 1) + " and " +
              std::to_string(c.col_b + 1) + " on " +
              (c.kind == line_kind::anti_diagonal ? "an " : "a ") + line_kind_name(c.kind);
    }
  }
  return text;
}

}  // namespace engine

solve_report run(const solve_request& request) {
  engine::single_device(request.device);
  const std::string algorithm = engine::solve_algorithm(request);
  if (!find_algorithm(algorithm))
    throw usage_error("unknown algorithm '" + algorithm + "' (see nqueens algorithms)");
  solve_report report;
  report.n = request.n;
  report.algorithm = algorithm;
  report.seed = request.seed;
  const auto local = engine::solve_local_algorithm(request, algorithm);
  report.local = local.has_value();
  report.chain_search = local && *local != local_algorithm::min_conflicts;
  report.settings = request.local;
  if (local) report.settings.algorithm = *local;
  report.chains = request.chains;
  report.chain = request.chain;
  report.threaded = engine::is_parallel(algorithm) || engine::is_lattice(algorithm);
  if ((request.chains || request.chain) && !report.chain_search)
    throw usage_error("chains apply to the local-search algorithms (not " + algorithm +
                      (local ? " --variant permutation" : std::string()) + ")");
  if (!request.start.empty()) {
    if (!report.chain_search)
      throw usage_error("a start board applies to one chain of a local search (not " +
                        algorithm + ")");
    if (request.chains)
      throw usage_error("a start board applies to one chain of a local search, not to chains "
                        "(--chains, or --device, which races them)");
    if (request.start.size() != request.n)
      throw usage_error("the start board has " + std::to_string(request.start.size()) +
                        " rows, not n = " + std::to_string(request.n));
    for (std::size_t col = 0; col < request.start.size(); ++col)
      if (request.start[col] >= request.n)
        throw usage_error("the start board's column " + std::to_string(col) + " has row " +
                          std::to_string(request.start[col]) + ", outside 0.." +
                          std::to_string(request.n - 1) + " (rows are 0-based)");
  }
  if (!solution_exists(request.n)) {  // answered, not searched: no board exists
    report.pairs_counted = false;
    return report;
  }
  // The lattice's split, planned once for the memory check, the device's choice and the run.
  std::optional<lattice_plan> lattice;
  if (engine::is_lattice(algorithm)) lattice = plan_lattice(request.n, request.seed);
  const lattice_plan* plan = lattice ? &*lattice : nullptr;
  const std::uint64_t need = engine::check_solve_memory(request, plan);
  solve_request job = request;
  job.local = report.settings;
  const engine::stop_bridge stop(request.stop);
  if (stop.given()) job.limits.stop = stop.given();
  try {
    report.result = engine::run_one(job, algorithm, report, plan);
  } catch (const std::bad_alloc&) {
    throw resource_error("out of memory: n=" + std::to_string(request.n) + " needs about " +
                         format_bytes(need) +
                         ", which the system refused (a ulimit, or memory taken meanwhile)");
  }
  const solve_result& result = report.result;
  report.stopped_placing =
      !result.solved && (engine::is_parallel(algorithm) || result.unplaced > 0);
  // A systematic search stopped unsolved holds a partial placement, no board: nothing to count.
  report.pairs_counted = result.solved || (!report.stopped_placing && result.pairs_counted &&
                                           !result.queen_row.empty());
  return report;
}

std::string to_json(const solve_report& report) {
  nlohmann::ordered_json record = engine::solve_record_head(report);
  if (report.result.queen_row.empty())
    record["rows"] = nullptr;
  else
    record["rows"] = report.result.queen_row;
  return record.dump();
}

}  // namespace nq
