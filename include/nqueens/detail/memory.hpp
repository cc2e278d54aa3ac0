#pragma once
// How much memory the process may use, and byte sizes as users write them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nq {

/// Memory this process can still take: MemAvailable, lowered by a cgroup v2 limit if one is
/// set. Empty when neither can be read.
std::optional<std::uint64_t> available_memory_bytes();

/// Parses "1048576", "512K", "64M", "8G" or "1T" (powers of 1024; a trailing "B"/"iB" is
/// allowed); throws usage_error.
std::uint64_t parse_byte_size(std::string_view text);

/// "1.50 GiB", "640 KiB", "12 bytes".
std::string format_bytes(std::uint64_t bytes);

}  // namespace nq
