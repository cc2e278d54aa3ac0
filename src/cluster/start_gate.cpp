// Every rank ready, or none started (start_gate.hpp).

#include "cluster/start_gate.hpp"

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace nq::cluster {
namespace {

enum tag : int { tag_ready = 40, tag_verdict };

std::atomic<bool> passed{false};  // ranks played by threads (tests) share it

/// The text as words, its length first.
void pack_text(const std::string& text, std::vector<std::uint64_t>& words) {
  words.push_back(text.size());
  const std::size_t at = words.size();
  words.resize(at + (text.size() + 7) / 8, 0);
  if (!text.empty()) std::memcpy(words.data() + at, text.data(), text.size());
}

std::string unpack_text(const std::vector<std::uint64_t>& words, std::size_t at) {
  const std::uint64_t length = words.at(at);
  if (length > 8 * (words.size() - at - 1)) throw std::logic_error("a malformed start message");
  std::string text(length, '\0');
  if (length) std::memcpy(text.data(), words.data() + at + 1, length);
  return text;
}

int code_of(std::uint64_t word) { return static_cast<int>(static_cast<std::int64_t>(word)); }

}  // namespace

start_verdict pass_start_gate(channel& world, int code, const std::string& what) {
  passed.store(true);
  std::vector<std::uint64_t> words;
  if (world.rank() != 0) {
    words.push_back(static_cast<std::uint64_t>(code));
    pack_text(what, words);
    world.send(0, tag_ready, words);
    const message got = world.receive();
    if (got.tag != tag_verdict || got.source != 0 || got.words.size() < 3)
      throw std::logic_error("expected the start verdict from rank 0");
    return {code_of(got.words[0]), code_of(got.words[1]), unpack_text(got.words, 2)};
  }
  start_verdict verdict{code, 0, code ? what : std::string()};
  std::vector<char> heard(static_cast<std::size_t>(world.size()), 0);
  for (int missing = world.size() - 1; missing > 0; --missing) {
    const message got = world.receive();
    if (got.tag != tag_ready || got.words.empty() || heard.at(static_cast<std::size_t>(got.source)))
      throw std::logic_error("rank 0 expected every rank's start, got message " +
                             std::to_string(got.tag) + " from rank " + std::to_string(got.source));
    heard[static_cast<std::size_t>(got.source)] = 1;
    const int theirs = code_of(got.words[0]);
    if (theirs != 0 && (verdict.code == 0 || (verdict.rank != 0 && got.source < verdict.rank)))
      verdict = {theirs, got.source, unpack_text(got.words, 1)};
  }
  words.push_back(static_cast<std::uint64_t>(verdict.code));
  words.push_back(static_cast<std::uint64_t>(verdict.rank));
  pack_text(verdict.what, words);
  for (int r = 1; r < world.size(); ++r) world.send(r, tag_verdict, words);
  return verdict;
}

bool start_gate_passed() { return passed.load(); }

void start_together(channel& world) {
  start_verdict verdict = pass_start_gate(world, 0, "");
  if (verdict.code != 0) throw other_rank_failed(std::move(verdict));
}

}  // namespace nq::cluster
