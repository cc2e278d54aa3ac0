#pragma once
// Golden files for the command line: one case's command, exit code and output in a layout a
// person can read and diff, with what legitimately varies between runs and machines masked.
//
// Layout of tests/golden/<case>.txt (each section's header gives its size in bytes, so the
// file says exactly what was printed, a missing final newline included):
//   # <one line saying what the file is>
//   args: solve -n 8 --seed 3            (the arguments after `nqueens`, quoted when needed)
//   exit: 0
//   --- input file board.txt: 16 bytes   (files written in the scratch directory first, if any)
//   --- stdin: 12 bytes                  (if any)
//   --- stdout: 144 bytes
//   --- stderr: 0 bytes
//   --- file board.txt: 16 bytes         (files the command wrote, if the case names any)
// A section whose text has no final newline says ", no final newline" and gets one in the file.

#include <algorithm>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nq::test {

/// One command line and what it needs and leaves in its scratch directory.
struct golden_case {
  std::string name;  ///< tests/golden/<name>.txt; letters, digits and underscores
  std::vector<std::string> args;
  std::string stdin_text = "";
  std::vector<std::pair<std::string, std::string>> input_files = {};  ///< written before it runs
  std::vector<std::string> output_files = {};                         ///< read back after it runs
  friend std::ostream& operator<<(std::ostream& os, const golden_case& c) { return os << c.name; }
};

// The masking rules, applied to stdout, stderr and every output file, and nothing else:
//  1. JSON: the value of a key naming a timing, a rate or the machine (golden_masked_keys),
//     compact or pretty-printed: "seconds":0.0012 -> "seconds":<masked>.
//  2. Text: elapsed seconds, which the CLI prints with three decimals: "0.002 s" -> "<s> s".
//  3. Text: a rate: "1.227e+05 runs/s" -> "<rate> runs/s".
//  4. Text: the last cell (runs/s) of each row of batch --sweep's table, the rows under a
//     header that ends in "runs/s" up to the first line that does not start with a value.
//  5. Text: --version's "nqueens 0.1.0 (Release build, ...)" -> "nqueens <version> (<build>)":
//     the version, build type, CUDA backend and devices visible.
//  6. Text: --help's default thread count, this machine's cores: "all 2 cores" -> "all <n> cores".
//  7. The scratch directory's absolute path -> "<scratch>".
// Thread counts, SIMD levels and devices are made fixed by the cases (--threads, --simd off,
// --device cpu), not masked.
inline const std::vector<std::string> golden_masked_keys{
    "seconds",         "kernel_seconds",       "busy_seconds", "idle_at_end_seconds",
    "runs_per_second", "solutions_per_second", "device_name"};

