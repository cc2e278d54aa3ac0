#pragma once
// A convergence trace as CSV: a header naming the algorithm's columns, then one row for the
// starting state and one per step (and per restart). Written atomically.

#include <memory>
#include <string>

#include "core/atomic_file.hpp"
#include "core/board_io.hpp"
#include "nqueens/local_search.hpp"

namespace nq {

class trace_writer {
 public:
  /// Creates the file now, so a bad path fails before the search.
  trace_writer(const std::string& path, local_algorithm algorithm);
  /// The callback to hand to the run; valid while the writer lives.
  trace_fn callback();
  /// Flushes and renames the file into place.
  void commit();

 private:
  void write(const trace_row& row);

  atomic_file file_;
  byte_sink sink_;
  local_algorithm algorithm_;
};

}  // namespace nq
