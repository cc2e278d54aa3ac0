#include "core/temp_files.hpp"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nq {
namespace {

constexpr int slot_count = 32;

struct temp_slot {
  std::atomic<int> state{0};  // 0 free, 1 being written, 2 live
  char path[PATH_MAX + 1] = {};
};

temp_slot slots[slot_count];
std::atomic<std::atomic<bool>*> stop_flag{nullptr};
constexpr int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void on_signal(int signal) {
  // The first signal asks the work to stop; a second one, while it winds down, ends the process.
  if (auto* flag = stop_flag.load(); flag && !flag->exchange(true)) return;
  const int saved_errno = errno;
  for (auto& slot : slots)
    if (slot.state.load(std::memory_order_acquire) == 2) ::unlink(slot.path);
  errno = saved_errno;
  // Die by the same signal, so that the parent sees what happened.
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  ::sigemptyset(&action.sa_mask);
  ::sigaction(signal, &action, nullptr);
  ::raise(signal);
}

void install() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  ::sigemptyset(&action.sa_mask);
  for (const int signal : handled_signals) ::sigaddset(&action.sa_mask, signal);
  for (const int signal : handled_signals) ::sigaction(signal, &action, nullptr);
  // A process started with them blocked (a parent's mask is inherited) still takes them, one
  // already pending included.
  ::pthread_sigmask(SIG_UNBLOCK, &action.sa_mask, nullptr);
}

}  // namespace

int register_temp_file(const char* path) {
  if (std::strlen(path) > PATH_MAX) return -1;
  for (int i = 0; i < slot_count; ++i) {
    int expected = 0;
    if (!slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::strcpy(slots[i].path, path);
    slots[i].state.store(2, std::memory_order_release);
    return i;
  }
  return -1;
}

void unregister_temp_file(int slot) {
  if (slot >= 0 && slot < slot_count) slots[slot].state.store(0, std::memory_order_release);
}

void remove_temp_files_on_signal() {
  stop_flag.store(nullptr);
  install();
}

void stop_on_signal(std::atomic<bool>* flag) {
  stop_flag.store(flag);
  install();
}

}  // namespace nq
