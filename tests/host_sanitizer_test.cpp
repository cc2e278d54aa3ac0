// The host execution as a GPU sanitizer: each detector shown catching the bug it is for, on
// small kernels written for the purpose (mutants of a correct kernel), and passing the correct
// kernel. Thread orders (NQ_HOST_ORDER) catch a result that depends on the order of a phase's
// threads; ThreadSanitizer, with GPU threads as fibers (host/fibers.hpp), catches threads of a
// phase or blocks of a launch that share a byte without an atomic. The TSan cases run the
// mutant in a child process (this binary, the test named Mutant.*) and read its report; they
// skip in builds without TSan. Host execution only.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/exec.cuh"
#include "kernels/host/fibers.hpp"
#include "kernels/host/schedule.hpp"
#include "kernels/runtime.cuh"
#include "scratch.hpp"

namespace nq::cuda {
namespace {

constexpr unsigned block_threads = 64;

/// Every thread of the block writes its number into one shared word in the same phase, then
/// thread 0 reports it: the last writer wins, so the result is the order's (a race on a device).
struct last_writer_wins {
  struct shared_state {
    unsigned word;
  };
  unsigned* out;
  template <class Block>
  NQ_HD void operator()(Block& block, shared_state& s) const {
    block.each([&](unsigned t) { s.word = t; });
    block.each([&](unsigned t) {
      if (t == 0) out[block.index()] = s.word;
    });
  }
};

/// Thread t writes t * t into shared word t, then reads its neighbour's: with the barrier
/// between (`barrier`), every order gives the same; without it (the mutant), a thread may read
/// its neighbour's word before the neighbour has written it.
struct neighbours_word {
  struct shared_state {
    unsigned word[block_threads];
  };
  unsigned* out;
  bool barrier;
  template <class Block>
  NQ_HD void operator()(Block& block, shared_state& s) const {
    const unsigned base = block.index() * block_threads;
    if (barrier) {
      block.each([&](unsigned t) { s.word[t] = t * t; });
      block.each([&](unsigned t) { out[base + t] = s.word[(t + 1) % block_threads]; });
    } else {
      block.each([&](unsigned t) {
        s.word[t] = t * t;
        out[base + t] = s.word[(t + 1) % block_threads];
      });
    }
  }
};

/// A block reduction and prefix sum through the block collectives: the same in every order.
struct collectives {
  struct shared_state {};
  std::uint64_t* out;
  template <class Block>
  NQ_HD void operator()(Block& block, shared_state&) const {
    per_thread<std::uint64_t, Block::copies> before;
    const auto value = [&](unsigned t) { return std::uint64_t{(t * 37u + 11u) % 64u}; };
    const std::int32_t least =
        block.min([&](unsigned t) { return static_cast<std::int32_t>(value(t)) - 20; });
    const std::uint64_t total = block.exclusive_sum(value, before);
    block.each([&](unsigned t) { out[t] = before[t]; });
    block.each([&](unsigned t) {
      if (t == 0)
        out[block_threads] = total,
        out[block_threads + 1] = static_cast<std::uint64_t>(least + 100);
    });
  }
};

/// Every thread adds its term to one double with an atomic: the floating-point sum depends on
/// the order of the additions (1e16 - 1e16 + 1 is 1, 1 - 1e16 + 1e16 is 0), a reduction a
/// device would make differently from run to run. Atomic, so TSan has nothing to say.
struct float_atomic_sum {
  double* sum;
  NQ_HD void operator()(thread_id id) const {
    const double term = id.global() % 3 == 0 ? 1e16 : id.global() % 3 == 1 ? -1e16 : 1.0;
    device_atomic<double> at(*sum);
    double seen = at.load(order::memory_order_relaxed);
    while (!at.compare_exchange_weak(seen, seen + term, order::memory_order_relaxed)) {
    }
  }
};

/// Thread 0 of every block writes one global word (`atomic`: adds to it with an atomic).
struct one_global_word {
  unsigned* word;
  bool atomic;
  NQ_HD void operator()(thread_id id) const {
    if (id.thread != 0) return;
    if (atomic)
      atomic_add(word, 1u);
    else
      *word = id.block;
  }
};

template <class T>
std::vector<T> copied_back(device_buffer<T>& buffer) {
  std::vector<T> host(buffer.size());
  copy_to_host(host.data(), buffer.data(), host.size());
  return host;
}

/// The schedules the detectors compare; the test's own is restored at the end.
class ScheduleTest : public ::testing::Test {
 protected:
  void TearDown() override { host::set_schedule(saved_); }
  static std::vector<host::schedule> schedules() {
    return {{host::run_order::forward, 0, 1},
            {host::run_order::reverse, 0, 1},
            {host::run_order::shuffled, 3, 1},
            {host::run_order::shuffled, 4, 2}};
  }
  host::schedule saved_ = host::current_schedule();
};

using ThreadOrder = ScheduleTest;
using MissingBarrier = ScheduleTest;

/// The mutants that race run in-process only without ThreadSanitizer, which would report them
/// (its own tests below run them in a child and read the report).
#define NQ_SKIP_RACY_MUTANT_UNDER_TSAN()                             \
  if (host::fibers_on)                                               \
  GTEST_SKIP() << "a racing mutant: under TSan, see SharedRace and " \
                  "MissingBarrier's TSan cases"

std::vector<unsigned> last_writers(unsigned blocks) {
  device_buffer<unsigned> out(blocks);
  launch_blocks<block_threads>("last_writer_wins", blocks, 0, last_writer_wins{out.data()});
  return copied_back(out);
}

std::vector<unsigned> neighbours(unsigned blocks, bool barrier) {
  device_buffer<unsigned> out(blocks * block_threads);
  launch_blocks<block_threads>(barrier ? "neighbours_word" : "neighbours_word_without_barrier",
                               blocks, 0, neighbours_word{out.data(), barrier});
  return copied_back(out);
}

TEST_F(ThreadOrder, AResultTheLastWriterDecidesDiffersBetweenOrders) {
  NQ_SKIP_RACY_MUTANT_UNDER_TSAN();
  std::set<std::vector<unsigned>> seen;
  for (const host::schedule& s : schedules()) {
    host::set_schedule(s);
    seen.insert(last_writers(4));
  }
  EXPECT_GT(seen.size(), 1u) << "every order gave the same last writer: the orders catch nothing";
  host::set_schedule(schedules()[0]);
  EXPECT_EQ(last_writers(1), std::vector<unsigned>{block_threads - 1});  // forward: the last
  host::set_schedule(schedules()[1]);
  EXPECT_EQ(last_writers(1), std::vector<unsigned>{0});  // reversed: the first
}

TEST_F(ThreadOrder, AFloatingPointAtomicSumDiffersBetweenOrders) {
  std::set<double> sums;
  for (const host::schedule& s : schedules()) {
    host::set_schedule(s);
    device_buffer<double> sum(1);
    const double zero = 0;
    copy_to_device(sum.data(), &zero, 1);
    launch_threads("float_atomic_sum", 2, 3, float_atomic_sum{sum.data()});
    sums.insert(copied_back(sum)[0]);
  }
  EXPECT_GT(sums.size(), 1u) << "the order of the additions never showed";
}

TEST_F(ThreadOrder, BlockCollectivesGiveTheSameInEveryOrder) {
  std::set<std::vector<std::uint64_t>> seen;
  for (const host::schedule& s : schedules()) {
    host::set_schedule(s);
    device_buffer<std::uint64_t> out(block_threads + 2);
    launch_blocks<block_threads>("collectives", 1, 0, collectives{out.data()});
    seen.insert(copied_back(out));
  }
  ASSERT_EQ(seen.size(), 1u);
  const std::vector<std::uint64_t>& out = *seen.begin();
  std::uint64_t sum = 0;
  for (unsigned t = 0; t < block_threads; ++t) {
    EXPECT_EQ(out[t], sum) << t;
    sum += (t * 37u + 11u) % 64u;
  }
  EXPECT_EQ(out[block_threads], sum);
  EXPECT_EQ(out[block_threads + 1], 80u);  // the least value, 0, less 20, plus 100
}

TEST_F(MissingBarrier, ANeighboursWordReadInTheSamePhaseDiffersBetweenOrders) {
  NQ_SKIP_RACY_MUTANT_UNDER_TSAN();
  std::set<std::vector<unsigned>> with, without;
  for (const host::schedule& s : schedules()) {
    host::set_schedule(s);
    with.insert(neighbours(3, true));
    without.insert(neighbours(3, false));
  }
  ASSERT_EQ(with.size(), 1u) << "the correct kernel depends on the order";
  for (unsigned i = 0; i < 3 * block_threads; ++i) {
    const unsigned next = (i % block_threads + 1) % block_threads;
    EXPECT_EQ((*with.begin())[i], next * next) << i;
  }
  EXPECT_GT(without.size(), 1u) << "the missing barrier showed in no order";
}

// The mutants for ThreadSanitizer, run in a child process (RaceDetector and SharedRace spawn
// them); skipped when run as tests of their own.
class Mutant : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("NQ_RUN_MUTANT")) GTEST_SKIP() << "a mutant, run by the race detector's tests";
  }
};

