#include "commands/operation_registry.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {

namespace {

bool NamesCollection(absl::string_view name) {
  static constexpr absl::string_view kNames[] = {
      "find",          "aggregate",     "count",       "distinct",
      "insert",        "update",        "delete",      "findAndModify",
      "findandmodify", "create",        "drop",        "createIndexes",
      "dropIndexes",   "deleteIndexes", "listIndexes", "collMod",
      "validate",      "collStats"};
  for (absl::string_view n : kNames) {
    if (n == name) return true;
  }
  return false;
}

}  // namespace

absl::string_view LogicalOp(absl::string_view name) {
  if (name == "find") return "query";
  if (name == "getMore") return "getmore";
  if (name == "insert") return "insert";
  if (name == "update") return "update";
  if (name == "delete") return "remove";
  return "command";
}

std::string CommandNs(absl::string_view db, const Value& cmd) {
  if (cmd.is_object() && !cmd.object_fields().empty()) {
    const std::string& name = cmd.object_fields()[0].first;
    const Value& first = cmd.object_fields()[0].second;
    if (name == "getMore") {
      const Value* coll = cmd.Get("collection");
      if (coll != nullptr && coll->is_string()) {
        return absl::StrCat(db, ".", coll->string_value());
      }
    } else if (NamesCollection(name) && first.is_string()) {
      return absl::StrCat(db, ".", first.string_value());
    }
  }
  return absl::StrCat(db, ".$cmd");
}

Value NumberValue(int64_t n) {
  if (n >= INT32_MIN && n <= INT32_MAX) {
    return Value::Int32(static_cast<int32_t>(n));
  }
  return Value::Int64(n);
}

std::string IsoDateUtcOffset(absl::Time t) {
  std::string z = FormatIsoDate(absl::ToUnixMillis(t));
  if (!z.empty() && z.back() == 'Z') {
    z.pop_back();
    z += "+00:00";
  }
  return z;
}

OperationRegistry::Scope::Scope(OperationRegistry* registry,
                                const Connection& connection,
                                absl::string_view db, const Value& command,
                                absl::Time start_wall, absl::Time start_steady)
    : registry_(registry) {
  op_.connection_id = connection.id();
  op_.db = std::string(db);
  op_.command = &command;
  op_.peer = &connection.peer();
  // Set once, by the connection's first hello, and never changed: a
  // non-null value read here stays valid and unchanged.
  op_.client_metadata = connection.client_metadata().is_null()
                            ? nullptr
                            : &connection.client_metadata();
  if (connection.user() != nullptr) op_.user = *connection.user();
  op_.start_wall = start_wall;
  op_.start_steady = start_steady;
  {
    absl::MutexLock lock(&registry_->mu_);
    op_.opid = registry_->next_opid_++;
    registry_->running_[op_.opid] = &op_;
  }
  interrupt_.emplace(&op_.killed);
}

OperationRegistry::Scope::~Scope() {
  interrupt_.reset();
  absl::MutexLock lock(&registry_->mu_);
  registry_->running_.erase(op_.opid);
}

bool OperationRegistry::Kill(
    int64_t opid, const std::function<bool(const Operation&)>& may_kill) {
  absl::MutexLock lock(&mu_);
  auto it = running_.find(opid);
  if (it == running_.end()) return false;
  if (may_kill && !may_kill(*it->second)) return false;
  it->second->killed.store(true);
  return true;
}

void OperationRegistry::ForEach(
    const std::function<void(const Operation&)>& fn) const {
  absl::MutexLock lock(&mu_);
  std::vector<const Operation*> ops;
  ops.reserve(running_.size());
  for (const auto& [opid, op] : running_) ops.push_back(op);
  std::sort(ops.begin(), ops.end(), [](const Operation* a, const Operation* b) {
    return a->opid < b->opid;
  });
  for (const Operation* op : ops) fn(*op);
}

void OperationRegistry::AddClient(int64_t connection_id) {
  absl::MutexLock lock(&mu_);
  clients_[connection_id].connection_id = connection_id;
}

void OperationRegistry::UpdateClient(
    int64_t connection_id, const std::function<void(ClientInfo*)>& update) {
  absl::MutexLock lock(&mu_);
  auto it = clients_.find(connection_id);
  if (it != clients_.end()) update(&it->second);
}

void OperationRegistry::RemoveClient(int64_t connection_id) {
  absl::MutexLock lock(&mu_);
  clients_.erase(connection_id);
}

void OperationRegistry::ForEachIdleClient(
    const std::function<void(const ClientInfo&)>& fn) const {
  absl::MutexLock lock(&mu_);
  absl::flat_hash_set<int64_t> busy;
  for (const auto& [opid, op] : running_) busy.insert(op->connection_id);
  for (const auto& [id, client] : clients_) {
    if (!busy.contains(id)) fn(client);
  }
}

}  // namespace commands
}  // namespace ttldb
