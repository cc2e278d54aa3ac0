#include "control/count_checkpoint.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/board_io.hpp"
#include "nqueens/error.hpp"

namespace nq::detail {
namespace {

constexpr const char* format_name = "nqueens-count-checkpoint";
constexpr int format_version = 3;  // 2: the split is named; 3: a checksum over the content

[[noreturn]] void corrupt(const std::string& path, const std::string& why) {
  throw usage_error("checkpoint " + path + " is not a usable count checkpoint: " + why +
                    " (remove it to start over)");
}

/// A whole number from 0 to 2^64-1: `what` ("a count", "a subproblem index") names it when
/// it is negative, not whole or not a number.
std::uint64_t read_count(const nlohmann::json& value, const std::string& path,
                         const char* what = "a count") {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  const std::string shown = value.dump().substr(0, 40);
  if (value.is_number_integer()) corrupt(path, std::string(what) + " is negative (" + shown + ")");
  corrupt(path, std::string(what) + " is not a whole number (" + shown + ")");
}

/// A chain of bijections over 64-bit words: changing any one word of the content (a tally, an
/// index, n) always changes the result, and any other edit does with probability 1 - 2^-64.
class content_digest {
 public:
  void add(std::uint64_t word) { state_ = mix(state_ ^ mix(word + 0x9e3779b97f4a7c15ULL)); }
  void add(const std::string& text) {
    add(text.size());
    for (const char c : text) add(static_cast<unsigned char>(c));
  }
  std::string hex() const {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(state_));
    return text;
  }

 private:
  static std::uint64_t mix(std::uint64_t z) {  // SplitMix64's finaliser, invertible
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t state_ = 0x6a09e667f3bcc908ULL;
};

/// The digest of everything a checkpoint says: format, version, n, split, and the entries in
/// the order they are listed.
template <typename Entries>
std::string checksum(int n, const std::string& split, std::uint64_t subproblems,
                     const Entries& entries) {
  content_digest digest;
  digest.add(std::string(format_name));
  digest.add(static_cast<std::uint64_t>(format_version));
  digest.add(static_cast<std::uint64_t>(n));
  digest.add(split);
  digest.add(subproblems);
  digest.add(static_cast<std::uint64_t>(entries.size()));
  for (const auto& [index, counted] : entries) {
    digest.add(index);
    digest.add(counted.solutions);
    digest.add(counted.unique_eighths);
  }
  return digest.hex();
}

}  // namespace

bool read_count_checkpoint(const std::string& path, int n, const std::string& split,
                           std::uint64_t subproblems, count_checkpoint& out) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (status.type() == std::filesystem::file_type::not_found) return false;
  if (status.type() == std::filesystem::file_type::directory)
    throw usage_error("checkpoint " + path + " is a directory");
  // A FIFO would wait for a writer (and then be written through, never read back).
  if (status.type() != std::filesystem::file_type::regular)
    throw usage_error("checkpoint " + path +
                      " is not a regular file (a FIFO or a device cannot hold a checkpoint)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error("cannot read checkpoint " + path);
  std::ostringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) corrupt(path, "not a JSON object");
  if (!doc.contains("format") || !doc["format"].is_string() || doc["format"] != format_name)
    corrupt(path, "unknown format");
  if (!doc.contains("version") || !doc["version"].is_number_integer() ||
      doc["version"].get<std::int64_t>() != format_version)
    corrupt(path, "format version " + (doc.contains("version") ? doc["version"].dump() : "none") +
                      ", not " + std::to_string(format_version) +
                      " (older versions carry no checksum)");
  if (!doc.contains("n") || !doc["n"].is_number_integer()) corrupt(path, "no n");
  if (doc["n"].get<int>() != n)
    throw usage_error("checkpoint " + path + " belongs to a count for n=" +
                      std::to_string(doc["n"].get<int>()) + ", not n=" + std::to_string(n));
  if (!doc.contains("split") || !doc["split"].is_string() || doc["split"] != split ||
      !doc.contains("subproblems") || read_count(doc["subproblems"], path) != subproblems)
    corrupt(path, "it splits the search differently (a row-prefix split from an older GPU count?)");
  if (!doc.contains("done") || !doc["done"].is_array()) corrupt(path, "no list of finished work");
  out = count_checkpoint{n, split, subproblems, {}};
  std::vector<std::pair<std::uint64_t, count_tally>> entries;
  count_tally total;
  for (const auto& entry : doc["done"]) {
    if (!entry.is_array() || entry.size() != 3) corrupt(path, "a malformed entry");
    const std::uint64_t index = read_count(entry[0], path, "a subproblem index");
    if (index >= subproblems) corrupt(path, "a subproblem index out of range");
    const count_tally counted{read_count(entry[1], path), read_count(entry[2], path)};
    if (counted.solutions <= UINT64_MAX / symmetry_count &&
        counted.unique_eighths > symmetry_count * counted.solutions)
      corrupt(path, "more unique than total solutions");
    if (__builtin_add_overflow(total.solutions, counted.solutions, &total.solutions) ||
        __builtin_add_overflow(total.unique_eighths, counted.unique_eighths, &total.unique_eighths))
      corrupt(path, "the counts add up to more than 2^64-1");
    if (!out.done.emplace(index, counted).second) corrupt(path, "a subproblem listed twice");
    entries.emplace_back(index, counted);
  }
  if (!doc.contains("checksum") || !doc["checksum"].is_string() ||
      doc["checksum"] != checksum(n, split, subproblems, entries))
    corrupt(path, "its checksum does not match its content (edited or damaged)");
  return true;
}

void write_count_checkpoint(const std::string& path, const count_checkpoint& checkpoint) {
  nlohmann::ordered_json doc;
  doc["format"] = format_name;
  doc["version"] = format_version;
  doc["n"] = checkpoint.n;
  doc["split"] = checkpoint.split;
  doc["subproblems"] = checkpoint.subproblems;
  nlohmann::json done = nlohmann::json::array();
  for (const auto& [index, counted] : checkpoint.done)
    done.push_back({index, counted.solutions, counted.unique_eighths});
  doc["done"] = std::move(done);
  doc["checksum"] =
      checksum(checkpoint.n, checkpoint.split, checkpoint.subproblems, checkpoint.done);
  atomic_file file(path);
  {
    byte_sink sink(file.fd());
    sink.write(doc.dump());
    sink.write("\n");
    sink.flush();
  }
  file.commit();
}

}  // namespace nq::detail
