// The operations running in one CommandRunner, by opid: what currentOp
// lists and killOp interrupts (mongod's ServiceContext client list and
// OperationContext::markKilled).
//
// Every command registers itself for as long as it runs (an
// OperationRegistry::Scope on the running thread). Killing an operation
// sets its flag; the command notices at its next interrupt point
// (base/op_deadline.h CheckOpDeadline, which the Scope arms) and fails with
// 11601 Interrupted, as a maxTimeMS or shutdown interrupt does.
//
// Thread safety: every method may be called from any thread.
#ifndef TTLDB_COMMANDS_OPERATION_REGISTRY_H_
#define TTLDB_COMMANDS_OPERATION_REGISTRY_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "base/op_context.h"
#include "commands/connection.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// One running operation. Its fields are constant while it is registered,
// except `killed`.
struct Operation {
  int64_t opid = 0;
  int64_t connection_id = 0;
  std::string db;           // the database the command runs against
  const Value* command;     // the command document; outlives the operation
  const std::string* peer;  // the client's "host:port" ("" in-process)
  // The connection's client metadata, or null before its first hello.
  const Value* client_metadata;
  std::optional<UserName> user;  // the authenticated user, if any
  absl::Time start_wall;
  absl::Time start_steady;
  std::atomic<bool> killed{false};
};

// A client connection as currentOp reports it when it runs nothing
// ($all / idleConnections): kept by the registry, updated by the
// Connection's setters, so other threads read a consistent copy.
struct ClientInfo {
  int64_t connection_id = 0;
  std::string peer;       // "host:port"; "" in-process
  Value client_metadata;  // null before the first hello
  std::optional<UserName> user;
};

// CurOp's logical op of a command: find is "query", getMore "getmore", the
// writes "insert" / "update" / "remove", every other command "command"
// (src/mongo/db/curop.cpp, logicalOpToString).
absl::string_view LogicalOp(absl::string_view command_name);

// The namespace a command runs on: "<db>.<coll>" for the commands whose
// first value names their collection (getMore: its `collection`), else
// "<db>.$cmd", as mongod's CommandHelpers::parseNsFromCommand.
std::string CommandNs(absl::string_view db, const Value& command);

// `n` as an int when it fits, else a long: BSONObjBuilder::appendNumber,
// which mongod's reports use (opid, connectionId, the profiler's counts).
Value NumberValue(int64_t n);

// "2024-05-01T10:00:00.123+00:00": mongod's dateToISOStringLocal on a UTC
// server (currentOpTime, log lines).
std::string IsoDateUtcOffset(absl::Time t);

class OperationRegistry {
 public:
  OperationRegistry() = default;
  OperationRegistry(const OperationRegistry&) = delete;
  OperationRegistry& operator=(const OperationRegistry&) = delete;

  // Registers the command `command` of `connection` against `db` for its
  // lifetime, with a fresh opid, and arms its kill flag as this thread's
  // interrupt point. `command` and `connection` must outlive it.
  class Scope {
   public:
    Scope(OperationRegistry* registry, const Connection& connection,
          absl::string_view db, const Value& command, absl::Time start_wall,
          absl::Time start_steady);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

    const Operation& operation() const { return op_; }
    // The kill flag, for interrupt checks outside CheckOpDeadline (the
    // write batches' WriteOptions::interrupt).
    const std::atomic<bool>* killed() const { return &op_.killed; }

   private:
    OperationRegistry* const registry_;
    Operation op_;
    std::optional<ScopedKillInterrupt> interrupt_;
  };

  // Marks operation `opid` killed. False when no such operation runs.
  // `may_kill` (if given) decides, under the registry's lock, whether the
  // caller may kill it; an operation it refuses is left running and
  // Kill returns false.
  bool Kill(int64_t opid,
            const std::function<bool(const Operation&)>& may_kill = nullptr);

  // Calls `fn` on every running operation, in opid order, under the
  // registry's lock: `fn` must not call back into the registry.
  void ForEach(const std::function<void(const Operation&)>& fn) const;

  // The connections (mongod's client list). Each Connection adds itself
  // when made, updates its entry when its peer, metadata or user change,
  // and removes itself when destroyed.
  void AddClient(int64_t connection_id);
  void UpdateClient(int64_t connection_id,
                    const std::function<void(ClientInfo*)>& update);
  void RemoveClient(int64_t connection_id);
  // Calls `fn` on every connection that runs no operation now, in
  // connection id order, under the registry's lock (as ForEach).
  void ForEachIdleClient(
      const std::function<void(const ClientInfo&)>& fn) const;

 private:
  mutable absl::Mutex mu_;
  int64_t next_opid_ ABSL_GUARDED_BY(mu_) = 1;
  absl::flat_hash_map<int64_t, Operation*> running_ ABSL_GUARDED_BY(mu_);
  std::map<int64_t, ClientInfo> clients_ ABSL_GUARDED_BY(mu_);
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_OPERATION_REGISTRY_H_
