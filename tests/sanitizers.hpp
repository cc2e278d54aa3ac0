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

}  // namespace nq::test
