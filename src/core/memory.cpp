#include "nqueens/detail/memory.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "nqueens/error.hpp"

namespace nq {
namespace {

std::optional<std::uint64_t> read_number(const char* path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> available_memory_bytes() {
  std::optional<std::uint64_t> available = mem_available();
  const auto limit = read_number("/sys/fs/cgroup/memory.max");
  const auto used = read_number("/sys/fs/cgroup/memory.current");
  if (limit && used) {
    const std::uint64_t room = *limit > *used ? *limit - *used : 0;
    available = available ? std::min(*available, room) : room;
  }
  return available;
}

std::uint64_t parse_byte_size(std::string_view text) {
  // A whole or decimal number ("1.5G"); the digits are read exactly, so "8G" stays 8 << 30.
  const std::size_t digits = std::min(text.find_first_not_of("0123456789."), text.size());
  const std::string_view number = text.substr(0, digits);
  std::string_view unit = text.substr(digits);
  const std::size_t point = number.find('.');
  const std::string_view whole = number.substr(0, point);
  const std::string_view fraction =
      point == std::string_view::npos ? std::string_view{} : number.substr(point + 1);
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), value);
  if (whole.empty() || ec != std::errc{} || end != whole.data() + whole.size() ||
      (point != std::string_view::npos &&
       (fraction.empty() || fraction.find('.') != std::string_view::npos)))
    throw usage_error("expected a size such as 512M, 1.5G or 8G, got '" + std::string(text) + "'");
  int shift = 0;
  if (!unit.empty()) {
    const std::string_view units = "KMGT";
    const std::size_t at = units.find(static_cast<char>(std::toupper(unit[0])));
    if (at == std::string_view::npos)
      throw usage_error("unknown size unit in '" + std::string(text) + "' (use K, M, G or T)");
    shift = 10 * static_cast<int>(at + 1);
    unit.remove_prefix(1);
    if (unit == "iB" || unit == "B") unit = {};
    if (!unit.empty()) throw usage_error("unknown size unit in '" + std::string(text) + "'");
  }
  if (!fraction.empty() && shift == 0)
    throw usage_error("size '" + std::string(text) + "' is not a whole number of bytes");
  if (shift && value > (~std::uint64_t{0} >> shift))
    throw usage_error("size '" + std::string(text) + "' is too large");
  // The fraction of one unit, rounded down to whole bytes.
  double share = 0;
  const std::string decimal = "0." + std::string(fraction);
  std::from_chars(decimal.data(), decimal.data() + decimal.size(), share);
  const auto part = static_cast<std::uint64_t>(share * std::ldexp(1.0, shift));
  const std::uint64_t bytes = value << shift;
  if (part > ~std::uint64_t{0} - bytes)
    throw usage_error("size '" + std::string(text) + "' is too large");
  return bytes + part;
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, "%.2f %s", value, units[unit]);
  return text;
}

}  // namespace nq
