#pragma once
// Where the kernel tests run: on a device (gpu_test), or in the host execution
// (host_kernel_test), where one CPU thread plays the whole grid and the work is scaled down to
// keep CI short.

#include "sanitizers.hpp"

#ifndef NQ_HOST_EXECUTION
#define NQ_HOST_EXECUTION 0
#endif

namespace nq::test {

inline constexpr bool host_execution = NQ_HOST_EXECUTION != 0;

/// `device` on a GPU, `host` in the host execution.
template <class T>
constexpr T device_or_host(T device, T host) {
  return host_execution ? host : device;
}

/// `device` on a GPU, `host` in the host execution, `raced` in the host execution under
/// ThreadSanitizer (the race detector's run needs every kernel, not every size).
template <class T>
constexpr T device_or_host(T device, T host, T raced) {
  return host_execution ? (under_thread_sanitizer() ? raced : host) : device;
}

}  // namespace nq::test
