#include "commands/cursor_store.h"

#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/scram.h"
#include "commands/tailable_cursor.h"

namespace ttldb {
namespace commands {
namespace {

// 2^53: below it an int64 is exactly a JavaScript number, and the Node
// driver gives a command reply's int64 under it as a number (promoteLongs),
// which it then sends back as a double: a getMore or killCursors of it is
// 14 TypeMismatch (their ids are longs, as in mongod).
constexpr uint64_t kMinId = uint64_t{1} << 53;
constexpr uint64_t kIdEnd = uint64_t{1} << 63;

// A random id in [2^53, 2^63) from the operating system's CSPRNG (OpenSSL's
// RAND_bytes): mongod's ids are random positive int64s too
// (generic_cursor_utils.cpp allocateCursorId), so that no client can guess
// another's cursor; never 0, which means "no cursor" in replies.
int64_t RandomId() {
  uint64_t bits = 0;
  const std::string bytes = SecureRandomBytes(sizeof(bits));
  std::memcpy(&bits, bytes.data(), sizeof(bits));
  return static_cast<int64_t>(kMinId + bits % (kIdEnd - kMinId));
}

}  // namespace

absl::StatusOr<ServerCursor*> CursorStore::Register(
    std::unique_ptr<ServerCursor> cursor) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;  // freed unlocked
  absl::MutexLock lock(&mu_);
  ReapIdleLocked(&graveyard);
  absl::flat_hash_set<int64_t>& mine = by_connection_[cursor->connection_id];
  if (mine.size() >= static_cast<size_t>(max_per_connection_)) {
    return MongoError(
        absl::StatusCode::kResourceExhausted, kBadValue,
        absl::StrCat("too many open cursors on this connection (limit ",
                     max_per_connection_,
                     "): exhaust or kill some (killCursors)"));
  }
  if (static_cast<int64_t>(cursors_.size()) >= max_total_) {
    if (mine.empty()) by_connection_.erase(cursor->connection_id);
    return MongoError(
        absl::StatusCode::kResourceExhausted, kBadValue,
        absl::StrCat("too many open cursors on this server (limit ", max_total_,
                     "): exhaust or kill some (killCursors)"));
  }
  int64_t id = RandomId();
  while (cursors_.contains(id)) id = RandomId();
  mine.insert(id);
  cursor->id = id;
  cursor->in_use = true;
  cursor->last_used = clock_->SteadyNow();
  ServerCursor* raw = cursor.get();
  cursors_[id] = std::move(cursor);
  return raw;
}

absl::StatusOr<ServerCursor*> CursorStore::CheckOut(
    int64_t id, absl::string_view ns, const CursorRequester& requester) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  ReapIdleLocked(&graveyard);
  auto it = cursors_.find(id);
  if (it == cursors_.end() || it->second->killed) {
    return MongoError(absl::StatusCode::kNotFound, kCursorNotFound,
                      absl::StrCat("cursor id ", id, " not found"));
  }
  ServerCursor* c = it->second.get();
  if (c->in_use) {
    return MongoError(absl::StatusCode::kFailedPrecondition, kCursorInUse,
                      absl::StrCat("cursor id ", id, " is already in use"));
  }
  auto or_none = [](const std::optional<std::string>& s) {
    return s.has_value() ? *s : std::string("none");
  };
  if (requester.check_owner && requester.user.has_value() &&
      c->session != requester.session) {
    return MongoError(
        absl::StatusCode::kPermissionDenied, kUnauthorized,
        absl::StrCat("Cursor session id (", or_none(c->session),
                     ") is not the same as the operation context's session "
                     "id (",
                     or_none(requester.session), ")"));
  }
  if (requester.session.has_value() && !c->session.has_value()) {
    return MongoError(absl::StatusCode::kFailedPrecondition,
                      kGetMoreInSessionOnSessionless,
                      absl::StrCat("Cannot run getMore on cursor ", id,
                                   ", which was not created in a session, in "
                                   "session ",
                                   *requester.session));
  }
  if (!requester.session.has_value() && c->session.has_value()) {
    return MongoError(absl::StatusCode::kFailedPrecondition,
                      kGetMoreOutsideSession,
                      absl::StrCat("Cannot run getMore on cursor ", id,
                                   ", which was created in session ",
                                   *c->session, ", without an lsid"));
  }
  if (requester.session != c->session) {
    return MongoError(
        absl::StatusCode::kFailedPrecondition, 50738,
        absl::StrCat("Cannot run getMore on cursor ", id,
                     ", which was created in session ", *c->session,
                     ", in session ", *requester.session));
  }
  if (requester.check_owner && c->owner != requester.user) {
    return MongoError(absl::StatusCode::kPermissionDenied, kUnauthorized,
                      absl::StrCat("cursor id ", id,
                                   " was not created by the authenticated "
                                   "user"));
  }
  if (c->ns != ns) {
    // getMore's check (getmore_cmd.cpp): the namespace must match.
    return MongoError(absl::StatusCode::kPermissionDenied, kUnauthorized,
                      absl::StrCat("Requested getMore on namespace '", ns,
                                   "', but cursor belongs to a different "
                                   "namespace ",
                                   c->ns));
  }
  idle_.erase({c->last_used, id});
  c->in_use = true;
  return c;
}

