#include "engine/local_parameters.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/whole_number.hpp"
#include "nqueens/detail/climb.hpp"
#include "nqueens/detail/memory.hpp"
#include "nqueens/error.hpp"

namespace nq::engine {
namespace {

using A = local_algorithm;
using S = local_search_settings;
constexpr auto bit = algorithm_bit;
using detail::read_whole_number;
using detail::whole_reading;

const local_parameter table[] = {
    {"sideways",
     "hc-sideways, hc-restart: sideways moves allowed, in a row or in all as --sideways-limit "
     "says (default 100)",
     bit(A::hc_sideways) | bit(A::hc_restart), parameter_kind::count, 0, 4294967295.0,
     [](const S& s, index_t) { return double(s.hill.max_sideways); },
     [](S& s, double v) { s.hill.max_sideways = static_cast<std::uint32_t>(v); }},
    {"restarts", "min-conflicts --variant column: fresh boards after a failed try (default 0)",
     bit(A::min_conflicts_column), parameter_kind::count, 0, 1e18,
     [](const S& s, index_t) { return double(s.column.restarts); },
     [](S& s, double v) { s.column.restarts = static_cast<std::uint64_t>(v); }},
    {"steps-per-try", "min-conflicts --variant column: moves per try (default 100 n)",
     bit(A::min_conflicts_column), parameter_kind::count, 1, 1e18,
     [](const S& s, index_t n) {
       return double(s.column.steps_per_try ? s.column.steps_per_try : 100 * n);
     },
     [](S& s, double v) { s.column.steps_per_try = static_cast<std::uint64_t>(v); }},
    {"t0", "sa: starting temperature (default n^2)", bit(A::sa), parameter_kind::positive, 0, 0,
     [](const S& s, index_t n) {
       return s.annealing.initial_temperature > 0 ? s.annealing.initial_temperature
                                                  : double(n) * double(n);
     },
     [](S& s, double v) { s.annealing.initial_temperature = v; }},
    {"cooling",
     "sa: T <- T * cooling per step, i.e. per neighbour tried or per move taken as "
     "--cooling-per says (default 0.95); hc-anneal-p: p <- p * cooling per hill-climbing step "
     "(default 0.99)",
     bit(A::sa) | bit(A::hc_anneal_p), parameter_kind::open_unit, 0, 0,
     [](const S& s, index_t) {
       return s.algorithm == A::sa ? s.annealing.cooling : s.annealed_jump.cooling;
     },
     [](S& s, double v) { s.annealing.cooling = s.annealed_jump.cooling = v; }},
    {"t-min", "sa: the temperature's floor (default 0.01)", bit(A::sa),
     parameter_kind::non_negative, 0, 0,
     [](const S& s, index_t) { return s.annealing.min_temperature; },
     [](S& s, double v) { s.annealing.min_temperature = v; }},
    {"p", "hc-random-p, hc-anneal-p: probability that a step is a jump (default 0.23)",
     bit(A::hc_random_p) | bit(A::hc_anneal_p), parameter_kind::probability, 0, 0,
     [](const S& s, index_t) {
       return s.algorithm == A::hc_random_p ? s.random_jump.p : s.annealed_jump.p;
     },
     [](S& s, double v) { s.random_jump.p = s.annealed_jump.p = v; }},
    {"p-min", "hc-anneal-p: the floor p cools to (default 0.01)", bit(A::hc_anneal_p),
     parameter_kind::probability, 0, 0, [](const S& s, index_t) { return s.annealed_jump.p_min; },
     [](S& s, double v) { s.annealed_jump.p_min = v; }},
    {"q", "hc-random-p, hc-anneal-p (default 2), hc-memory (default 4): queens per jump",
     bit(A::hc_random_p) | bit(A::hc_anneal_p) | bit(A::hc_memory), parameter_kind::count, 1, 1e9,
     [](const S& s, index_t) {
       return double(s.algorithm == A::hc_random_p   ? s.random_jump.q
                     : s.algorithm == A::hc_anneal_p ? s.annealed_jump.q
                                                     : s.memory.q);
     },
     [](S& s, double v) {
       s.random_jump.q = s.annealed_jump.q = s.memory.q = static_cast<std::uint32_t>(v);
     },
     true},
    {"beam-width", "beam: states kept, k (default 16)", bit(A::beam), parameter_kind::count, 1, 1e6,
     [](const S& s, index_t) { return double(s.beam.width); },
     [](S& s, double v) { s.beam.width = static_cast<std::uint32_t>(v); }},
    {"population", "ga: individuals (default min(2 n^2, 4096))", bit(A::ga), parameter_kind::count,
     1, 1e7,
     [](const S& s, index_t n) {
       return double(s.genetic.population ? s.genetic.population : default_population(n));
     },
     [](S& s, double v) { s.genetic.population = static_cast<std::uint32_t>(v); }},
    {"tournament", "ga: contestants per parent selection (default 3)", bit(A::ga),
     parameter_kind::count, 1, 1e7,
     [](const S& s, index_t) { return double(s.genetic.tournament); },
     [](S& s, double v) { s.genetic.tournament = static_cast<std::uint32_t>(v); }},
    {"crossover", "ga: probability that two parents recombine (default 0.9)", bit(A::ga),
     parameter_kind::probability, 0, 0, [](const S& s, index_t) { return s.genetic.crossover; },
     [](S& s, double v) { s.genetic.crossover = v; }},
    {"mutation",
     "ga: probability that a child mutates (default 0.15; 1 when both parents are equal, "
     "unless --mutation-step is set)",
     bit(A::ga), parameter_kind::probability, 0, 0,
     [](const S& s, index_t) { return s.genetic.mutation; },
     [](S& s, double v) { s.genetic.mutation = v; }},
    {"mutation-step",
     "ga: when both parents are equal, raise the run's mutation probability by this much for "
     "the rest of the run and use it for their children (default 0: off; the report: 0.05)",
     bit(A::ga), parameter_kind::probability, 0, 0,
     [](const S& s, index_t) { return s.genetic.mutation_step; },
     [](S& s, double v) { s.genetic.mutation_step = v; }},
    {"elite", "ga: best individuals copied unchanged (default 1)", bit(A::ga),
     parameter_kind::count, 0, 1e7, [](const S& s, index_t) { return double(s.genetic.elite); },
     [](S& s, double v) { s.genetic.elite = static_cast<std::uint32_t>(v); }},
};

// In the order --help lists them (variant first, before the numeric settings).
const word_option words[] = {
    {"variant", bit(A::min_conflicts) | bit(A::min_conflicts_column),
     "min-conflicts: permutation (huge n, default) or column (the textbook one)", true},
    {"accept-equal", bit(A::sa), "sa: take moves that leave the cost unchanged (the default)",
     false},
    {"reject-equal", bit(A::sa),
     "sa: refuse moves that leave the cost unchanged (the strict rule; default: take them, as "
     "min(1, e^(-delta/T)) does)",
     false},
    {"cooling-per", bit(A::sa),
     "sa: neighbour (default: every neighbour tried is a step and cools T) or move (the "
     "tutorial's loop: draw squares until one is accepted, the queen's own included; that move "
     "is the step and cools T once)",
     true},
    {"ties",
     bit(A::hc) | bit(A::hc_sideways) | bit(A::hc_restart) | bit(A::hc_random_p) |
         bit(A::hc_anneal_p) | bit(A::hc_memory),
     "hc family, hc-random-p, hc-anneal-p, hc-memory: random (default: a uniformly random best "
     "move), first or last (the first or last best move, columns left to right, rows top to "
     "bottom)",
     true},
    {"sideways-limit", bit(A::hc_sideways) | bit(A::hc_restart),
     "hc-sideways, hc-restart: consecutive (default: --sideways limits moves in a row) or total "
     "(it limits all sideways moves of a climb, as the Haskell article does)",
     true},
    {"plateau-jump", bit(A::hc_sideways) | bit(A::hc_restart),
     "hc-sideways, hc-restart: after each sideways move a random queen jumps to a random row "
     "(the case study's climber: --ties last --plateau-jump --sideways 4294967295)",
     false},
    {"step", bit(A::random_opt),
     "random-opt: queen (default: one random queen per step) or sweep (every column in turn per "
     "step, as the Python program's iteration; one sweep is about n queen steps)",
     true},
    {"order", bit(A::first_choice),
     "first-choice: random (default: neighbours in a fresh random order each step) or fixed "
     "(columns left to right, rows top to bottom, as the tutorial scans)",
     true},
    {"stochastic", bit(A::beam), "beam: draw successors with probability by fitness", false},
    {"encoding", bit(A::ga), "ga: column (default: one row per column) or permutation", true},
    {"selection", bit(A::ga),
     "ga: tournament (default: --tournament contestants per parent) or leaders (the report's: "
     "the best of each of 2n consecutive groups are leaders; parents are drawn from them)",
     true},
    {"preset", bit(A::ga),
     "ga: report (the Python report's setup: population 2 n^2, leaders, crossover 0.9, "
     "mutation 0.15, --mutation-step 0.05, no elite, 10,000 generations); options given too "
     "override it",
     true},
    {"generations", bit(A::beam) | bit(A::ga), "beam, ga: the step limit (default 1000)", true},
};

std::string readers_of(algorithm_set readers) {
  std::string list;
  for (unsigned a = 0; a <= static_cast<unsigned>(A::ga); ++a) {
    if (!(readers & (1u << a))) continue;
    // The column variant is named on its own only when it alone reads the option.
    const bool column = a == static_cast<unsigned>(A::min_conflicts_column);
    if (column && (readers & bit(A::min_conflicts))) continue;
    if (!list.empty()) list += ", ";
    list += algorithm_name(static_cast<A>(a));
    if (column) list += " --variant column";
  }
  return list;
}

double parse_value_of(const local_parameter& p, const std::string& text, index_t n) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool number = !text.empty() && ec == std::errc{} && end == text.data() + text.size() &&
                      std::isfinite(value);
  const std::string option = std::string("--") + p.name;
  switch (p.check) {
    case parameter_kind::count: {
      // Read from the text, as every whole-number option is: 2.0000000000000001 is no count.
      const whole_reading read = read_whole_number(text);
      if (!read.whole || (!read.too_large && static_cast<double>(read.value) < p.least))
        throw usage_error(option + " must be a whole number of at least " +
                          std::to_string(static_cast<long long>(p.least)) + ", got '" + text + "'");
      if (read.too_large || static_cast<double>(read.value) > p.most)
        throw usage_error(option + " must be at most " +
                          std::to_string(static_cast<long long>(p.most)) + ", got '" + text + "'");
      if (p.at_most_n && read.value > n)
        throw usage_error(option + " must be at most n = " + std::to_string(n) +
                          " (queens on the board), got '" + text + "'");
      return static_cast<double>(read.value);
    }
    case parameter_kind::probability:
      if (!number || value < 0 || value > 1)
        throw usage_error(option + " must be a probability in [0, 1], got '" + text + "'");
      break;
    case parameter_kind::open_unit:
      if (!number || value <= 0 || value >= 1)
        throw usage_error(option + " must be strictly between 0 and 1, got '" + text + "'");
      break;
    case parameter_kind::positive:
      if (!number || value <= 0)
        throw usage_error(option + " must be a positive number, got '" + text + "'");
      break;
    case parameter_kind::non_negative:
      if (!number || value < 0)
        throw usage_error(option + " must be zero or more, got '" + text + "'");
      break;
  }
  return value;
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

}  // namespace

std::span<const local_parameter> local_parameter_table() { return table; }

std::span<const word_option> local_word_options() { return words; }

const local_parameter* find_local_parameter(std::string_view name) {
  for (const auto& p : table)
    if (name == p.name) return &p;
  return nullptr;
}

double parse_local_value(const local_parameter& p, const std::string& text, index_t n) {
  return parse_value_of(p, text, n);
}

void check_reader(const std::string& option, algorithm_set readers, local_algorithm algorithm) {
  if (readers & bit(algorithm)) return;
  throw usage_error("--" + option + " does not apply to " + std::string(algorithm_name(algorithm)) +
                    (algorithm == A::min_conflicts && (readers & bit(A::min_conflicts_column))
                         ? " --variant permutation"
                         : "") +
                    " (it is an option of " + readers_of(readers) + ")");
}

void check_local_floors(const local_search_settings& settings, index_t n) {
  // Each schedule cools down to its floor: a floor above the start would raise it instead.
  if (settings.algorithm == A::sa) {
    const double t0 = find_local_parameter("t0")->get(settings, n);
    if (settings.annealing.min_temperature > t0)
      throw usage_error("--t-min " + number_text(settings.annealing.min_temperature) +
                        " is above --t0 " + number_text(t0) +
                        " (the starting temperature; n^2 unless given): T cools down to its "
                        "floor, never up to it");
  }
  if (settings.algorithm == A::hc_anneal_p &&
      settings.annealed_jump.p_min > settings.annealed_jump.p)
    throw usage_error("--p-min " + number_text(settings.annealed_jump.p_min) + " is above --p " +
                      number_text(settings.annealed_jump.p) +
                      " (the starting jump probability): p cools down to its floor, never up to "
                      "it");
}

void set_local_parameter(local_search_settings& settings, index_t n, const std::string& name,
                         const std::string& value) {
  const local_parameter* p = find_local_parameter(name);
  if (!p) {
    std::string known;
    for (const auto& q : table) known += (known.empty() ? "" : ", ") + std::string(q.name);
    throw usage_error("unknown parameter '" + name + "' (expected one of " + known + ")");
  }
  check_reader(name, p->readers, settings.algorithm);
  p->set(settings, parse_value_of(*p, value, n));
}

std::vector<std::pair<std::string, setting_value>> local_parameters(
    const local_search_settings& settings, index_t n) {
  std::vector<std::pair<std::string, setting_value>> list;
  for (const auto& p : table)
    if (p.readers & bit(settings.algorithm)) list.emplace_back(p.name, p.get(settings, n));
  // The words and switches, as their options take them (plateau-jump is true or false).
  const auto add = [&](const char* name, setting_value value) {
    for (const auto& w : words)
      if (name == std::string_view(w.name) && (w.readers & bit(settings.algorithm)))
        list.emplace_back(name, std::move(value));
  };
  const auto word = [](bool second, const char* first_word, const char* second_word) {
    return setting_value(std::string(second ? second_word : first_word));
  };
  const tie_rule ties = settings.hill.ties;
  add("accept-equal", settings.annealing.accept_equal);
  add("cooling-per", word(settings.annealing.cool_per_move, "neighbour", "move"));
  add("ties", std::string(ties == tie_rule::first  ? "first"
                          : ties == tie_rule::last ? "last"
                                                   : "random"));
  add("sideways-limit", word(settings.hill.total_sideways, "consecutive", "total"));
  add("plateau-jump", settings.hill.plateau_jump);
  add("order", word(settings.first_choice.fixed_order, "random", "fixed"));
  add("step", word(settings.random_opt.sweep, "queen", "sweep"));
  add("stochastic", settings.beam.stochastic);
  add("encoding", word(settings.genetic.permutation, "column", "permutation"));
  add("selection", word(settings.genetic.leaders, "tournament", "leaders"));
  return list;
}

nlohmann::ordered_json parameters_record(
    const std::vector<std::pair<std::string, setting_value>>& parameters) {
  nlohmann::ordered_json record = nlohmann::ordered_json::object();
  for (const auto& entry : parameters)
    std::visit([&](const auto& value) { record[entry.first] = value; }, entry.second);
  return record;
}

std::uint64_t local_memory_bytes(const local_search_settings& settings, index_t n) {
  const std::uint64_t base = n * sizeof(row_t) + 16 * n + (std::uint64_t{1} << 20);
  switch (settings.algorithm) {
    case A::first_choice:  // the order of the n(n-1) moves
      return base + 4 * n * (n - 1);
    case A::beam:  // two beams of boards and lines
      return base + 2 * std::uint64_t{settings.beam.width} * n * 16;
    case A::ga:  // two populations
      return base + 2 *
                        std::uint64_t{settings.genetic.population ? settings.genetic.population
                                                                  : default_population(n)} *
                        n * sizeof(row_t);
    default:
      return base;
  }
}

void check_local_memory(const local_search_settings& settings, index_t n, unsigned copies) {
  if (settings.algorithm == A::min_conflicts) return;  // sized by its own check in solve
  const std::uint64_t need = local_memory_bytes(settings, n) * copies;
  const auto available = available_memory_bytes();
  if (available && need > *available)
    throw resource_error(std::string(algorithm_name(settings.algorithm)) +
                         " on n=" + std::to_string(n) + " needs about " + format_bytes(need) +
                         (copies > 1 ? " for " + std::to_string(copies) + " threads" : "") +
                         ", but only " + format_bytes(*available) + " is available");
}

void check_local_size(local_algorithm algorithm, index_t n) {
  if (n <= max_local_n(algorithm)) return;
  // Why each stops at 65,535 queens, and what takes larger boards, in its own words.
  std::string why = "its line counters are 16-bit";
  std::string instead = "min-conflicts (its default, permutation variant) or lattice";
  switch (algorithm) {
    case A::hc:
    case A::hc_sideways:
    case A::hc_restart:
    case A::hc_random_p:
    case A::hc_anneal_p:
    case A::hc_memory:
      why = "a step weighs all n(n-1) moves, and its line counters are 16-bit";
      break;
    case A::first_choice:
      why = "its order holds all n(n-1) moves, 4 bytes each, and its line counters are 16-bit";
      break;
    case A::min_conflicts_column:
      instead = "--variant permutation (the default), which takes any n";
      break;
    default:
      break;
  }
  throw usage_error(std::string(algorithm_name(algorithm)) +
                    (algorithm == A::min_conflicts_column ? " --variant column" : "") +
                    " takes n up to " + std::to_string(max_local_n(algorithm)) + " (" + why +
                    "); for larger boards use " + instead);
}

}  // namespace nq::engine
