// The JSON board reader: a SAX pass that keeps only the top-level "rows" array (and "n", when
// present, to check it), so a board of 10^8 queens needs no document tree.

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/board_parsers.hpp"

namespace nq::detail {
namespace {

class rows_collector : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::vector<row_t> rows;
  bool has_rows = false;
  std::optional<std::uint64_t> n;
  std::string error;
  const std::string* text = nullptr;  // the input, to tell a second object from other junk

  bool null() override { return scalar("null"); }
  bool boolean(bool) override { return scalar("a boolean"); }
  bool number_integer(number_integer_t value) override {
    return value >= 0 ? number_unsigned(static_cast<number_unsigned_t>(value))
                      : scalar("a negative number");
  }
  bool number_unsigned(number_unsigned_t value) override {
    if (in_rows_ && depth_ == 2) {
      if (value > max_n) return fail("\"rows\" holds a number too large for any board");
      rows.push_back(static_cast<row_t>(value));
      return true;
    }
    if (depth_ == 1 && key_ == "n") n = value;
    return depth_ > 0 || fail(not_object);
  }
  bool number_float(number_float_t value, const string_t& text) override {
    // nlohmann hands over integers past 2^64, and numbers with a point or exponent, as floats.
    if (!in_rows_) return scalar("a number");
    if (value < 0) return scalar("a negative number");
    if (text.find_first_of(".eE") == string_t::npos)
      return fail("\"rows\" holds a number too large for any board");
    if (value != std::floor(value)) return scalar("a fraction");
    return fail("\"rows\" must hold whole numbers written in digits, found " +
                (text.size() > 24 ? text.substr(0, 21) + "..." : text));
  }
  bool string(string_t&) override { return scalar("a string"); }
  bool binary(binary_t&) override { return scalar("binary data"); }
  bool start_object(std::size_t) override {
    if (in_rows_) return fail("\"rows\" must hold only integers");
    ++depth_;
    return true;
  }
  bool key(string_t& name) override {
    if (depth_ == 1) key_ = name;
    return true;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth_ == 0) return fail(not_object);
    if (in_rows_) return fail("\"rows\" must hold only integers");
    if (depth_ == 1 && key_ == "rows") {
      in_rows_ = has_rows = true;
      rows.clear();
    }
    ++depth_;
    return true;
  }
  bool end_array() override {
    if (--depth_ == 1) in_rows_ = false;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    // A whole object read, and another begins after it.
    if (depth_ == 0 && has_rows && text && position >= 1 && position <= text->size() &&
        (*text)[position - 1] == '{')
      return fail("a second board follows the first near byte " + std::to_string(position) +
                  "; verify checks one board (--each checks one per line)");
    return fail("invalid JSON near byte " + std::to_string(position));
  }

 private:
  static constexpr const char* not_object = "expected a JSON object with a \"rows\" array";

  bool scalar(const char* what) {
    if (depth_ == 0) return fail(not_object);
    if (in_rows_) return fail(std::string("\"rows\" must hold only integers, found ") + what);
    if (depth_ == 1 && key_ == "n") return fail("\"n\" must be a positive integer");
    return true;
  }
  bool fail(std::string what) {
    if (error.empty()) error = std::move(what);
    return false;
  }

  int depth_ = 0;
  bool in_rows_ = false;
  std::string key_;
};

}  // namespace

std::vector<row_t> read_json(byte_source& bytes) {
  const std::string text = bytes.rest();
  rows_collector collector;
  collector.text = &text;
  nlohmann::json::sax_parse(text, &collector);
  if (!collector.error.empty()) bytes.fail(collector.error);
  if (!collector.has_rows) bytes.fail("JSON input has no \"rows\" array");
  std::vector<row_t>& rows = collector.rows;
  bytes.check_size(rows.size());
  if (rows.empty()) bytes.fail("\"rows\" is empty: no board to read");
  if (collector.n && *collector.n != rows.size())
    bytes.fail("\"n\" is " + std::to_string(*collector.n) + " but \"rows\" has " +
               std::to_string(rows.size()) + " entries");
  for (std::size_t col = 0; col < rows.size(); ++col) {
    if (rows[col] >= rows.size())
      bytes.fail("column " + std::to_string(col) + " has row " + std::to_string(rows[col]) +
                 ", outside 0.." + std::to_string(rows.size() - 1) + " (JSON rows are 0-based)");
  }
  return rows;
}

}  // namespace nq::detail
