#pragma once
// Facts about the machine for reports: the CPU, its clock, the system and the compiler.

#include <string>
#include <vector>

namespace nq {

/// The CPU model ("model name" in /proc/cpuinfo), or "unknown CPU".
std::string cpu_model_name();

/// What /proc/cpuinfo, cpufreq, os-release and uname say of this machine; each field empty
/// (or -1, or 0 for a clock) where the system does not say.
struct machine_facts {
  std::string cpu_model, cpu_vendor;
  int cpu_family = -1, cpu_model_number = -1, cpu_stepping = -1;
  std::vector<std::string> cpu_flags;
  double cpu_mhz = 0;      ///< the first CPU's clock now ("cpu MHz")
  double cpu_max_mhz = 0;  ///< cpufreq's cpuinfo_max_freq (absent in most VMs)
  std::string os;          ///< PRETTY_NAME of /etc/os-release
  std::string kernel;      ///< uname's system and release, e.g. "Linux 6.1.0"
  std::string arch;        ///< uname's machine, e.g. x86_64
};

/// The facts of the machine this runs on.
machine_facts read_machine_facts();

/// The compiler that built this code and its version, e.g. "GCC 12.2.0" or "Clang 14.0.6".
std::string compiler_name();

}  // namespace nq
