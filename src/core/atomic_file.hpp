#pragma once
// An output file that appears complete or not at all: written under a temporary name beside the
// target, then renamed over it. Created before the work starts, so a bad path fails early.

#include <string>

namespace nq {

class atomic_file {
 public:
  /// Creates the temporary file; throws usage_error when the path cannot be written.
  explicit atomic_file(std::string path);
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;
  /// Removes the temporary file unless commit() succeeded.
  ~atomic_file();

  int fd() const { return fd_; }
  /// Flushes to disk and renames into place; throws resource_error.
  void commit();

 private:
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace nq
