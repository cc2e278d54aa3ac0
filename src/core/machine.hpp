#pragma once
// Facts about the machine for reports: the CPU's name.

#include <string>

namespace nq {

/// The CPU model ("model name" in /proc/cpuinfo), or "unknown CPU".
std::string cpu_model_name();

}  // namespace nq
