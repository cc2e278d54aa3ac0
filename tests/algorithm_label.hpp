#pragma once
// A gtest-safe name for a local-search algorithm: "hc_sideways", "min_conflicts_column".

#include <string>

#include "nqueens/local_search.hpp"

namespace nq::test {

inline std::string label(local_algorithm a) {
  std::string name(algorithm_name(a));
  if (a == local_algorithm::min_conflicts_column) name += "-column";
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

}  // namespace nq::test
