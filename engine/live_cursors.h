// The cursors a database has handed out and not yet destroyed, so that
// Close (or the Database's destruction) can end them before LevelDB goes
// away: a cursor holds a LevelDB snapshot and iterators, which must not
// outlive the leveldb::DB. Internal.
#ifndef TTLDB_ENGINE_LIVE_CURSORS_H_
#define TTLDB_ENGINE_LIVE_CURSORS_H_

#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>

#include "absl/status/statusor.h"
#include "ttldb/cursor.h"

namespace ttldb {

// Shared by the engine and every cursor it tracks, so a cursor may outlive
// the Database: its Next then returns FailedPrecondition.
class LiveCursors : public std::enable_shared_from_this<LiveCursors> {
 public:
  using Factory = std::function<absl::StatusOr<std::unique_ptr<Cursor>>()>;

  // Calls `make` (which takes a snapshot) unless CloseAll has run, and
  // returns its cursor wrapped: the wrapper forwards Next to it until
  // CloseAll, then fails with FailedPrecondition "database is closed".
  // After CloseAll: FailedPrecondition, and `make` is not called. CloseAll
  // waits for a call in progress.
  absl::StatusOr<std::unique_ptr<Cursor>> Open(const Factory& make);

  // Destroys every tracked cursor (each releases its snapshot and
  // iterators), waiting for a Next in progress on another thread to return.
  // Later Next calls fail. Idempotent.
  void CloseAll();

 private:
  class Tracked;
  // Exclusive: CloseAll. Shared: everything that may touch LevelDB (Open,
  // a wrapper's Next and destruction), so cursors run concurrently and
  // CloseAll waits for them.
  std::shared_mutex mu_;
  bool closed_ = false;  // guarded by mu_
  // Guards cursors_ (changed under the shared lock).
  std::mutex set_mu_;
  std::set<Tracked*> cursors_;
};

}  // namespace ttldb

#endif  // TTLDB_ENGINE_LIVE_CURSORS_H_
