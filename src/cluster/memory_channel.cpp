// Endpoints in one process: an inbox per rank behind one mutex. Messages between two ranks
// arrive in the order they were sent, as MPI promises.

#include <cstdlib>
#include <deque>
#include <mutex>

#include "cluster/channel.hpp"
#include "nqueens/error.hpp"

namespace nq::cluster {
namespace {

struct inboxes {
  std::mutex mutex;
  std::vector<std::deque<message>> box;
};

class memory_channel final : public channel {
 public:
  memory_channel(std::shared_ptr<inboxes> shared, int rank)
      : shared_(std::move(shared)), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(shared_->box.size()); }
  int local_rank() const override { return rank_; }  // every rank in this process
  int local_size() const override { return size(); }
  [[noreturn]] void abort_all(int) override { std::abort(); }

 protected:
  void post(int to, int tag, std::span<const std::uint64_t> words) override {
    NQ_EXPECTS(to >= 0 && to < size(), "a message to a rank that exists");
    const std::lock_guard lock(shared_->mutex);
    shared_->box[static_cast<std::size_t>(to)].push_back(
        {rank_, tag, std::vector<std::uint64_t>(words.begin(), words.end())});
  }
  std::optional<message> poll() override {
    const std::lock_guard lock(shared_->mutex);
    auto& mine = shared_->box[static_cast<std::size_t>(rank_)];
    if (mine.empty()) return std::nullopt;
    message got = std::move(mine.front());
    mine.pop_front();
    return got;
  }

 private:
  std::shared_ptr<inboxes> shared_;
  int rank_;
};

}  // namespace

std::vector<std::unique_ptr<channel>> memory_world(int size) {
  NQ_EXPECTS(size >= 1, "a world has a rank");
  auto shared = std::make_shared<inboxes>();
  shared->box.resize(static_cast<std::size_t>(size));
  std::vector<std::unique_ptr<channel>> world;
  for (int r = 0; r < size; ++r) world.push_back(std::make_unique<memory_channel>(shared, r));
  return world;
}

}  // namespace nq::cluster
