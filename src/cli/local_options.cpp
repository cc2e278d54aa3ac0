#include "cli/local_options.hpp"

#include <string_view>

#include "cli/cli_support.hpp"
#include "nqueens/error.hpp"

namespace nq::cli {
namespace {

/// The key an algorithm option is registered under: its name, but "jump-p" and "jump-q" for
/// "p" and "q", which cxxopts would take as short options.
std::string option_key(const char* name) {
  // cxxopts takes one-letter names as short options and cannot parse "--p": those are
  // registered as "jump-p" and spelled "--p" on the command line (see spell_out_options).
  return name[1] == '\0' ? std::string("jump-") + name : std::string(name);
}

/// argv with "--p" and "--q" (which cxxopts cannot parse) renamed to the keys they are
/// registered under.
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

}  // namespace

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

engine::named_settings named_from(const cxxopts::ParseResult& args,
                                  std::initializer_list<const char*> own) {
  engine::named_settings given;
  for (const char* name : own)
    if (args.count(name)) given.set(name, args[name].as<std::string>());
  for (const auto& p : engine::local_parameter_table())
    if (const std::string key = option_key(p.name); args.count(key))
      given.set(p.name, args[key].as<std::string>());
  for (const auto& w : engine::local_word_options())
    if (args.count(w.name))
      given.set(w.name, w.takes_value ? args[w.name].as<std::string>() : "true");
  return given;
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

}  // namespace nq::cli