namespace golden_detail {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_word(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/// Each occurrence of `anchor` for which `span(text, at)` gives the [first, last) range to
/// replace (an empty range: leave it) becomes `replacement`.
template <class Span>
std::string replace_spans(std::string text, const std::string& anchor,
                          const std::string& replacement, Span span) {
  for (std::size_t at = text.find(anchor); at != std::string::npos;) {
    const auto [first, last] = span(text, at);
    if (first < last) {
      text.replace(first, last - first, replacement);
      at = first + replacement.size();
    } else {
      at += anchor.size();
    }
    at = text.find(anchor, at);
  }
  return text;
}

using span = std::pair<std::size_t, std::size_t>;

/// Rule 1: from `"key":` (a space allowed after the colon) to the end of its value.
inline span json_value(const std::string& text, std::size_t at, std::size_t key_size) {
  std::size_t v = at + key_size;
  if (v < text.size() && text[v] == ' ') ++v;
  std::size_t end = v;
  if (text.compare(v, 4, "null") == 0) {
    end = v + 4;
  } else if (v < text.size() && text[v] == '"') {
    end = text.find('"', v + 1);
    end = end == std::string::npos ? v : end + 1;
  } else {
    while (end < text.size() && (is_digit(text[end]) || std::string_view("-+.eE").find(text[end]) !=
                                                            std::string_view::npos))
      ++end;
  }
  return {v, end};
}

/// Rule 2: "<digits>.<3 digits>" before " s" that ends a word.
inline span seconds_before(const std::string& text, std::size_t at) {
  if (at + 2 < text.size() && is_word(text[at + 2])) return {0, 0};
  if (at < 5) return {0, 0};
  std::size_t first = at - 3;
  for (std::size_t i = first; i < at; ++i)
    if (!is_digit(text[i])) return {0, 0};
  if (text[--first] != '.' || first == 0 || !is_digit(text[first - 1])) return {0, 0};
  while (first > 0 && is_digit(text[first - 1])) --first;
  if (first > 0 && (is_word(text[first - 1]) || text[first - 1] == '.')) return {0, 0};
  return {first, at};
}

/// Rule 3: a number (digits, '.', 'e', '+', '-', starting with a digit) before " runs/s".
inline span rate_before(const std::string& text, std::size_t at) {
  std::size_t first = at;
  while (first > 0 && (is_digit(text[first - 1]) ||
                       std::string_view(".e+-").find(text[first - 1]) != std::string_view::npos))
    --first;
  if (first == at || !is_digit(text[first])) return {0, 0};
  if (first > 0 && is_word(text[first - 1])) return {0, 0};
  return {first, at};
}

/// Rules 4 and 5, on one line; `in_sweep` says whether the line before was the sweep table's
/// (its header, or a row: a line whose first word is a number, the point's value).
inline std::string mask_line(std::string line, bool& in_sweep) {
  const std::size_t first_space = line.find(' ');
  const bool row_shape = first_space != std::string::npos && first_space > 0 &&
                         line.find_first_not_of("0123456789.e+-%") == first_space &&
                         line[0] != 'e';
  if (in_sweep && row_shape) {
    const std::size_t last_space = line.find_last_of(' ');
    const std::size_t cell_gap = line.find_last_not_of(' ', last_space) + 1;
    return line.substr(0, cell_gap) + " <rate>";
  }
  in_sweep = line.ends_with("runs/s");
  if (line.starts_with("nqueens ") && line.size() > 8 && is_digit(line[8]) && line.ends_with(")")) {
    const std::size_t version_end = line.find(' ', 8);
    if (version_end != std::string::npos && version_end > 8 &&
        line.compare(version_end, 2, " (") == 0)
      return "nqueens <version> (<build>)";
  }
  return line;
}

}  // namespace golden_detail

inline std::string golden_mask(std::string text, const std::string& scratch) {
  using namespace golden_detail;
  if (!scratch.empty())
    text = replace_spans(text, scratch, "<scratch>", [&](auto&, auto at) {
      return span{at, at + scratch.size()};
    });
  for (const auto& key : golden_masked_keys) {
    const std::string anchor = "\"" + key + "\":";
    text = replace_spans(text, anchor, "<masked>", [&](const std::string& t, std::size_t at) {
      return json_value(t, at, anchor.size());
    });
  }
  text = replace_spans(text, " s", "<s>", seconds_before);
  text = replace_spans(text, " runs/s", "<rate>", rate_before);
  text = replace_spans(text, " cores", "<n>", [](const std::string& t, std::size_t at) {
    std::size_t first = at;
    while (first > 0 && is_digit(t[first - 1])) --first;
    const bool after_all = first >= 4 && t.compare(first - 4, 4, "all ") == 0;
    return first < at && after_all ? span{first, at} : span{0, 0};
  });
  std::string out;
  bool in_sweep = false;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    out += mask_line(text.substr(start, end - start), in_sweep);
    if (end < text.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

/// "--- <label>: N bytes" and the text, a newline added (and said) where it had none.
inline std::string golden_section(const std::string& label, const std::string& text) {
  std::string s = "--- " + label + ": " + std::to_string(text.size()) + " bytes";
  const bool unterminated = !text.empty() && !text.ends_with('\n');
  s += unterminated ? ", no final newline\n" : "\n";
  return s + text + (unterminated ? "\n" : "");
}

inline std::string golden_args(const std::vector<std::string>& args) {
  std::string line;
  for (const auto& a : args) {
    const bool plain = !a.empty() && a.find_first_of(" '\"\\\t") == std::string::npos;
    line += " " + (plain ? a : "'" + a + "'");
  }
  return line;
}

}  // namespace nq::test
