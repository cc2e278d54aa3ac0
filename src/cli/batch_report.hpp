#pragma once
// How a batch is described to a person: its summary and its progress line, shared by `batch`,
// its sweeps and the shell (its JSON record is the engine's, nq::to_json).

#include <string>

#include "nqueens/engine.hpp"

namespace nq::cli {

/// A progress line on stderr, shown on a terminal once a batch has run for a second.
class batch_progress {
 public:
  batch_progress(std::uint64_t runs, bool enabled) : runs_(runs), enabled_(enabled) {}
  ~batch_progress() { finish(); }
  void update(std::uint64_t done, double seconds);
  void finish();

 private:
  std::uint64_t runs_;
  bool enabled_;
  bool shown_ = false;
};

}  // namespace nq::cli
