#pragma once
// Where the kernel tests run: on a device (gpu_test), or in the host execution
// (host_kernel_test), where one CPU thread plays the whole grid and the work is scaled down to
// keep CI short.

#include <cstdlib>
#include <cstring>

#include "sanitizers.hpp"

namespace nq::test {

/// Whether this binary runs the kernels in the host execution (host_kernel_test) or on a device
/// (gpu_test). A value each binary links (kernel_test_execution.cpp, compiled with its
/// NQ_HOST_EXECUTION), not a macro: the test files are compiled once for both binaries.
extern const bool host_execution;

/// Whether the tests take the host execution's sizes on a device too: NQ_TEST_SIZES=host, set
/// by bench/gpu_check.sh under compute-sanitizer, which slows a kernel 10 to 1000 times.
inline bool host_sizes() {
  static const bool chosen = [] {
    const char* sizes = std::getenv("NQ_TEST_SIZES");
    return host_execution || (sizes != nullptr && std::strcmp(sizes, "host") == 0);
  }();
  return chosen;
}

/// `device` on a GPU, `host` in the host execution (or on a device with NQ_TEST_SIZES=host).
template <class T>
T device_or_host(T device, T host) {
  return host_sizes() ? host : device;
}

/// `device` on a GPU, `host` in the host execution, `raced` in the host execution under
/// ThreadSanitizer (the race detector's run needs every kernel, not every size).
template <class T>
T device_or_host(T device, T host, T raced) {
  return host_execution && under_thread_sanitizer() ? raced : device_or_host(device, host);
}

}  // namespace nq::test
