#pragma once
// Files for tests: a scratch directory removed at the end, and whole-file reads and writes.

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace nq::test {

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void spit(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

/// A fresh directory, removed with everything in it when the test ends.
class scratch_dir {
 public:
  scratch_dir() {
    std::string name = (std::filesystem::temp_directory_path() / "nq-cli-XXXXXX").string();
    path_ = ::mkdtemp(name.data());
  }
  ~scratch_dir() { std::filesystem::remove_all(path_); }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }
  /// Names of the files in the directory, excluding the runner's own capture files.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(path_)) {
      const std::string name = entry.path().filename().string();
      if (!name.starts_with(".cli-")) names.push_back(name);
    }
    return names;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace nq::test
