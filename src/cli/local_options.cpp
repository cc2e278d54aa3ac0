#include "cli/local_options.hpp"

#include <string_view>

#include "cli/cli_support.hpp"
#include "nqueens/error.hpp"

namespace nq::cli {

using A = local_algorithm;
using S = local_search_settings;
constexpr auto bit = engine::algorithm_bit;

std::string option_key(const char* name) {
  // cxxopts takes one-letter names as short options and cannot parse "--p": those are
  // registered as "jump-p" and spelled "--p" on the command line (see spell_out_options).
  return name[1] == '\0' ? std::string("jump-") + name : std::string(name);
}

void add_local_options(cxxopts::Options& options) {
  auto add = options.add_options("algorithm");
  const auto add_word = [&](const engine::word_option& w) {
    if (w.takes_value)
      add(w.name, w.help, cxxopts::value<std::string>());
    else
      add(w.name, w.help);
  };
  const auto words = engine::local_word_options();
  add_word(words.front());  // variant, then the numbers, then the other words
  for (const auto& p : engine::local_parameter_table())
    add(option_key(p.name), p.help, cxxopts::value<std::string>());
  for (const auto& w : words.subspan(1)) add_word(w);
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
    engine::check_reader("preset", bit(A::ga), algorithm);
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
  for (const auto& p : engine::local_parameter_table()) {
    const std::string key = option_key(p.name);
    if (!args.count(key)) continue;
    engine::check_reader(p.name, p.readers, algorithm);
    p.set(settings, engine::parse_local_value(p, args[key].as<std::string>(), n));
  }
  for (const auto& w : engine::local_word_options())
    if (args.count(w.name)) engine::check_reader(w.name, w.readers, algorithm);
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
        static_cast<std::uint32_t>(engine::find_local_parameter("population")->get(settings, n));
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
  for (const auto& p : engine::local_parameter_table()) refuse(p.name);
  for (const auto& w : engine::local_word_options()) refuse(w.name);
}

}  // namespace nq::cli
