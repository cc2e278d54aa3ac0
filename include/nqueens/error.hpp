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

/// @brief A setting of the wrong form or out of its range (a usage_error, exit code 2). It
/// names the setting as the command line does without its dashes ("checkpoint-interval"), so
/// that each face spells it its own way: what() is the command line's ("--checkpoint-interval
/// must be ..."), Python's message is "checkpoint_interval must be ...".
class setting_error : public usage_error {
 public:
  setting_error(std::string setting, std::string problem);
  const std::string& setting() const { return setting_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string setting_, problem_;
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
