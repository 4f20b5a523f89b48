#include "base/start_thread.h"

#include <algorithm>
#include <system_error>
#include <utility>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

#include "absl/strings/str_cat.h"
#include "base/sync_point.h"

namespace ttldb {

absl::Status StartThread(std::thread* thread, std::function<void()> fn,
                         absl::string_view what) {
  try {
    TTLDB_SYNC_POINT("StartThread");
    *thread = std::thread(std::move(fn));
  } catch (const std::system_error& e) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot start a thread for ", what, ": ", e.what()));
  }
  return absl::OkStatus();
}

void LowerCurrentThreadPriority() {
#ifdef __linux__
  // On Linux a nice value belongs to the thread (its task id), not to the
  // process.
  const id_t tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, tid);
  if (nice == -1 && errno != 0) return;
  setpriority(PRIO_PROCESS, tid, std::min(nice + 10, 19));
#endif
}

}  // namespace ttldb
