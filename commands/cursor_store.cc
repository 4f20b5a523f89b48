#include "commands/cursor_store.h"

#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {
namespace commands {
namespace {

// A random id in [1, 2^63): never 0, which means "no cursor" in replies.
int64_t RandomId() {
  static thread_local std::mt19937_64 rng(std::random_device{}());
  int64_t id = 0;
  while (id <= 0) id = static_cast<int64_t>(rng() >> 1);
  return id;
}

}  // namespace

absl::StatusOr<ServerCursor*> CursorStore::Register(
    std::unique_ptr<ServerCursor> cursor) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;  // freed unlocked
  absl::MutexLock lock(&mu_);
  ReapIdleLocked(&graveyard);
  int& count = per_connection_[cursor->connection_id];
  if (count >= max_per_connection_) {
    return MongoError(
        absl::StatusCode::kResourceExhausted, kBadValue,
        absl::StrCat("too many open cursors on this connection (limit ",
                     max_per_connection_, ")"));
  }
  ++count;
  int64_t id = RandomId();
  while (cursors_.count(id) > 0) id = RandomId();
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
  if (c->in_use) {
    return MongoError(absl::StatusCode::kFailedPrecondition, kCursorInUse,
                      absl::StrCat("cursor id ", id, " is already in use"));
  }
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
  std::unique_ptr<ServerCursor> doomed;
  absl::MutexLock lock(&mu_);
  auto it = cursors_.find(cursor->id);
  if (it == cursors_.end()) return;
  it->second->in_use = false;
  it->second->last_used = clock_->SteadyNow();
  if (exhausted || it->second->killed) {
    ForgetLocked(it->second->connection_id);
    doomed = std::move(it->second);
    cursors_.erase(it);
  }
}

void CursorStore::ForgetLocked(uint64_t connection_id) {
  auto it = per_connection_.find(connection_id);
  if (it != per_connection_.end() && --it->second <= 0) {
    per_connection_.erase(it);
  }
}

void CursorStore::KillLocked(
    std::map<int64_t, std::unique_ptr<ServerCursor>>::iterator it,
    std::vector<std::unique_ptr<ServerCursor>>* graveyard) {
  if (it->second->in_use) {
    it->second->killed = true;  // Release removes it
    return;
  }
  ForgetLocked(it->second->connection_id);
  graveyard->push_back(std::move(it->second));
  cursors_.erase(it);
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
    KillLocked(it, &graveyard);
    killed->push_back(id);
  }
}

void CursorStore::KillConnection(uint64_t connection_id) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  for (auto it = cursors_.begin(); it != cursors_.end();) {
    auto next = std::next(it);
    if (it->second->connection_id == connection_id) KillLocked(it, &graveyard);
    it = next;
  }
}

void CursorStore::KillDatabase(absl::string_view db) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  for (auto it = cursors_.begin(); it != cursors_.end();) {
    auto next = std::next(it);
    if (it->second->db == db) KillLocked(it, &graveyard);
    it = next;
  }
}

void CursorStore::KillNamespace(absl::string_view ns) {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  for (auto it = cursors_.begin(); it != cursors_.end();) {
    auto next = std::next(it);
    if (it->second->ns == ns) KillLocked(it, &graveyard);
    it = next;
  }
}

void CursorStore::KillAll() {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  for (auto it = cursors_.begin(); it != cursors_.end();) {
    auto next = std::next(it);
    KillLocked(it, &graveyard);
    it = next;
  }
}

void CursorStore::ReapIdle() {
  std::vector<std::unique_ptr<ServerCursor>> graveyard;
  absl::MutexLock lock(&mu_);
  ReapIdleLocked(&graveyard);
}

void CursorStore::ReapIdleLocked(
    std::vector<std::unique_ptr<ServerCursor>>* graveyard) {
  const absl::Time now = clock_->SteadyNow();
  for (auto it = cursors_.begin(); it != cursors_.end();) {
    auto next = std::next(it);
    ServerCursor* c = it->second.get();
    if (!c->in_use && now - c->last_used > timeout_) {
      ++timed_out_;
      KillLocked(it, graveyard);
    }
    it = next;
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
