#include "core/whole_number.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

#include "nqueens/error.hpp"

namespace nq::detail {

/// Digits with an optional fraction and exponent ("8", "1e6", "2.5E3", "1.0", "20e-1").
whole_reading read_whole_number(std::string_view text) {
  std::size_t at = 0;
  const auto digits = [&] {
    const std::size_t from = at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
    return text.substr(from, at - from);
  };
  const std::string_view integer = digits();
  if (integer.empty()) return {};
  std::string_view fraction;
  if (at < text.size() && text[at] == '.') {
    ++at;
    fraction = digits();
  }
  long long exponent = 0;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    const bool negative = at < text.size() && text[at] == '-';
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
    const std::string_view power = digits();
    if (power.empty()) return {};
    for (const char c : power) exponent = std::min(exponent * 10 + (c - '0'), 1000000LL);
    if (negative) exponent = -exponent;
  }
  if (at != text.size()) return {};
  // The value is mantissa x 10^scale; without its leading and trailing zeros, it is whole
  // exactly when the scale is not negative.
  std::string mantissa = std::string(integer) + std::string(fraction);
  long long scale = exponent - static_cast<long long>(fraction.size());
  mantissa.erase(0, std::min(mantissa.find_first_not_of('0'), mantissa.size()));
  if (mantissa.empty()) return {true, false, 0};
  while (mantissa.back() == '0') mantissa.pop_back(), ++scale;
  if (scale < 0) return {};
  if (static_cast<long long>(mantissa.size()) + scale > 20) return {true, true, 0};
  std::uint64_t value = 0;
  for (long long i = 0; i < static_cast<long long>(mantissa.size()) + scale; ++i) {
    const unsigned digit = i < static_cast<long long>(mantissa.size()) ? mantissa[i] - '0' : 0;
    if (__builtin_mul_overflow(value, 10u, &value) || __builtin_add_overflow(value, digit, &value))
      return {true, true, 0};
  }
  return {true, false, value};
}

index_t parse_board_size(const std::string& text) {
  const whole_reading read = read_whole_number(text);
  if (!read.whole || (!read.too_large && read.value < 1))
    throw usage_error("-n must be a positive whole number of queens, got '" + text + "'");
  if (read.too_large || read.value > max_n)
    throw usage_error("-n " + text + " is too large: boards hold at most " + std::to_string(max_n) +
                      " queens");
  return static_cast<index_t>(read.value);
}

namespace {

/// A setting's value refused: a setting_error for an option ("--seed"), which each face spells
/// its own way, else a usage_error as written.
[[noreturn]] void refuse(const std::string& option, const std::string& problem) {
  if (option.starts_with("--")) throw setting_error(option.substr(2), problem);
  throw usage_error(option + " " + problem);
}

}  // namespace

std::uint64_t parse_positive(const std::string& option, const std::string& text) {
  const whole_reading read = read_whole_number(text);
  if (read.whole && !read.too_large && read.value > 0) return read.value;
  refuse(option, std::string("must be a positive whole number") +
                     (read.too_large ? " up to 2^64-1" : "") + ", got '" + text + "'");
}

double parse_seconds(const std::string& option, const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() ||
      !std::isfinite(value) || value <= 0)
    refuse(option, "must be a positive number of seconds, got '" + text + "'");
  return value;
}

std::uint64_t parse_whole(const std::string& option, const std::string& text) {
  const whole_reading read = read_whole_number(text);
  if (read.whole && !read.too_large) return read.value;
  refuse(option, "must be a whole number from 0 to 2^64-1, got '" + text + "'");
}

std::uint64_t parse_seed(const std::string& text) { return parse_whole("--seed", text); }

}  // namespace nq::detail
