// Server-side cursors: the open results of find (and later aggregate and
// listCollections) that clients read batch by batch with getMore.
//
// Each cursor has a random positive 64-bit id, at least 2^53 (MongoDB's are
// random too; see RandomId),
// the namespace it reads ("db.coll"), the connection that opened it and
// the engine cursor. A cursor is removed when it is exhausted, killed
// (killCursors), idle longer than the timeout (MongoDB's
// cursorTimeoutMillis, 10 minutes), or when the connection that opened it
// is destroyed. A connection may hold a bounded number of cursors.
//
// getMore may come from any connection (drivers pool connections and do not
// pin a cursor to the one that opened it); the cursor still belongs to the
// connection that opened it. Under --auth it also belongs to the user that
// opened it: getMore and killCursors of another user fail (CheckOut,
// MayKill).
//
// Bounded: a connection may hold max_per_connection cursors and the server
// max_total; beyond either, opening one fails (Register).
//
// Thread-safe. A cursor is checked out by one getMore at a time; a second
// concurrent getMore fails with 143 CursorInUse. Every operation costs the
// same however many cursors are open (issue 28 item 12): cursors are found
// by id in a hash map, idle ones are found in order of last use (reaping
// looks only at those past the timeout), and a connection's cursors are
// listed under it.
#ifndef TTLDB_COMMANDS_CURSOR_STORE_H_
#define TTLDB_COMMANDS_CURSOR_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "commands/connection.h"
#include "ttldb/clock.h"
#include "ttldb/cursor.h"
#include "ttldb/database.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// One open cursor. Fields other than the engine cursor are set at Register.
struct ServerCursor {
  int64_t id = 0;
  std::string db;  // database name
  std::string ns;  // "db.coll", as replies name it
  uint64_t connection_id = 0;
  // Under --auth, the user authenticated on the connection that opened it
  // (nullopt: none, or a server without --auth), as ClientCursor::
  // getAuthenticatedUser.
  std::optional<UserName> owner;
  // The logical session of the command that opened it (its lsid and the
  // digest of its user, as mongod's LogicalSessionId, in mongod's printed
  // form "<id> - <uid> -  - "); nullopt when it had no lsid
  // (ClientCursor::getSessionId).
  std::optional<std::string> session;
  // Keeps the database open while the cursor lives.
  std::shared_ptr<Database> database;
  std::unique_ptr<Cursor> cursor;
  // A change stream's cursor (commands/change_stream_cursor.h) reads this
  // instead of `cursor`: tailable and awaitData.
  std::unique_ptr<ChangeStream> stream;
  // A tailable find on a capped collection (commands/tailable_cursor.h):
  // at the end of the documents it stays open. Null for other cursors.
  std::shared_ptr<struct TailState> tail;
  // A document read but not returned (it did not fit in the last batch).
  std::optional<Value> pending;
  // Documents still to return under the find's limit; -1: no limit.
  int64_t remaining = -1;
  // maxTimeMS: what is left of the find's / aggregate's time limit; each
  // getMore runs under it and spends it (ClientCursor's leftover max time).
  absl::Duration time_left = absl::InfiniteDuration();

  // Store bookkeeping. last_used is its key in the idle index while it is
  // not checked out.
  absl::Time last_used;
  bool in_use = false;
  bool killed = false;
};

// Who asks for a cursor: under --auth (check_owner), the connection's user
// (nullopt if none); without --auth anyone may use any cursor.
struct CursorRequester {
  bool check_owner = false;
  std::optional<UserName> user;
  // The command's logical session, as ServerCursor::session.
  std::optional<std::string> session;
};

class CursorStore {
 public:
  // `clock` (steady time) decides idleness; not owned.
  CursorStore(Clock* clock, absl::Duration timeout, int max_per_connection,
              int64_t max_total)
      : clock_(clock),
        timeout_(timeout),
        max_per_connection_(max_per_connection),
        max_total_(max_total) {}

  // Takes `cursor`, gives it an id and returns it checked out (the caller
  // fills a first batch, then calls Release). Fails with 2 BadValue (mongod
  // has no such bound, hence no code of its own; BadValue is what a client
  // sees for a request it must change) when the connection already holds
  // max_per_connection cursors or the server max_total, after reaping the
  // idle ones.
  absl::StatusOr<ServerCursor*> Register(std::unique_ptr<ServerCursor> cursor);

