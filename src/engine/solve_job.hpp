#pragma once
// The memory a solve needs and the algorithm it runs (not public; what the faces ask of a solve
// is in nqueens/settings.hpp).

#include <cstdint>
#include <optional>
#include <string>

#include "nqueens/engine.hpp"
#include "nqueens/lattice.hpp"
#include "nqueens/settings.hpp"

namespace nq::engine {

/// Bytes a solve as `request` holds at its peak, the process included. `lattice`: the lattice's
/// plan for the request's n and seed where the caller has made it (else made here when needed).
std::uint64_t solve_memory_bytes(const solve_request& request,
                                 const lattice_plan* lattice = nullptr);

/// check_solve_memory (nqueens/settings.hpp) with the lattice's plan the caller has made.
std::uint64_t check_solve_memory(const solve_request& request, const lattice_plan* lattice);

/// The algorithm a request runs: its own, or the default for its n.
std::string solve_algorithm(const solve_request& request);

/// A failure names the board's first clash up to this many queens (a check of O(n) memory).
inline constexpr index_t max_clash_check_n = 10000000;

}  // namespace nq::engine
