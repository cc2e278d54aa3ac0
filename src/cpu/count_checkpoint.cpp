#include "cpu/count_checkpoint.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/board_io.hpp"
#include "nqueens/error.hpp"

namespace nq::detail {
namespace {

constexpr const char* format_name = "nqueens-count-checkpoint";
constexpr int format_version = 2;  // 2: the split is named

[[noreturn]] void corrupt(const std::string& path, const std::string& why) {
  throw usage_error("checkpoint " + path + " is not a usable count checkpoint: " + why +
                    " (remove it to start over)");
}

std::uint64_t read_count(const nlohmann::json& value, const std::string& path) {
  if (!value.is_number_unsigned()) corrupt(path, "a count is not a whole number");
  return value.get<std::uint64_t>();
}

}  // namespace

bool read_count_checkpoint(const std::string& path, int n, const std::string& split,
                           std::uint64_t subproblems, count_checkpoint& out) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (status.type() == std::filesystem::file_type::not_found) return false;
  if (status.type() == std::filesystem::file_type::directory)
    throw usage_error("checkpoint " + path + " is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error("cannot read checkpoint " + path);
  std::ostringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) corrupt(path, "not a JSON object");
  if (doc.value("format", "") != format_name || doc.value("version", 0) != format_version)
    corrupt(path, "unknown format or version");
  if (!doc.contains("n") || !doc["n"].is_number_integer()) corrupt(path, "no n");
  if (doc["n"].get<int>() != n)
    throw usage_error("checkpoint " + path + " belongs to a count for n=" +
                      std::to_string(doc["n"].get<int>()) + ", not n=" + std::to_string(n));
  if (!doc.contains("split") || !doc["split"].is_string() || doc["split"] != split ||
      !doc.contains("subproblems") || read_count(doc["subproblems"], path) != subproblems)
    corrupt(path, "it splits the search differently (another --device?)");
  if (!doc.contains("done") || !doc["done"].is_array()) corrupt(path, "no list of finished work");
  out = count_checkpoint{n, split, subproblems, {}};
  for (const auto& entry : doc["done"]) {
    if (!entry.is_array() || entry.size() != 3) corrupt(path, "a malformed entry");
    const std::uint64_t index = read_count(entry[0], path);
    if (index >= subproblems) corrupt(path, "a subproblem index out of range");
    const count_tally counted{read_count(entry[1], path), read_count(entry[2], path)};
    if (counted.unique_eighths > symmetry_count * counted.solutions)
      corrupt(path, "more unique than total solutions");
    if (!out.done.emplace(index, counted).second) corrupt(path, "a subproblem listed twice");
  }
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
