#pragma once
// The temporary files a process has open, so that SIGINT, SIGTERM or SIGHUP removes them before
// the process dies. The signal handler only reads fixed slots and calls unlink(), both
// async-signal-safe.

#include <atomic>

namespace nq {

/// @brief Records `path` as a live temporary; returns its slot, or -1 when every slot is taken
/// (the file is then only removed on a normal exit).
int register_temp_file(const char* path);
/// @brief Forgets a slot from register_temp_file (-1 is ignored).
void unregister_temp_file(int slot);

/// @brief SIGINT, SIGTERM and SIGHUP remove the live temporaries, then end the process by the
/// same signal. Installed by main() for every command. Both this and stop_on_signal unblock the
/// three signals, so a signal that came before (a parent's blocked mask) is taken now.
void remove_temp_files_on_signal();
/// @brief SIGINT, SIGTERM and SIGHUP set `*flag` instead (a count stops and saves, a solve
/// stops its run; their temporaries go as the stack unwinds). A signal that finds the flag set
/// already ends the process as remove_temp_files_on_signal does.
void stop_on_signal(std::atomic<bool>* flag);

}  // namespace nq
