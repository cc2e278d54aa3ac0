#include "core/machine.hpp"

#include <sys/utsname.h>

#include <fstream>
#include <sstream>

namespace nq {

namespace {

/// The value after the colon of a /proc/cpuinfo line, spaces trimmed.
std::string value_of(const std::string& line) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return {};
  const auto start = line.find_first_not_of(" \t", colon + 1);
  return start == std::string::npos ? std::string() : line.substr(start);
}

int number_or_unknown(const std::string& text) {
  try {
    return text.empty() ? -1 : std::stoi(text);
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (!line.starts_with("model name")) continue;
    const std::string name = value_of(line);
    return name.empty() ? "unknown CPU" : name;
  }
  return "unknown CPU";
}

machine_facts read_machine_facts() {
  machine_facts facts;
  facts.cpu_model = cpu_model_name();
  std::ifstream cpuinfo("/proc/cpuinfo");
  // The first processor's lines: every core of the machines we run on is alike.
  for (std::string line; std::getline(cpuinfo, line) && !line.empty();) {
    const auto key = line.substr(0, line.find_first_of("\t:"));
    if (key == "vendor_id") facts.cpu_vendor = value_of(line);
    if (key == "cpu family") facts.cpu_family = number_or_unknown(value_of(line));
    if (key == "model") facts.cpu_model_number = number_or_unknown(value_of(line));
    if (key == "stepping") facts.cpu_stepping = number_or_unknown(value_of(line));
    if (key == "cpu MHz") {
      try {
        facts.cpu_mhz = std::stod(value_of(line));
      } catch (const std::exception&) {
      }
    }
    if (key == "flags") {
      std::istringstream words(value_of(line));
      for (std::string flag; words >> flag;) facts.cpu_flags.push_back(flag);
    }
  }
  std::ifstream max_freq("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  if (double khz = 0; max_freq >> khz && khz > 0) facts.cpu_max_mhz = khz / 1000;
  std::ifstream release("/etc/os-release");
  for (std::string line; std::getline(release, line);) {
    if (!line.starts_with("PRETTY_NAME=")) continue;
    std::string name = line.substr(12);
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
      name = name.substr(1, name.size() - 2);
    facts.os = name;
  }
  if (utsname names{}; uname(&names) == 0) {
    facts.kernel = std::string(names.sysname) + " " + names.release;
    facts.arch = names.machine;
  }
  return facts;
}

std::string compiler_name() {
#if defined(__clang__)
  return "Clang " + std::to_string(__clang_major__) + "." + std::to_string(__clang_minor__) + "." +
         std::to_string(__clang_patchlevel__);
#elif defined(__GNUC__)
  return "GCC " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
         std::to_string(__GNUC_PATCHLEVEL__);
#else
  return "unknown compiler";
#endif
}

}  // namespace nq
