#include "cli/batch_report.hpp"

#include <cstdio>


namespace nq::cli {
void batch_progress::update(std::uint64_t done, double seconds) {
  if (!enabled_ || seconds < 1.0 || done == 0) return;
  const double rate = static_cast<double>(done) / seconds;
  std::fprintf(stderr,
               "\rbatch %5.1f%% | %llu of %llu runs | %.3g runs/s | about %.0f s left\033[K",
               100.0 * static_cast<double>(done) / static_cast<double>(runs_),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(runs_), rate,
               static_cast<double>(runs_ - done) / rate);
  shown_ = true;
}

void batch_progress::finish() {
  if (shown_) std::fputs("\r\033[K", stderr);
  shown_ = false;
}

}  // namespace nq::cli
