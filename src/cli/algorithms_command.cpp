// nqueens algorithms: what --algo accepts, and what each algorithm counts as a step.

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "nqueens/algorithms.hpp"

namespace nq::cli {

int run_algorithms(int argc, char** argv) {
  cxxopts::Options options("nqueens algorithms", "List the algorithms --algo accepts.");
  // clang-format off
  options.add_options()
      ("f,format", "text or json", cxxopts::value<std::string>()->default_value("text"))
      ("h,help", "show this help");
  // clang-format on
  const auto args = parse_command_line(options, argc, argv);
  if (args.count("help")) throw help_requested(options.help());
  if (parse_text_or_json(args["format"].as<std::string>())) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& a : algorithms())
      list.push_back({{"name", a.name}, {"summary", a.summary}, {"steps", a.steps}});
    std::puts(list.dump(2).c_str());
    return exit_ok;
  }
  std::size_t width = 0;
  for (const auto& a : algorithms()) width = std::max(width, a.name.size());
  for (const auto& a : algorithms()) {
    std::printf("%-*.*s  %.*s (steps: %.*s)\n", static_cast<int>(width),
                static_cast<int>(a.name.size()), a.name.data(), static_cast<int>(a.summary.size()),
                a.summary.data(), static_cast<int>(a.steps.size()), a.steps.data());
  }
  return exit_ok;
}

}  // namespace nq::cli
