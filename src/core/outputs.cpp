#include "core/outputs.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "nqueens/error.hpp"

namespace nq {

std::string printable(std::string_view text, std::size_t max_bytes) {
  std::string out;
  const std::size_t shown = std::min(text.size(), max_bytes);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (shown < text.size()) out += "... (" + std::to_string(text.size() - shown) + " more bytes)";
  return out;
}

void refuse_shared_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::vector<std::string> keys;
  for (const auto& [option, path] : outputs)
    keys.push_back(path.empty()  ? ""
                   : path == "-" ? output_file_key(STDOUT_FILENO)
                                 : output_file_key(path));
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      if (keys[i].empty() || keys[i] != keys[j]) continue;
      const auto& [first, first_path] = outputs[j];
      const auto& [second, second_path] = outputs[i];
      const auto named = [](const std::string& option, const std::string& path) {
        return path == "-" ? std::string("standard output") : option + " " + path;
      };
      throw usage_error(named(first, first_path) + " and " + named(second, second_path) +
                        " are one file, and each would replace the other: give each output a "
                        "file of its own");
    }
}

output_target::output_target(const std::string& path) {
  if (path.empty() || path == "-") {
    sink_ = std::make_unique<byte_sink>(STDOUT_FILENO);
    return;
  }
  file_ = std::make_unique<atomic_file>(path);
  sink_ = std::make_unique<byte_sink>(file_->fd());
}

void output_target::commit() {
  sink_->flush();
  if (file_) file_->commit();
}

}  // namespace nq
