#include "nqueens/error.hpp"

#include <string>

namespace nq::detail {

void expects_failed(const char* condition, const char* reason, const char* file, int line) {
  throw std::logic_error(std::string("precondition failed: ") + reason + " (" + condition +
                         ") at " + file + ":" + std::to_string(line));
}

}  // namespace nq::detail