TEST_F(Mutant, TwoThreadsWriteOneSharedWord) { last_writers(1); }
TEST_F(Mutant, ABarrierIsMissing) { neighbours(1, false); }
TEST_F(Mutant, TwoBlocksWriteOneGlobalWord) {
  device_buffer<unsigned> word(1);
  launch_threads("one_global_word", 2, 32, one_global_word{word.data(), false});
  synchronize();
}
TEST_F(Mutant, TwoBlocksAddToOneGlobalWordAtomically) {
  device_buffer<unsigned> word(1);
  const unsigned zero = 0;
  copy_to_device(word.data(), &zero, 1);
  launch_threads("one_global_word", 8, 32, one_global_word{word.data(), true});
  EXPECT_EQ(copied_back(word)[0], 8u);
}
TEST_F(Mutant, CorrectKernelsRunClean) {
  neighbours(3, true);
  device_buffer<std::uint64_t> out(block_threads + 2);
  launch_blocks<block_threads>("collectives", 1, 0, collectives{out.data()});
  synchronize();
}

struct child_result {
  int code = -1;
  std::string err;
};

/// Runs this binary's test Mutant.`name` under ThreadSanitizer in a child process.
child_result run_mutant(const std::string& name, const test::scratch_dir& dir) {
  const auto err = dir / "mutant.err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> args{"/proc/self/exe", "--gtest_filter=Mutant." + name};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env{"NQ_RUN_MUTANT=1", "NQ_HOST_ORDER=forward",
                               "NQ_HOST_BLOCK_THREADS=1",
                               "TSAN_OPTIONS=exitcode=66 halt_on_error=0 history_size=2"};
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (entry.rfind("NQ_RUN_MUTANT=", 0) && entry.rfind("NQ_HOST_", 0) &&
        entry.rfind("TSAN_OPTIONS=", 0))
      env.push_back(entry);
  }
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  child_result result;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  std::ifstream in(err);
  std::stringstream text;
  text << in.rdbuf();
  result.err = text.str();
  return result;
}

