#pragma once
// What the test build was built with, for tests whose work or limits depend on it.

namespace nq::test {

/// Whether this build runs under AddressSanitizer, which cannot start under `ulimit -v`.
constexpr bool under_address_sanitizer() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#endif
#endif
  return false;
}

/// Whether this build runs under ThreadSanitizer, where the host execution's kernels run each
/// GPU thread as a fiber and every access is checked: 10 to 100 times slower.
constexpr bool under_thread_sanitizer() {
#if defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
  return true;
#endif
#endif
  return false;
}

}  // namespace nq::test