  // Checks out cursor `id` for a getMore on namespace `ns`, with mongod's
  // checks in mongod's order (cursor_manager.cpp pinCursor, then
  // getmore_cmd.cpp's pinCheck); a failed check leaves the cursor open:
  //  - 43 CursorNotFound "cursor id <id> not found" if absent (or timed
  //    out); 143 CursorInUse if another getMore has it;
  //  - under --auth, 13 Unauthorized "Cursor session id (<s>) is not the
  //    same as the operation context's session id (<s>)" when the sessions
  //    differ, "none" for no session (authorization_session_impl.cpp
  //    checkCursorSessionPrivilege);
  //  - 50736 "Cannot run getMore on cursor <id>, which was not created in a
  //    session, in session <s>", 50737 "..., which was created in session
  //    <s>, without an lsid", 50738 "..., which was created in session <s>,
  //    in session <s>" (validateLSID);
  //  - 13 "cursor id <id> was not created by the authenticated user" if
  //    `requester` is not its owner (validateAuthorization, where
  //    isCoauthorizedWith compares the one authenticated user), 13 if `ns`
  //    is not the cursor's namespace (validateNamespace).
  absl::StatusOr<ServerCursor*> CheckOut(int64_t id, absl::string_view ns,
                                         const CursorRequester& requester = {});
  // killCursors' authorization (authorization_checks.cpp
  // checkAuthForKillCursors): true when every cursor of `ids` that exists
  // was opened by `requester` (ids not found are not an authorization
  // matter: killCursors reports them). `kill_any`: the killAnyCursor
  // action (root) may kill any cursor.
  bool MayKill(const std::vector<int64_t>& ids,
               const CursorRequester& requester, bool kill_any);
  // Returns a checked-out cursor; `exhausted` removes it.
  void Release(ServerCursor* cursor, bool exhausted);

  // killCursors: removes each id of namespace `ns`. A cursor checked out
  // is removed when it is released. Ids of other namespaces or unknown
  // ones are "not found".
  void Kill(absl::string_view ns, const std::vector<int64_t>& ids,
            std::vector<int64_t>* killed, std::vector<int64_t>* not_found);
  // Removes every cursor of a connection / a database / everything.
  void KillConnection(uint64_t connection_id);
  void KillDatabase(absl::string_view db);
  void KillNamespace(absl::string_view ns);
  void KillAll();

  // Removes cursors idle longer than the timeout.
  void ReapIdle();

  // serverStatus metrics.cursor: open.total and timedOut.
  int64_t open_count();
  int64_t timed_out_count();

 private:
  using IdleKey = std::pair<absl::Time, int64_t>;  // (last_used, id)

  // Removes cursor `c` now, or marks it killed if checked out.
  void KillLocked(ServerCursor* c,
                  std::vector<std::unique_ptr<ServerCursor>>* graveyard)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Removes `c` from the map and the connection's list, into `graveyard`.
  void EraseLocked(ServerCursor* c,
                   std::vector<std::unique_ptr<ServerCursor>>* graveyard)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Kills every cursor `pred` selects (a walk of all: drops only).
  template <typename Pred>
  void KillIf(Pred pred);
  void ReapIdleLocked(std::vector<std::unique_ptr<ServerCursor>>* graveyard)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  Clock* const clock_;
  const absl::Duration timeout_;
  const int max_per_connection_;
  const int64_t max_total_;

  absl::Mutex mu_;
  absl::flat_hash_map<int64_t, std::unique_ptr<ServerCursor>> cursors_
      ABSL_GUARDED_BY(mu_);
  // The cursors not checked out, oldest use first.
  std::set<IdleKey> idle_ ABSL_GUARDED_BY(mu_);
  // Each connection's cursors.
  absl::flat_hash_map<uint64_t, absl::flat_hash_set<int64_t>> by_connection_
      ABSL_GUARDED_BY(mu_);
  int64_t timed_out_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_CURSOR_STORE_H_
