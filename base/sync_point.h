// Named sync points (RocksDB's TEST_SYNC_POINT): production code marks a
// point with TTLDB_SYNC_POINT("Monitor::BeforeDelete"); a test installs a
// callback there to force an interleaving deterministically (for example,
// "the monitor has chosen a document" before "a client touches it").
// With no callback installed the cost is one relaxed atomic load.
#ifndef TTLDB_BASE_SYNC_POINT_H_
#define TTLDB_BASE_SYNC_POINT_H_

#include <atomic>
#include <functional>
#include <string>

#include "absl/strings/string_view.h"

namespace ttldb {

class SyncPoint {
 public:
  // Installs `callback` at `name`, replacing any earlier one. Thread-safe.
  static void Set(absl::string_view name, std::function<void()> callback);
  // Removes every callback.
  static void ClearAll();
  // Runs the callback installed at `name`, if any.
  static void Process(absl::string_view name);

  static std::atomic<bool> enabled;
};

}  // namespace ttldb

#define TTLDB_SYNC_POINT(name)                                       \
  do {                                                               \
    if (::ttldb::SyncPoint::enabled.load(std::memory_order_relaxed)) \
      ::ttldb::SyncPoint::Process(name);                             \
  } while (0)

#endif  // TTLDB_BASE_SYNC_POINT_H_
