#pragma once
// An output file that appears complete or not at all. A regular file (or a new one) is written
// under a temporary name beside it, flushed to disk and renamed over it; a symbolic link is
// followed, so its target is replaced and the link kept. A character device or a FIFO
// (/dev/null, /dev/full, a named pipe) cannot be replaced: it is written through, every error
// reported; a FIFO that no process reads within 5 s is refused. Created before the work starts,
// so a bad path fails early.

#include <string>

namespace nq {

class atomic_file {
 public:
  /// Opens the temporary file (or the device); throws usage_error when the path cannot be
  /// written, resource_error when the disk is full or failing.
  explicit atomic_file(std::string path);
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;
  /// Removes the temporary file unless commit() succeeded.
  ~atomic_file();

  int fd() const { return fd_; }
  /// Flushes to disk and renames into place; throws resource_error when the disk fails or is
  /// full, usage_error when the place was made unwritable meanwhile (gone, no permission).
  void commit();

 private:
  std::string path_;       ///< as given, for messages
  std::string temp_path_;  ///< empty when writing through
  std::string target_;     ///< the file the temporary replaces: `path_` with links followed
  int fd_ = -1;
  int temp_slot_ = -1;  ///< in the registry that SIGINT and SIGTERM clean up
  bool committed_ = false;
};

/// @brief Names the file that writing `path` would write: equal keys, one file. The device and
/// inode where it exists (links followed), else the absolute path it will be created at, links
/// followed. Empty for a character device, which several outputs may share (/dev/null).
std::string output_file_key(const std::string& path);
/// @brief The same for the file `fd` writes (e.g. standard output); empty for a terminal or
/// another character device.
std::string output_file_key(int fd);

}  // namespace nq
