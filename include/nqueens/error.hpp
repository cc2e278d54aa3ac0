#pragma once
/// @file
/// @brief Exception types the CLI maps to exit codes, and the precondition check.

#include <stdexcept>
#include <string>

namespace nq {

/// @brief Bad command line or malformed input: exit code 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief Not enough memory, disk or GPU for the request: exit code 3.
struct resource_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief No usable GPU where one was asked for (also exit code 3).
struct device_error : resource_error {
  using resource_error::resource_error;
};

namespace detail {
[[noreturn]] void expects_failed(const char* condition, const char* reason, const char* file,
                                 int line);
}  // namespace detail

}  // namespace nq

/// @brief Host-side precondition: throws std::logic_error naming the broken condition.
#define NQ_EXPECTS(cond, reason)                                                  \
  do {                                                                            \
    if (!(cond)) ::nq::detail::expects_failed(#cond, reason, __FILE__, __LINE__); \
  } while (0)
