// Settings by name into requests: the local search's settings, the step limit, a batch and a
// sweep, with the command line's checks and messages (its options' names).

#include "engine/sweep.hpp"
#include "nqueens/settings.hpp"

#include <algorithm>
#include <thread>

#include "core/board_io.hpp"
#include "core/whole_number.hpp"
#include "engine/local_parameters.hpp"
#include "engine/solve_job.hpp"
#include "nqueens/algorithms.hpp"
#include "nqueens/detail/memory.hpp"
#include "nqueens/error.hpp"
#include "nqueens/systematic.hpp"

namespace nq::engine {
namespace {

using A = local_algorithm;
using detail::parse_positive;
using detail::parse_seconds;

/// Which of `first` or `second` the word `name` gives (false when not given, or `first`).
bool choice(const named_settings& given, const char* name, const char* first, const char* second) {
  if (!given.has(name)) return false;
  const std::string& value = given.at(name);
  if (value != first && value != second)
    throw usage_error("unknown --" + std::string(name) + " '" + value + "' (expected " + first +
                      " or " + second + ")");
  return value == second;
}

}  // namespace

std::optional<local_algorithm> select_local_algorithm(const std::string& name,
                                                      const named_settings& given) {
  auto algorithm = find_local_algorithm(name);
  if (algorithm == A::min_conflicts && given.has("variant")) {
    const std::string& variant = given.at("variant");
    if (variant == "column") return A::min_conflicts_column;
    if (variant != "permutation")
      throw usage_error("unknown --variant '" + variant + "' (expected permutation or column)");
  }
  return algorithm;
}

local_search_settings local_settings_from(local_algorithm algorithm, index_t n,
                                          const named_settings& given) {
  local_search_settings settings;
  settings.algorithm = algorithm;
  if (given.has("preset")) {
    check_reader("preset", algorithm_bit(A::ga), algorithm);
    const std::string& preset = given.at("preset");
    if (preset != "report")
      throw usage_error("unknown --preset '" + preset + "' (expected report)");
    auto& g = settings.genetic;
    g.population = static_cast<std::uint32_t>(std::min<std::uint64_t>(2 * n * n, 10000000));
    g.leaders = true;
    g.crossover = 0.9;
    g.mutation = 0.15;
    g.mutation_step = 0.05;
    g.elite = 0;
  }
  for (const auto& p : local_parameter_table()) {
    if (!given.has(p.name)) continue;
    check_reader(p.name, p.readers, algorithm);
    p.set(settings, parse_local_value(p, given.at(p.name), n));
  }
  for (const auto& w : local_word_options())
    if (given.has(w.name)) check_reader(w.name, w.readers, algorithm);
  if (given.has("accept-equal") && given.has("reject-equal"))
    throw usage_error("--accept-equal and --reject-equal contradict each other: give one");
  settings.annealing.accept_equal = !given.has("reject-equal");
  settings.annealing.cool_per_move = choice(given, "cooling-per", "neighbour", "move");
  if (given.has("ties")) {
    const std::string& ties = given.at("ties");
    if (ties != "random" && ties != "first" && ties != "last")
      throw usage_error("unknown --ties '" + ties + "' (expected random, first or last)");
    settings.hill.ties = ties == "first"  ? tie_rule::first
                         : ties == "last" ? tie_rule::last
                                          : tie_rule::random;
  }
  settings.hill.plateau_jump = given.has("plateau-jump");
  settings.hill.total_sideways = choice(given, "sideways-limit", "consecutive", "total");
  settings.first_choice.fixed_order = choice(given, "order", "random", "fixed");
  settings.random_opt.sweep = choice(given, "step", "queen", "sweep");
  if (given.has("selection"))
    settings.genetic.leaders = choice(given, "selection", "tournament", "leaders");
  settings.beam.stochastic = given.has("stochastic");
  if (given.has("encoding")) {
    const std::string& encoding = given.at("encoding");
    if (encoding != "column" && encoding != "permutation")
      throw usage_error("unknown --encoding '" + encoding + "' (expected column or permutation)");
    settings.genetic.permutation = encoding == "permutation";
  }
  if (algorithm == A::ga &&
      (given.has("tournament") || given.has("population") || given.has("elite"))) {
    const auto population =
        static_cast<std::uint32_t>(find_local_parameter("population")->get(settings, n));
    if (settings.genetic.tournament > population)
      throw usage_error("--tournament " + std::to_string(settings.genetic.tournament) +
                        " is larger than the population (" + std::to_string(population) + ")");
    if (settings.genetic.elite > population)
      throw usage_error("--elite " + std::to_string(settings.genetic.elite) +
                        " is larger than the population (" + std::to_string(population) + ")");
  }
  return settings;
}

void read_generations(const named_settings& given, search_limits& limits) {
  if (!given.has("generations")) {
    // The report ran its GA for up to 10,000 generations.
    if (given.has("preset") && !given.has("max-steps")) limits.max_steps = 10000;
    return;
  }
  if (given.has("max-steps"))
    throw usage_error("--generations and --max-steps both set the step limit: give one");
  limits.max_steps = parse_positive("--generations", given.at("generations"));
}

void reject_local_settings(const named_settings& given, const std::string& algorithm) {
  const auto refuse = [&](const char* name) {
    if (given.has(name))
      throw usage_error(std::string("--") + name + " does not apply to " + algorithm +
                        " (it is an option of the local-search algorithms; see --help)");
  };
  for (const auto& p : local_parameter_table()) refuse(p.name);
  for (const auto& w : local_word_options()) refuse(w.name);
}

solve_request solve_request_from(const named_settings& given, bool trace) {
  if (!given.has("queens")) throw usage_error("missing -n: how many queens? (see --help)");
  solve_request request;
  request.device.kind = device_kind::cpu;  // the command's default: --device auto asks for a GPU
  request.n = detail::parse_board_size(given.at("queens"));
  // Huge boards take every core by default; smaller ones keep the one-core min-conflicts,
  // which needs no threads to start (a million queens in 0.05 s).
  request.algorithm = given.has("algo") ? given.at("algo") : solve_algorithm(request);
  const std::string& algorithm = request.algorithm;
  if (!find_algorithm(algorithm))
    throw usage_error("unknown algorithm '" + algorithm + "' (see nqueens algorithms)");
  // An algorithm's own limit on n comes before the memory check, which would only say that
  // 4294967295 queens do not fit.
  if (is_systematic(algorithm)) check_systematic_n(request.n);
  request.seed = detail::parse_seed(given.value_or("seed", "1"));
  if (given.has("max-steps"))
    request.limits.max_steps = parse_positive("--max-steps", given.at("max-steps"));
  if (given.has("time-limit"))
    request.limits.time_limit = parse_seconds("--time-limit", given.at("time-limit"));
  // The construction is one pass with no steps to count or clock to read: a limit given to it
  // would be ignored, as any setting an algorithm does not read would.
  if (algorithm == "constructive")
    for (const char* limit : {"max-steps", "time-limit"})
      if (given.has(limit))
        throw usage_error(std::string("--") + limit +
                          " does not apply to constructive (it builds the board in one pass)");
  if (given.has("memory-limit")) request.memory_limit = parse_byte_size(given.at("memory-limit"));
  request.randomize = given.has("randomize");
  if (request.randomize && (algorithm == "bfs" || !is_systematic(algorithm)))
    throw usage_error("--randomize applies to backtrack, backtrack-opt and dfs only");
  if (given.has("max-memory")) {
    if (algorithm != "bfs") throw usage_error("--max-memory applies to bfs only");
    request.max_memory = parse_byte_size(given.at("max-memory"));
  }
  const auto local = select_local_algorithm(algorithm, given);
  if (local) {
    request.local = local_settings_from(*local, request.n, given);
    check_local_floors(request.local, request.n);
    check_local_size(*local, request.n);
    read_generations(given, request.limits);
  } else {
    reject_local_settings(given, algorithm);
  }
  const bool threaded = algorithm == "parallel" || algorithm == "lattice";
  if (given.has("threads")) {
    // The default algorithm takes them at any n: lattice runs on them, min-conflicts (the
    // default below 2^20 queens) on one thread whatever they say.
    if (!threaded && given.has("algo"))
      throw usage_error("--threads applies to --algo parallel and lattice only");
    const std::uint64_t threads = parse_positive("--threads", given.at("threads"));
    if (threads > 1024)
      throw usage_error("--threads must be at most 1024, got " + std::to_string(threads));
    if (threaded) request.threads = static_cast<unsigned>(threads);
  }
  const bool chain = local && *local != local_algorithm::min_conflicts;
  const std::string not_this =
      " (not " + algorithm + (local ? " --variant permutation" : std::string()) + ")";
  const auto no_trace = [&] {
    return usage_error("--trace is available for the local-search algorithms" + not_this);
  };
  if (threaded && given.has("device")) {
    request.device.kind = parse_device_kind(given.at("device"));
    // parallel and lattice take no chain settings and write no trace.
    for (const char* name : {"chains", "chain"})
      if (given.has(name))
        throw usage_error(std::string("--") + name +
                          " applies to the local-search algorithms (not " + algorithm + ")");
    if (trace) throw no_trace();
    return request;
  }
  for (const char* name : {"chains", "chain", "device"})
    if (given.has(name) && !chain)
      throw usage_error(std::string("--") + name + " applies to the local-search algorithms" +
                        not_this);
  if (given.has("chains") && given.has("chain"))
    throw usage_error("--chains runs many chains and --chain replays one: give one of them");
  if (given.has("chains")) {
    request.chains = parse_positive("--chains", given.at("chains"));
    if (request.chains > (std::uint64_t{1} << 32))
      throw usage_error("--chains must be at most 4294967296");
  }
  if (given.has("chain")) request.chain = detail::parse_whole("--chain", given.at("chain"));
  if (given.has("device")) {
    request.device.kind = parse_device_kind(given.at("device"));
    if (!request.chains) request.chains = 1;
  }
  if (trace && !chain) throw no_trace();
  return request;
}

batch_request batch_request_from(const named_settings& given, bool swept) {
  if (!given.has("queens")) throw usage_error("missing -n: how many queens? (see --help)");
  if (!given.has("algo"))
    throw usage_error(
        "missing --algo: which local search? e.g. --algo hc (see nqueens algorithms)");
  batch_request request;
  request.n = detail::parse_board_size(given.at("queens"));
  const std::string& name = given.at("algo");
  const auto algorithm = select_local_algorithm(name, given);
  if (!algorithm)
    throw usage_error("batch runs the local-search algorithms; '" + name +
                      "' is not one (see nqueens algorithms; counting is nqueens count)");
  request.algorithm = local_settings_from(*algorithm, request.n, given);
  check_local_size(*algorithm, request.n);
  request.settings.runs = parse_positive("--runs", given.value_or("runs", "1000"));
  const std::string cores = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  const std::uint64_t threads = parse_positive("--threads", given.value_or("threads", cores));
  if (threads > 1024)
    throw usage_error("--threads must be at most 1024, got " + std::to_string(threads));
  request.settings.threads = static_cast<unsigned>(threads);
  request.settings.seed = detail::parse_seed(given.value_or("seed", "1"));
  search_limits& limits = request.settings.limits;
  if (given.has("max-steps"))
    limits.max_steps = parse_positive("--max-steps", given.at("max-steps"));
  read_generations(given, limits);
  if (given.has("time-limit"))
    limits.time_limit = parse_seconds("--time-limit", given.at("time-limit"));
  request.device.kind = parse_device_kind(given.value_or("device", "auto"));
  if (!swept) check_local_floors(request.algorithm, request.n);
  return request;
}

std::vector<sweep_axis> sweep_from(const std::string& spec, const named_settings& given,
                                   const batch_request& request) {
  std::vector<sweep_axis> axes = parse_sweep(spec);
  for (const auto& axis : axes) {
    // A second value for the same setting would silently win over the first.
    for (const auto& other : axes) {
      if (&other == &axis) break;
      const bool step_limits = axis.name != "time-limit" && is_limit_axis(axis.name) &&
                               other.name != "time-limit" && is_limit_axis(other.name);
      if (other.name == axis.name || step_limits)
        throw usage_error("--sweep sets " + (step_limits ? "the step limit" : axis.name) +
                          " twice (" + other.name + ", then " + axis.name +
                          "): give each parameter once");
    }
    if (!is_limit_axis(axis.name) && given.has(axis.name))
      throw usage_error("--sweep " + axis.name + " and --" + axis.name + " both set " + axis.name +
                        ": give one");
    const bool time = axis.name == "time-limit";
    for (const char* limit : {"max-steps", "generations", "time-limit"})
      if (is_limit_axis(axis.name) && given.has(limit) && time == (limit[0] == 't'))
        throw usage_error("--sweep " + axis.name + " and --" + limit + " both set the " +
                          (time ? "time" : "step") + " limit: give one");
  }
  // Every point is checked before the first batch runs.
  for (const auto& point : grid_points(axes)) {
    auto probe = request.algorithm;
    auto limits = request.settings.limits;
    for (std::size_t i = 0; i < point.size(); ++i)
      set_sweep_value(probe, limits, request.n, axes[i].name, point[i]);
    check_local_floors(probe, request.n);
  }
  return axes;
}

verify_request verify_request_from(const named_settings& given) {
  verify_request request;
  request.path = given.value_or("file", "-");
  request.format = given.value_or("format", "auto");
  parse_board_format(request.format);  // an unknown one refused before the file is read
  request.each = given.has("each");
  if (given.has("memory-limit"))
    request.memory_limit = parse_byte_size(given.at("memory-limit"));
  if (given.has("threads")) {
    const std::uint64_t asked = parse_positive("--threads", given.at("threads"));
    if (asked > 1024)
      throw usage_error("--threads must be at most 1024, got " + std::to_string(asked));
    request.threads = static_cast<unsigned>(asked);
  }
  return request;
}

}  // namespace nq::engine
