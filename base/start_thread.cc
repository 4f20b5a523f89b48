#include "base/start_thread.h"

#include <system_error>
#include <utility>

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

}  // namespace ttldb
