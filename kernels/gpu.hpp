#pragma once
/// @file
/// @brief The CUDA backend as seen from g++-compiled code: no CUDA types cross this header.

#include <span>
#include <string>

#include "nqueens/config.hpp"

namespace nq::gpu {

/// @brief Usable CUDA devices; 0 when there is no driver or no device. Never throws.
int device_count();

/// @brief The device's name, e.g. "NVIDIA H100 80GB HBM3".
std::string device_name(int device = 0);

/// @brief Attacking pairs of a board, counted on the GPU with the shared line logic.
/// Throws nq::cuda_error (a resource_error) when the GPU fails or lacks memory.
index_t count_attacking_pairs(std::span<const row_t> queen_row);

}  // namespace nq::gpu
