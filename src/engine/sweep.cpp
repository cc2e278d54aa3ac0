#include "engine/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/whole_number.hpp"
#include "engine/local_parameters.hpp"
#include "nqueens/error.hpp"

namespace nq::engine {
namespace {

constexpr std::size_t max_sweep_points = 10000;

double sweep_number(const std::string& text, const std::string& axis) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    throw usage_error("--sweep " + axis + ": '" + text + "' is not a number");
  return value;
}

}  // namespace

std::vector<sweep_axis> parse_sweep(const std::string& spec) {
  std::vector<sweep_axis> axes;
  std::size_t points = 1;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, comma - start);
    start = comma + 1;
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw usage_error("--sweep expects name=first:last[:step] items separated by commas, got '" +
                        item + "'");
    sweep_axis axis{item.substr(0, eq), {}};
    std::vector<std::string> parts;
    for (std::size_t at = eq + 1;;) {
      const std::size_t colon = std::min(item.find(':', at), item.size());
      parts.push_back(item.substr(at, colon - at));
      if (colon == item.size()) break;
      at = colon + 1;
    }
    // A share of n: every part ends in "%", and only q counts queens.
    const bool percent = parts.front().ends_with('%');
    for (auto& part : parts) {
      if (part.ends_with('%') != percent)
        throw usage_error("--sweep " + axis.name + ": give every value as a share of n, or none");
      if (percent) part.pop_back();
    }
    if (percent && axis.name != "q")
      throw usage_error("--sweep " + axis.name + ": only q takes a share of n (e.g. q=10%:30%:5%)");
    if (parts.size() == 1) {
      axis.values = parts;
    } else if (parts.size() <= 3) {
      const double first = sweep_number(parts[0], axis.name);
      const double last = sweep_number(parts[1], axis.name);
      const double step = parts.size() == 3 ? sweep_number(parts[2], axis.name) : 1.0;
      if (step <= 0 || last < first)
        throw usage_error("--sweep " + axis.name + ": needs first <= last and a positive step");
      const double count = std::floor((last - first) / step + 1e-9) + 1;
      if (count > max_sweep_points) throw usage_error("--sweep " + axis.name + ": too many values");
      for (int k = 0; k < static_cast<int>(count); ++k) {
        char text[32];
        std::snprintf(text, sizeof text, "%.10g", first + k * step);
        axis.values.push_back(text);
      }
    } else {
      throw usage_error("--sweep " + axis.name + ": expected first:last[:step], got '" +
                        item.substr(eq + 1) + "'");
    }
    if (percent)
      for (auto& value : axis.values) value += '%';
    points *= axis.values.size();
    if (points > max_sweep_points)
      throw usage_error("--sweep asks for more than " + std::to_string(max_sweep_points) +
                        " batches");
    axes.push_back(std::move(axis));
  }
  return axes;
}

bool is_limit_axis(const std::string& name) {
  return name == "max-steps" || name == "generations" || name == "time-limit";
}

void set_sweep_value(local_search_settings& algorithm, search_limits& limits, index_t n,
                     const std::string& name, const std::string& value) {
  if (name == "max-steps" || name == "generations") {
    limits.max_steps = detail::parse_positive("--" + name, value);
  } else if (name == "time-limit") {
    limits.time_limit = detail::parse_seconds("--time-limit", value);
  } else if (value.ends_with('%')) {
    const double share = sweep_number(value.substr(0, value.size() - 1), name) / 100;
    if (share <= 0 || share > 1)
      throw usage_error("--sweep " + name +
                        ": a share of n must be above 0% and at most 100%, got '" + value + "'");
    const double queens = std::max(1.0, std::round(share * static_cast<double>(n)));
    set_local_parameter(algorithm, n, name, std::to_string(static_cast<std::uint64_t>(queens)));
  } else {
    set_local_parameter(algorithm, n, name, value);
  }
}

std::vector<std::vector<std::string>> grid_points(const std::vector<sweep_axis>& axes) {
  std::vector<std::vector<std::string>> points{{}};
  for (const auto& axis : axes) {
    std::vector<std::vector<std::string>> grown;
    for (const auto& point : points)
      for (const auto& value : axis.values) {
        grown.push_back(point);
        grown.back().push_back(value);
      }
    points = std::move(grown);
  }
  return points;
}

}  // namespace nq::engine
