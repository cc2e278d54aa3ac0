#pragma once
// The checkpoint of a count: which subproblems are finished and what each contributed, in a
// small JSON file that is always replaced whole (written beside it, then renamed).

#include <cstdint>
#include <map>
#include <string>

#include "nqueens/count.hpp"

namespace nq::detail {

struct count_checkpoint {
  int n = 0;
  std::string split;  ///< how the search was split: "frames", or "rows-K" for K-row prefixes
  std::uint64_t subproblems = 0;
  std::map<std::uint64_t, count_tally> done;  ///< by subproblem index
};

/// The checkpoint in `path`, or none when the file does not exist. Throws usage_error when it
/// is not a regular file, unreadable, corrupt, or made for another n or another split.
bool read_count_checkpoint(const std::string& path, int n, const std::string& split,
                           std::uint64_t subproblems, count_checkpoint& out);

/// Replaces `path` atomically; throws usage_error when it cannot be created, resource_error
/// when it cannot be finished.
void write_count_checkpoint(const std::string& path, const count_checkpoint& checkpoint);

}  // namespace nq::detail
