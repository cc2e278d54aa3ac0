#include "nqueens/error.hpp"

#include <string>
#include <utility>

namespace nq {

setting_error::setting_error(std::string setting, std::string problem)
    : usage_error("--" + setting + " " + problem),
      setting_(std::move(setting)),
      problem_(std::move(problem)) {}

}  // namespace nq

namespace nq::detail {

void expects_failed(const char* condition, const char* reason, const char* file, int line) {
  throw std::logic_error(std::string("precondition failed: ") + reason + " (" + condition +
                         ") at " + file + ":" + std::to_string(line));
}

}  // namespace nq::detail
