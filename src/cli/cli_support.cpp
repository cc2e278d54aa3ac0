#include "cli/cli_support.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <set>
#include <vector>

#include "nqueens/error.hpp"

namespace nq::cli {
namespace {

/// Every option is single-valued: "-n 8 -n 9" is a mistake, not a request for 9.
void refuse_repeated_options(const cxxopts::ParseResult& result) {
  const auto& given = result.arguments();
  for (std::size_t i = 0; i < given.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      if (given[j].key() != given[i].key()) continue;
      // The algorithm options --p and --q are registered as jump-p and jump-q.
      const std::string& key = given[i].key();
      const std::string name = key.size() == 6 && key.starts_with("jump-") ? key.substr(5) : key;
      throw usage_error("--" + name + " is given more than once ('" + given[j].value() +
                        "', then '" + given[i].value() + "'): give it once");
    }
}

/// Which names (long and short) are switches and which take a value.
struct option_kinds {
  std::set<std::string> switches, takes_value;
};

option_kinds kinds_of(const cxxopts::Options& options) {
  option_kinds kinds;
  for (const auto& group : options.groups())
    for (const auto& o : options.group_help(group).options) {
      auto& names = o.is_boolean ? kinds.switches : kinds.takes_value;
      if (!o.s.empty()) names.insert(o.s);
      names.insert(o.l.begin(), o.l.end());
    }
  return kinds;
}

/// argv with every switch written with a value (--quiet=false) as what the value means: =true
/// or =1 is the switch alone, =false or =0 leaves it out, anything else is refused. cxxopts
/// counts --quiet=false as given, which would turn the switch on.
std::vector<std::string> read_switch_values(const cxxopts::Options& options, int argc,
                                            char** argv) {
  const option_kinds kinds = kinds_of(options);
  std::vector<std::string> out(argv, argv + std::min(argc, 1));
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    out.emplace_back(arg);
    if (arg == "--") {
      out.insert(out.end(), argv + i + 1, argv + argc);
      break;
    }
    if (arg.starts_with("--")) {
      const std::size_t eq = std::min(arg.find('='), arg.size());
      const std::string name(arg.substr(2, eq - 2));
      if (eq == arg.size()) {
        if (kinds.takes_value.contains(name) && i + 1 < argc) out.emplace_back(argv[++i]);
        continue;
      }
      if (!kinds.switches.contains(name)) continue;
      const std::string_view value = arg.substr(eq + 1);
      out.pop_back();
      if (value == "true" || value == "1")
        out.push_back("--" + name);
      else if (value != "false" && value != "0")
        throw usage_error("--" + name + " is a switch: give it alone or as --" + name +
                          "=true or =false (1 or 0), not '" + printable(value) + "'");
    } else if (arg.size() > 1 && arg[0] == '-') {
      // Grouped short options (-qo FILE): the first that takes a value takes the rest of the
      // word, or the next word when it comes last.
      for (std::size_t c = 1; c < arg.size(); ++c)
        if (kinds.takes_value.contains(std::string(1, arg[c]))) {
          if (c + 1 == arg.size() && i + 1 < argc) out.emplace_back(argv[++i]);
          break;
        }
    }
  }
  return out;
}

}  // namespace

std::atomic<bool> interrupted{false};

std::string file_option(const cxxopts::ParseResult& args, const std::string& option) {
  if (!args.count(option)) return "";
  std::string path = args[option].as<std::string>();
  if (path.empty()) throw usage_error("--" + option + " needs a file name");
  return path;
}

bool parse_text_or_json(const std::string& format) {
  if (format != "text" && format != "json")
    throw usage_error("unknown format '" + format + "' (expected text or json)");
  return format == "json";
}

std::string plain_message(std::string text) {
  // cxxopts quotes with U+2018 and U+2019 (E2 80 98 / E2 80 99 in UTF-8).
  std::string plain;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool quote = text.compare(i, 2, "\xE2\x80") == 0 && i + 2 < text.size() &&
                       (text[i + 2] == '\x98' || text[i + 2] == '\x99');
    plain += quote ? '\'' : text[i];
    if (quote) i += 2;
  }
  return plain;
}

cxxopts::ParseResult parse_command_line(cxxopts::Options& options, int argc, char** argv,
                                        const char* positional) {
  try {
    if (positional) options.parse_positional({positional});
    const std::vector<std::string> args = read_switch_values(options, argc, argv);
    std::vector<const char*> pointers;
    for (const auto& a : args) pointers.push_back(a.c_str());
    auto result = options.parse(static_cast<int>(pointers.size()), pointers.data());
    if (!result.unmatched().empty())
      throw usage_error("unexpected argument '" + result.unmatched().front() + "' (see --help)");
    refuse_repeated_options(result);
    return result;
  } catch (const cxxopts::exceptions::exception& e) {
    throw usage_error(plain_message(e.what()) + " (see --help)");
  }
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

void abort_ranks(const std::string& who, const rank_share& ranks, const std::exception& error) {
  std::fprintf(stderr, "%s: rank %d: %s\n", who.c_str(), ranks.rank(),
               printable(error.what(), 4096).c_str());
  std::fflush(stderr);
  nq::abort_ranks(ranks, dynamic_cast<const usage_error*>(&error)      ? exit_usage
                  : dynamic_cast<const resource_error*>(&error) ? exit_resource
                  : dynamic_cast<const std::bad_alloc*>(&error) ? exit_resource
                                                                : exit_internal);
}

bool progress_wanted(const cxxopts::ParseResult& args) {
  if (args.count("progress") && args.count("quiet"))
    throw usage_error("--progress shows the progress line and --quiet hides it: give one");
  return !args.count("quiet") && (args.count("progress") || stderr_is_terminal());
}

bool progress_line::due(double seconds) {
  if (!enabled_ || seconds < 1.0 || seconds - last_seconds_ < 0.25) return false;
  last_seconds_ = seconds;
  return true;
}

void progress_line::show(const char* format, ...) {
  std::fputc('\r', stderr);
  std::va_list values;
  va_start(values, format);
  std::vfprintf(stderr, format, values);
  va_end(values);
  std::fputs("\033[K", stderr);
  shown_ = true;
}

void progress_line::finish() {
  if (shown_) std::fputs("\r\033[K", stderr);
  shown_ = false;
  last_seconds_ = 0.0;
}

}  // namespace nq::cli