bool CursorStore::MayKill(const std::vector<int64_t>& ids,
                          const CursorRequester& requester, bool kill_any) {
  if (!requester.check_owner || kill_any) return true;
  absl::MutexLock lock(&mu_);
  for (int64_t id : ids) {
    auto it = cursors_.find(id);
    if (it == cursors_.end() || it->second->killed) continue;
    if (it->second->owner != requester.user) return false;
  }
  return true;
}

void CursorStore::Release(ServerCursor* cursor, bool exhausted) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  auto it = cursors_.find(cursor->id);
  if (it == cursors_.end()) return;
  ServerCursor* c = it->second.get();
  c->in_use = false;
  c->last_used = clock_->SteadyNow();
  if (exhausted || c->killed) {
    EraseLocked(c, &graveyard);
    return;
  }
  idle_.insert({c->last_used, c->id});
}

void CursorStore::EraseLocked(
    ServerCursor* c, std::vector<std::unique_ptr<ServerCursor>>* graveyard) {
  if (!c->in_use) idle_.erase({c->last_used, c->id});
  auto conn = by_connection_.find(c->connection_id);
  if (conn != by_connection_.end()) {
    conn->second.erase(c->id);
    if (conn->second.empty()) by_connection_.erase(conn);
  }
  auto it = cursors_.find(c->id);
  graveyard->push_back(std::move(it->second));
  cursors_.erase(it);
}

void CursorStore::KillLocked(
    ServerCursor* c, std::vector<std::unique_ptr<ServerCursor>>* graveyard) {
  if (c->in_use) {
    c->killed = true;  // Release removes it
    // A change stream's getMore waiting for events stops waiting (the
    // stream is not touched by its user's thread but for Next).
    if (c->stream != nullptr) c->stream->Interrupt();
    // So does a tailable find's awaitData wait (commands/tailable_cursor.h).
    if (c->tail != nullptr) InterruptTail(c->tail.get());
    return;
  }
  EraseLocked(c, graveyard);
}

void CursorStore::Kill(absl::string_view ns, const std::vector<int64_t>& ids,
                       std::vector<int64_t>* killed,
                       std::vector<int64_t>* not_found) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  for (int64_t id : ids) {
    auto it = cursors_.find(id);
    if (it == cursors_.end() || it->second->killed || it->second->ns != ns) {
      not_found->push_back(id);
      continue;
    }
    KillLocked(it->second.get(), &graveyard);
    killed->push_back(id);
  }
}

void CursorStore::KillConnection(uint64_t connection_id) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  auto conn = by_connection_.find(connection_id);
  if (conn == by_connection_.end()) return;
  // A copy: KillLocked edits the connection's set.
  const std::vector<int64_t> ids(conn->second.begin(), conn->second.end());
  for (int64_t id : ids) KillLocked(cursors_.at(id).get(), &graveyard);
}

template <typename Pred>
void CursorStore::KillIf(Pred pred) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  std::vector<ServerCursor*> doomed;
  for (const auto& [id, c] : cursors_) {
    if (pred(*c)) doomed.push_back(c.get());
  }
  for (ServerCursor* c : doomed) KillLocked(c, &graveyard);
}

void CursorStore::KillDatabase(absl::string_view db) {
  KillIf([db](const ServerCursor& c) { return c.db == db; });
}

void CursorStore::KillNamespace(absl::string_view ns) {
  KillIf([ns](const ServerCursor& c) { return c.ns == ns; });
}

void CursorStore::KillAll() {
  KillIf([](const ServerCursor&) { return true; });
}

void CursorStore::ReapIdle() {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  ReapIdleLocked(&graveyard);
}

void CursorStore::ReapIdleLocked(
    std::vector<std::unique_ptr<ServerCursor>>* graveyard) {
  const absl::Time now = clock_->SteadyNow();
  // Oldest first: the walk stops at the first cursor still within the
  // timeout, so it costs only what it removes.
  while (!idle_.empty() && now - idle_.begin()->first > timeout_) {
    const int64_t id = idle_.begin()->second;
    ++timed_out_;
    EraseLocked(cursors_.at(id).get(), graveyard);
  }
}

int64_t CursorStore::open_count() {
  absl::MutexLock lock(&mu_);
  return static_cast<int64_t>(cursors_.size());
}

int64_t CursorStore::timed_out_count() {
  absl::MutexLock lock(&mu_);
  return timed_out_;
}

}  // namespace commands
}  // namespace ttldb
