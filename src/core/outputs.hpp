#pragma once
// Where a program's results go and how its one-line messages read: standard output or a file
// that appears whole or not at all, outputs that must not be one file, and text made safe to
// quote.

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/board_io.hpp"

namespace nq {

/// `text` made safe for a one-line message: control bytes as \xNN, and at most `max_bytes`
/// (the rest replaced by a count), so hostile input cannot drive the terminal or flood it.
std::string printable(std::string_view text, std::size_t max_bytes = 200);

/// Refuses (usage_error) outputs that would write one file, each replacing the other's: pairs of
/// an option's name and its file, "" for an option not given and "-" for standard output. Two
/// names of one file (links, ./x and x) count as one; character devices (/dev/null) may be
/// shared.
void refuse_shared_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

/// Standard output, or a file that appears complete or not at all.
class output_target {
 public:
  /// "" or "-" means standard output. A file is created now, so a bad path fails early.
  explicit output_target(const std::string& path);
  byte_sink& sink() { return *sink_; }
  /// Flushes, and for a file renames it into place.
  void commit();

 private:
  std::unique_ptr<atomic_file> file_;
  std::unique_ptr<byte_sink> sink_;
};

}  // namespace nq
