#include "cli/local_options.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "cli/cli_support.hpp"
#include "core/memory.hpp"
#include "nqueens/climb.hpp"
#include "nqueens/error.hpp"

namespace nq::cli {
namespace {

using algorithm_set = std::uint32_t;
using A = local_algorithm;
using S = local_search_settings;

constexpr algorithm_set bit(A a) { return 1u << static_cast<unsigned>(a); }

enum class kind {
  count,        // a whole number from `least` up
  probability,  // [0, 1]
  open_unit,    // (0, 1)
  positive,     // > 0
  non_negative  // >= 0
};

/// A numeric parameter: the option, who reads it, its check, and how to get and set it.
struct parameter {
  const char* name;
  const char* help;
  algorithm_set readers;
  kind check;
  double least;  // for counts
  double most;   // for counts
  double (*get)(const S&, index_t n);
  void (*set)(S&, double);
  bool at_most_n = false;  // a count of queens: at most the board's n
};

const parameter table[] = {
    {"sideways",
     "hc-sideways, hc-restart: sideways moves allowed, in a row or in all as --sideways-limit "
     "says (default 100)",
     bit(A::hc_sideways) | bit(A::hc_restart), kind::count, 0, 4294967295.0,
     [](const S& s, index_t) { return double(s.hill.max_sideways); },
     [](S& s, double v) { s.hill.max_sideways = static_cast<std::uint32_t>(v); }},
    {"restarts", "min-conflicts --variant column: fresh boards after a failed try (default 0)",
     bit(A::min_conflicts_column), kind::count, 0, 1e18,
     [](const S& s, index_t) { return double(s.column.restarts); },
     [](S& s, double v) { s.column.restarts = static_cast<std::uint64_t>(v); }},
    {"steps-per-try", "min-conflicts --variant column: moves per try (default 100 n)",
     bit(A::min_conflicts_column), kind::count, 1, 1e18,
     [](const S& s, index_t n) {
       return double(s.column.steps_per_try ? s.column.steps_per_try : 100 * n);
     },
     [](S& s, double v) { s.column.steps_per_try = static_cast<std::uint64_t>(v); }},
    {"t0", "sa: starting temperature (default n^2)", bit(A::sa), kind::positive, 0, 0,
     [](const S& s, index_t n) {
       return s.annealing.initial_temperature > 0 ? s.annealing.initial_temperature
                                                  : double(n) * double(n);
     },
     [](S& s, double v) { s.annealing.initial_temperature = v; }},
    {"cooling",
     "sa: T <- T * cooling per step, i.e. per neighbour tried or per move taken as "
     "--cooling-per says (default 0.95); hc-anneal-p: p <- p * cooling per hill-climbing step "
     "(default 0.99)",
     bit(A::sa) | bit(A::hc_anneal_p), kind::open_unit, 0, 0,
     [](const S& s, index_t) {
       return s.algorithm == A::sa ? s.annealing.cooling : s.annealed_jump.cooling;
     },
     [](S& s, double v) { s.annealing.cooling = s.annealed_jump.cooling = v; }},
    {"t-min", "sa: the temperature's floor (default 0.01)", bit(A::sa), kind::non_negative, 0, 0,
     [](const S& s, index_t) { return s.annealing.min_temperature; },
     [](S& s, double v) { s.annealing.min_temperature = v; }},
    {"p", "hc-random-p, hc-anneal-p: probability that a step is a jump (default 0.23)",
     bit(A::hc_random_p) | bit(A::hc_anneal_p), kind::probability, 0, 0,
     [](const S& s, index_t) {
       return s.algorithm == A::hc_random_p ? s.random_jump.p : s.annealed_jump.p;
     },
     [](S& s, double v) { s.random_jump.p = s.annealed_jump.p = v; }},
    {"p-min", "hc-anneal-p: the floor p cools to (default 0.01)", bit(A::hc_anneal_p),
     kind::probability, 0, 0, [](const S& s, index_t) { return s.annealed_jump.p_min; },
     [](S& s, double v) { s.annealed_jump.p_min = v; }},
    {"q", "hc-random-p, hc-anneal-p (default 2), hc-memory (default 4): queens per jump",
     bit(A::hc_random_p) | bit(A::hc_anneal_p) | bit(A::hc_memory), kind::count, 1, 1e9,
     [](const S& s, index_t) {
       return double(s.algorithm == A::hc_random_p   ? s.random_jump.q
                     : s.algorithm == A::hc_anneal_p ? s.annealed_jump.q
                                                     : s.memory.q);
     },
     [](S& s, double v) {
       s.random_jump.q = s.annealed_jump.q = s.memory.q = static_cast<std::uint32_t>(v);
     },
     true},
    {"beam-width", "beam: states kept, k (default 16)", bit(A::beam), kind::count, 1, 1e6,
     [](const S& s, index_t) { return double(s.beam.width); },
     [](S& s, double v) { s.beam.width = static_cast<std::uint32_t>(v); }},
    {"population", "ga: individuals (default min(2 n^2, 4096))", bit(A::ga), kind::count, 1, 1e7,
     [](const S& s, index_t n) {
       return double(s.genetic.population ? s.genetic.population : default_population(n));
     },
     [](S& s, double v) { s.genetic.population = static_cast<std::uint32_t>(v); }},
    {"tournament", "ga: contestants per parent selection (default 3)", bit(A::ga), kind::count, 1,
     1e7, [](const S& s, index_t) { return double(s.genetic.tournament); },
     [](S& s, double v) { s.genetic.tournament = static_cast<std::uint32_t>(v); }},
    {"crossover", "ga: probability that two parents recombine (default 0.9)", bit(A::ga),
     kind::probability, 0, 0, [](const S& s, index_t) { return s.genetic.crossover; },
     [](S& s, double v) { s.genetic.crossover = v; }},
    {"mutation",
     "ga: probability that a child mutates (default 0.15; 1 when both parents are equal, "
     "unless --mutation-step is set)",
     bit(A::ga), kind::probability, 0, 0, [](const S& s, index_t) { return s.genetic.mutation; },
     [](S& s, double v) { s.genetic.mutation = v; }},
    {"mutation-step",
     "ga: when both parents are equal, raise the run's mutation probability by this much for "
     "the rest of the run and use it for their children (default 0: off; the report: 0.05)",
     bit(A::ga), kind::probability, 0, 0,
     [](const S& s, index_t) { return s.genetic.mutation_step; },
     [](S& s, double v) { s.genetic.mutation_step = v; }},
    {"elite", "ga: best individuals copied unchanged (default 1)", bit(A::ga), kind::count, 0, 1e7,
     [](const S& s, index_t) { return double(s.genetic.elite); },
     [](S& s, double v) { s.genetic.elite = static_cast<std::uint32_t>(v); }},
};

/// Options that are words or flags, with the algorithms that read them.
struct word_option {
  const char* name;
  algorithm_set readers;
};
const word_option words[] = {
    {"variant", bit(A::min_conflicts) | bit(A::min_conflicts_column)},
    {"accept-equal", bit(A::sa)},
    {"reject-equal", bit(A::sa)},
    {"cooling-per", bit(A::sa)},
    {"ties", bit(A::hc) | bit(A::hc_sideways) | bit(A::hc_restart) | bit(A::hc_random_p) |
                 bit(A::hc_anneal_p) | bit(A::hc_memory)},
    {"sideways-limit", bit(A::hc_sideways) | bit(A::hc_restart)},
    {"plateau-jump", bit(A::hc_sideways) | bit(A::hc_restart)},
    {"order", bit(A::first_choice)},
    {"step", bit(A::random_opt)},
    {"stochastic", bit(A::beam)},
    {"encoding", bit(A::ga)},
    {"selection", bit(A::ga)},
    {"preset", bit(A::ga)},
    {"generations", bit(A::beam) | bit(A::ga)},
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

void check_reader(const std::string& option, algorithm_set readers, A algorithm) {
  if (readers & bit(algorithm)) return;
  throw usage_error("--" + option + " does not apply to " + std::string(algorithm_name(algorithm)) +
                    (algorithm == A::min_conflicts && (readers & bit(A::min_conflicts_column))
                         ? " --variant permutation"
                         : "") +
                    " (it is an option of " + readers_of(readers) + ")");
}

const parameter* find_parameter(const std::string& name) {
  for (const auto& p : table)
    if (name == p.name) return &p;
  return nullptr;
}

double parse_value(const parameter& p, const std::string& text, index_t n) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool number = !text.empty() && ec == std::errc{} && end == text.data() + text.size() &&
                      std::isfinite(value);
  const std::string option = std::string("--") + p.name;
  switch (p.check) {
    case kind::count: {
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
    case kind::probability:
      if (!number || value < 0 || value > 1)
        throw usage_error(option + " must be a probability in [0, 1], got '" + text + "'");
      break;
    case kind::open_unit:
      if (!number || value <= 0 || value >= 1)
        throw usage_error(option + " must be strictly between 0 and 1, got '" + text + "'");
      break;
    case kind::positive:
      if (!number || value <= 0)
        throw usage_error(option + " must be a positive number, got '" + text + "'");
      break;
    case kind::non_negative:
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

void check_local_floors(const local_search_settings& settings, index_t n) {
  // Each schedule cools down to its floor: a floor above the start would raise it instead.
  if (settings.algorithm == A::sa) {
    const double t0 = find_parameter("t0")->get(settings, n);
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

std::string option_key(const char* name) {
  // cxxopts takes one-letter names as short options and cannot parse "--p": those are
  // registered as "jump-p" and spelled "--p" on the command line (see spell_out_options).
  return name[1] == '\0' ? std::string("jump-") + name : std::string(name);
}

void add_local_options(cxxopts::Options& options) {
  auto add = options.add_options("algorithm");
  add("variant", "min-conflicts: permutation (huge n, default) or column (the textbook one)",
      cxxopts::value<std::string>());
  for (const auto& p : table) add(option_key(p.name), p.help, cxxopts::value<std::string>());
  add("accept-equal", "sa: take moves that leave the cost unchanged (the default)");
  add("reject-equal",
      "sa: refuse moves that leave the cost unchanged (the strict rule; default: take them, "
      "as min(1, e^(-delta/T)) does)");
  add("cooling-per",
      "sa: neighbour (default: every neighbour tried is a step and cools T) or move (the "
      "tutorial's loop: draw squares until one is accepted, the queen's own included; that "
      "move is the step and cools T once)",
      cxxopts::value<std::string>());
  add("ties",
      "hc family, hc-random-p, hc-anneal-p, hc-memory: random (default: a uniformly random "
      "best move), first or last (the first or last best move, columns left to right, rows "
      "top to bottom)",
      cxxopts::value<std::string>());
  add("sideways-limit",
      "hc-sideways, hc-restart: consecutive (default: --sideways limits moves in a row) or "
      "total (it limits all sideways moves of a climb, as the Haskell article does)",
      cxxopts::value<std::string>());
  add("plateau-jump",
      "hc-sideways, hc-restart: after each sideways move a random queen jumps to a random row "
      "(the case study's climber: --ties last --plateau-jump --sideways 4294967295)");
  add("step",
      "random-opt: queen (default: one random queen per step) or sweep (every column in turn "
      "per step, as the Python program's iteration; one sweep is about n queen steps)",
      cxxopts::value<std::string>());
  add("order",
      "first-choice: random (default: neighbours in a fresh random order each step) or fixed "
      "(columns left to right, rows top to bottom, as the tutorial scans)",
      cxxopts::value<std::string>());
  add("stochastic", "beam: draw successors with probability by fitness");
  add("encoding", "ga: column (default: one row per column) or permutation",
      cxxopts::value<std::string>());
  add("selection",
      "ga: tournament (default: --tournament contestants per parent) or leaders (the report's: "
      "the best of each of 2n consecutive groups are leaders; parents are drawn from them)",
      cxxopts::value<std::string>());
  add("preset",
      "ga: report (the Python report's setup: population 2 n^2, leaders, crossover 0.9, "
      "mutation 0.15, --mutation-step 0.05, no elite, 10,000 generations); options given too "
      "override it",
      cxxopts::value<std::string>());
  add("generations", "beam, ga: the step limit (default 1000)", cxxopts::value<std::string>());
}

std::optional<local_algorithm> select_local_algorithm(const std::string& name,
                                                      const cxxopts::ParseResult& args) {
  auto algorithm = find_local_algorithm(name);
  if (algorithm == A::min_conflicts && args.count("variant")) {
    const auto variant = args["variant"].as<std::string>();
    if (variant == "column") return A::min_conflicts_column;
    if (variant != "permutation")
      throw usage_error("unknown --variant '" + variant + "' (expected permutation or column)");
  }
  return algorithm;
}

local_search_settings parse_local_options(const cxxopts::ParseResult& args,
                                          local_algorithm algorithm, index_t n) {
  S settings;
  settings.algorithm = algorithm;
  if (args.count("preset")) {
    check_reader("preset", bit(A::ga), algorithm);
    const auto preset = args["preset"].as<std::string>();
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
  for (const auto& p : table) {
    const std::string key = option_key(p.name);
    if (!args.count(key)) continue;
    check_reader(p.name, p.readers, algorithm);
    p.set(settings, parse_value(p, args[key].as<std::string>(), n));
  }
  for (const auto& w : words)
    if (args.count(w.name)) check_reader(w.name, w.readers, algorithm);
  if (args.count("accept-equal") && args.count("reject-equal"))
    throw usage_error("--accept-equal and --reject-equal contradict each other: give one");
  settings.annealing.accept_equal = args.count("reject-equal") == 0;
  const auto choice = [&](const char* name, const char* first, const char* second) {
    if (!args.count(name)) return false;
    const auto value = args[name].as<std::string>();
    if (value != first && value != second)
      throw usage_error("unknown --" + std::string(name) + " '" + value + "' (expected " + first +
                        " or " + second + ")");
    return value == second;
  };
  settings.annealing.cool_per_move = choice("cooling-per", "neighbour", "move");
  if (args.count("ties")) {
    const auto ties = args["ties"].as<std::string>();
    if (ties != "random" && ties != "first" && ties != "last")
      throw usage_error("unknown --ties '" + ties + "' (expected random, first or last)");
    settings.hill.ties = ties == "first"  ? tie_rule::first
                         : ties == "last" ? tie_rule::last
                                          : tie_rule::random;
  }
  settings.hill.plateau_jump = args.count("plateau-jump") > 0;
  settings.hill.total_sideways = choice("sideways-limit", "consecutive", "total");
  settings.first_choice.fixed_order = choice("order", "random", "fixed");
  settings.random_opt.sweep = choice("step", "queen", "sweep");
  if (args.count("selection"))
    settings.genetic.leaders = choice("selection", "tournament", "leaders");
  settings.beam.stochastic = args.count("stochastic") > 0;
  if (args.count("encoding")) {
    const auto encoding = args["encoding"].as<std::string>();
    if (encoding != "column" && encoding != "permutation")
      throw usage_error("unknown --encoding '" + encoding + "' (expected column or permutation)");
    settings.genetic.permutation = encoding == "permutation";
  }
  if (algorithm == A::ga &&
      (args.count("tournament") || args.count("population") || args.count("elite"))) {
    const auto population =
        static_cast<std::uint32_t>(find_parameter("population")->get(settings, n));
    if (settings.genetic.tournament > population)
      throw usage_error("--tournament " + std::to_string(settings.genetic.tournament) +
                        " is larger than the population (" + std::to_string(population) + ")");
    if (settings.genetic.elite > population)
      throw usage_error("--elite " + std::to_string(settings.genetic.elite) +
                        " is larger than the population (" + std::to_string(population) + ")");
  }
  return settings;
}

std::vector<std::string> spell_out_options(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  for (auto& a : args) {
    // Left out, as a false switch is, it would mean the opposite: the default.
    if (a == "--accept-equal=false" || a == "--accept-equal=0") a = "--reject-equal";
    for (const char* letter : {"p", "q"}) {
      const std::string spelled = std::string("--") + letter;
      if (a == spelled || a.starts_with(spelled + "="))
        a = "--" + option_key(letter) + a.substr(spelled.size());
    }
  }
  return args;
}

bool is_local_switch(std::string_view name) {
  for (const char* flag : {"accept-equal", "reject-equal", "plateau-jump", "stochastic"})
    if (name == flag) return true;
  return false;
}

std::string local_help(std::string text) {
  for (const char* letter : {"p", "q"}) {
    const std::string key = "--" + option_key(letter) + " arg";
    const std::string shown =
        std::string("--") + letter + " arg" + std::string(key.size() - 7, ' ');
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key))
      text.replace(at, key.size(), shown);
  }
  return text;
}

cxxopts::ParseResult parse_local_command_line(cxxopts::Options& options, int argc, char** argv) {
  auto spelled = spell_out_options(argc, argv);
  std::vector<char*> pointers;
  for (auto& a : spelled) pointers.push_back(a.data());
  return parse_command_line(options, static_cast<int>(pointers.size()), pointers.data());
}

void read_generations(const cxxopts::ParseResult& args, search_limits& limits) {
  if (!args.count("generations")) {
    // The report ran its GA for up to 10,000 generations.
    if (args.count("preset") && !args.count("max-steps")) limits.max_steps = 10000;
    return;
  }
  if (args.count("max-steps"))
    throw usage_error("--generations and --max-steps both set the step limit: give one");
  limits.max_steps = parse_positive("--generations", args["generations"].as<std::string>());
}

void reject_local_options(const cxxopts::ParseResult& args, const std::string& algorithm) {
  const auto refuse = [&](const char* name) {
    if (args.count(option_key(name)))
      throw usage_error(std::string("--") + name + " does not apply to " + algorithm +
                        " (it is an option of the local-search algorithms; see --help)");
  };
  for (const auto& p : table) refuse(p.name);
  for (const auto& w : words) refuse(w.name);
}

void set_local_parameter(local_search_settings& settings, index_t n, const std::string& name,
                         const std::string& value) {
  const parameter* p = find_parameter(name);
  if (!p) {
    std::string known;
    for (const auto& q : table) known += (known.empty() ? "" : ", ") + std::string(q.name);
    throw usage_error("unknown parameter '" + name + "' (expected one of " + known + ")");
  }
  check_reader(name, p->readers, settings.algorithm);
  p->set(settings, parse_value(*p, value, n));
}

std::vector<std::pair<std::string, double>> local_parameters(const local_search_settings& settings,
                                                             index_t n) {
  std::vector<std::pair<std::string, double>> list;
  for (const auto& p : table)
    if (p.readers & bit(settings.algorithm)) list.emplace_back(p.name, p.get(settings, n));
  // The switches, as 0 or 1.
  const auto reads = [&](const char* name) {
    for (const auto& w : words)
      if (name == std::string_view(w.name)) return (w.readers & bit(settings.algorithm)) != 0;
    return false;
  };
  if (settings.algorithm == A::sa) {
    list.emplace_back("accept-equal", settings.annealing.accept_equal ? 1 : 0);
    list.emplace_back("cool-per-move", settings.annealing.cool_per_move ? 1 : 0);
  }
  if (reads("ties")) list.emplace_back("ties", static_cast<double>(settings.hill.ties));
  if (reads("sideways-limit")) {
    list.emplace_back("total-sideways", settings.hill.total_sideways ? 1 : 0);
    list.emplace_back("plateau-jump", settings.hill.plateau_jump ? 1 : 0);
  }
  if (settings.algorithm == A::first_choice)
    list.emplace_back("fixed-order", settings.first_choice.fixed_order ? 1 : 0);
  if (settings.algorithm == A::random_opt)
    list.emplace_back("sweep", settings.random_opt.sweep ? 1 : 0);
  if (settings.algorithm == A::beam)
    list.emplace_back("stochastic", settings.beam.stochastic ? 1 : 0);
  if (settings.algorithm == A::ga) {
    list.emplace_back("permutation-encoding", settings.genetic.permutation ? 1 : 0);
    list.emplace_back("leader-selection", settings.genetic.leaders ? 1 : 0);
  }
  return list;
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
  throw usage_error(std::string(algorithm_name(algorithm)) + " takes n up to " +
                    std::to_string(max_local_n(algorithm)) +
                    " (a step looks at up to n(n-1) moves); use min-conflicts for larger boards");
}

}  // namespace nq::cli