class RaceDetector : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!host::fibers_on) GTEST_SKIP() << "needs a ThreadSanitizer build (NQ_SANITIZE_THREAD)";
  }
  test::scratch_dir dir_;
};
using SharedRace = RaceDetector;

// TSan's report names both GPU threads (their fibers) and the kernel.
void expect_race(const child_result& r, const std::string& first, const std::string& second) {
  EXPECT_EQ(r.code, 66) << r.err;
  EXPECT_NE(r.err.find("WARNING: ThreadSanitizer: data race"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(first), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(second), std::string::npos) << r.err;
}

TEST_F(SharedRace, TwoThreadsWritingOneSharedWordInAPhaseAreReported) {
  expect_race(run_mutant("TwoThreadsWriteOneSharedWord", dir_), "'last_writer_wins block 0 thread",
              "Location is heap block");
}

TEST_F(MissingBarrier, AMissingBarrierIsReportedByThreadSanitizer) {
  if (!host::fibers_on) GTEST_SKIP() << "needs a ThreadSanitizer build (NQ_SANITIZE_THREAD)";
  test::scratch_dir dir;
  expect_race(run_mutant("ABarrierIsMissing", dir),
              "'neighbours_word_without_barrier block 0 thread", "Location is heap block");
}

TEST_F(RaceDetector, TwoBlocksWritingOneGlobalWordAreReported) {
  expect_race(run_mutant("TwoBlocksWriteOneGlobalWord", dir_), "'one_global_word block 0 thread 0",
              "'one_global_word block 1 thread 0");
}

TEST_F(RaceDetector, AtomicsAreExempt) {
  const child_result r = run_mutant("TwoBlocksAddToOneGlobalWordAtomically", dir_);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("data race"), std::string::npos) << r.err;
}

TEST_F(RaceDetector, CorrectKernelsAreNotReported) {
  const child_result r = run_mutant("CorrectKernelsRunClean", dir_);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("data race"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace nq::cuda
