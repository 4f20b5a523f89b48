// Starting a thread without risking the process: std::thread's constructor
// throws std::system_error when the system refuses a thread (EAGAIN under a
// process limit such as systemd's TasksMax or `ulimit -u`, or a memory
// limit), and an exception nobody catches aborts the server (issue 28 item
// 11). Every thread ttldb starts goes through StartThread, which turns that
// refusal into a Status the caller handles: a connection is closed, a
// database open fails.
#ifndef TTLDB_BASE_START_THREAD_H_
#define TTLDB_BASE_START_THREAD_H_

#include <functional>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace ttldb {

// Runs `fn` on a new thread stored in *thread (which must not be joinable).
// ResourceExhausted "cannot start a thread for <what>: <reason>" if the
// system refuses; *thread is then unchanged. Tests inject the refusal at
// the sync point "StartThread" (a callback that throws std::system_error).
absl::Status StartThread(std::thread* thread, std::function<void()> fn,
                         absl::string_view what);

// Lowers the calling thread's CPU priority for good (Linux: its nice value
// +10, at most 19; elsewhere nothing), for a thread that does background
// work: when it and a foreground thread both want a core, the scheduler
// runs the foreground one first, and a background thread that wakes does
// not preempt it (as RocksDB's Env::LowerThreadPoolCPUPriority does for
// its compaction threads). The TTL monitor's thread calls it when it
// starts (issue 29 item 5). Best effort: a refusal is ignored.
void LowerCurrentThreadPriority();

}  // namespace ttldb

#endif  // TTLDB_BASE_START_THREAD_H_
