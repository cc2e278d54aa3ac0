// libFuzzer target: the count checkpoint reader. It may refuse input only with usage_error; a
// checkpoint it accepts keeps its promises (indices in range, no overflowing sum, no more
// unique than total solutions) and reads back the same after being written again.

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "control/count_checkpoint.hpp"
#include "nqueens/error.hpp"

namespace {

/// A scratch directory for the input file, removed when the fuzzer exits.
struct scratch {
  std::string path = [] {
    std::string name = "/tmp/nq-fuzz-XXXXXX";
    if (!::mkdtemp(name.data())) std::abort();
    return name;
  }();
  ~scratch() { std::filesystem::remove_all(path); }
} directory;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = directory.path + "/ck.json";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data), size);
  // The reader is asked for what the file claims to be, so that a valid seed is accepted and
  // mutations reach every check behind the header's.
  int n = 10;
  std::string split = "frames";
  std::uint64_t subproblems = 100;
  const auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_object()) {
    if (doc.contains("n") && doc["n"].is_number_integer()) n = doc["n"].get<int>();
    if (doc.contains("split") && doc["split"].is_string()) split = doc["split"];
    if (doc.contains("subproblems") && doc["subproblems"].is_number_unsigned())
      subproblems = std::min<std::uint64_t>(doc["subproblems"].get<std::uint64_t>(), 1 << 20);
  }
  nq::detail::count_checkpoint read;
  try {
    if (!nq::detail::read_count_checkpoint(path, n, split, subproblems, read)) std::abort();
  } catch (const nq::usage_error&) {
    return 0;
  }
  std::uint64_t solutions = 0, unique_eighths = 0;
  for (const auto& [index, tally] : read.done) {
    if (index >= subproblems) std::abort();
    if (__builtin_add_overflow(solutions, tally.solutions, &solutions) ||
        __builtin_add_overflow(unique_eighths, tally.unique_eighths, &unique_eighths))
      std::abort();
    if (tally.solutions <= UINT64_MAX / 8 && tally.unique_eighths > 8 * tally.solutions)
      std::abort();
  }
  nq::detail::write_count_checkpoint(path, read);
  nq::detail::count_checkpoint again;
  if (!nq::detail::read_count_checkpoint(path, n, split, subproblems, again) ||
      again.done.size() != read.done.size())
    std::abort();
  for (const auto& [index, tally] : read.done) {
    const auto found = again.done.find(index);
    if (found == again.done.end() || found->second.solutions != tally.solutions ||
        found->second.unique_eighths != tally.unique_eighths)
      std::abort();
  }
  return 0;
}
