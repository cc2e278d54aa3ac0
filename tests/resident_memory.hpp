#pragma once
// The peak resident memory of the test process: how a test sees that a stopped run did not
// make (touch) memory it had only reserved, without timing anything.

#include <cstdint>
#include <fstream>
#include <string>

namespace nq::test {

/// The peak resident memory (VmHWM) of this process in bytes, after `reset` set it to the
/// present (Linux: clear_refs 5); 0 when either cannot be read.
inline std::uint64_t peak_resident_bytes(bool reset = false) {
  if (reset) {
    std::ofstream clear("/proc/self/clear_refs");
    if (!(clear << "5" << std::flush)) return 0;
  }
  std::ifstream status("/proc/self/status");
  for (std::string key; status >> key;) {
    std::uint64_t kib = 0;
    if (key == "VmHWM:" && status >> kib) return kib << 10;
  }
  return 0;
}

}  // namespace nq::test
