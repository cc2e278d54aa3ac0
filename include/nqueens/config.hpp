#pragma once
/// @file
/// @brief Types and the host/device marker shared by every compilation zone.

#include <cstdint>

#if defined(__CUDACC__)
#define NQ_HD __host__ __device__
#else
#define NQ_HD
#endif

namespace nq {

/// @brief The row of one queen. Boards hold at most 2^32 - 1 queens.
using row_t = std::uint32_t;
/// @brief Columns, line indices and pair counts: 64 bits, since col + row overflows 32.
using index_t = std::uint64_t;

/// @brief The largest board the row type can describe.
inline constexpr index_t max_n = 0xFFFFFFFFull;

/// @brief The largest board the climbers take: counts are 16-bit, loads 32-bit, and the
/// first-choice order holds n(n-1) 32-bit move numbers. Huge boards use min-conflicts.
inline constexpr index_t max_climber_n = 65535;

}  // namespace nq
