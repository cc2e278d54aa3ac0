#pragma once
// Numbers as options and requests write them: whole numbers ("8", "1e6", "2.5E3") read
// exactly, board sizes, positive counts and seconds.

#include <cstdint>
#include <string>
#include <string_view>

#include "nqueens/config.hpp"

namespace nq::detail {

/// What the decimal text of a whole-number option says, read digit by digit: a double would
/// round 1.9999999999999999999 to 2 and 4294967295.0000001 to 2^32-1.
struct whole_reading {
  bool whole = false;      ///< a number with no fractional part
  bool too_large = false;  ///< whole, but above 2^64-1
  std::uint64_t value = 0;
};
/// Digits with an optional fraction and exponent ("8", "1e6", "2.5E3", "1.0", "20e-1"): every
/// whole-number option is read by this one rule.
whole_reading read_whole_number(std::string_view text);

/// The number of queens: 1..max_n, written as digits or in scientific notation (1e6); anything
/// else is a usage_error naming -n.
index_t parse_board_size(const std::string& text);

/// A positive integer option, e.g. --max-steps (scientific notation allowed).
std::uint64_t parse_positive(const std::string& option, const std::string& text);

/// A positive, finite number of seconds.
double parse_seconds(const std::string& option, const std::string& text);

/// A whole number from 0 to 2^64-1 for `option` (--seed, --chain).
std::uint64_t parse_whole(const std::string& option, const std::string& text);
/// --seed: parse_whole("--seed", text).
std::uint64_t parse_seed(const std::string& text);

/// "1 attacking pair", "3 attacking pairs": a count with its noun in the right number.
inline std::string count_of(std::uint64_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace nq::detail
