// One client connection's state in the command layer: its id (hello's
// connectionId), the cursors it opened, which die with it, and the user it
// authenticated as.
#ifndef TTLDB_COMMANDS_CONNECTION_H_
#define TTLDB_COMMANDS_CONNECTION_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ttldb/value.h"

namespace ttldb {
namespace commands {

struct ServerState;
class ScramSha256Server;

// An authenticated user: "ann" of database "admin".
struct UserName {
  std::string user;
  std::string db;
  bool operator==(const UserName& o) const {
    return user == o.user && db == o.db;
  }
  bool operator!=(const UserName& o) const { return !(*this == o); }
};

class Connection {
 public:
  Connection(std::shared_ptr<ServerState> server, int64_t id);
  // Kills the cursors this connection opened.
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // 1, 2, 3, ... in order of creation (hello's connectionId).
  int64_t id() const { return id_; }

  // The peer's "host:port" (whatsmyuri), set by the server; "" in-process.
  const std::string& peer() const { return peer_; }
  void set_peer(std::string peer);

  // The client metadata of the first hello ({driver, os, application}),
  // null until then; for logs and currentOp.
  const Value& client_metadata() const { return client_metadata_; }
  void set_client_metadata(Value v);

  // A flag that, once set, interrupts this connection's multi-document
  // writes between documents (11601 Interrupted): the shell's Ctrl-C.
  // Not owned; null (the default): never interrupted.
  const std::atomic<bool>* interrupt() const { return interrupt_; }
  void set_interrupt(const std::atomic<bool>* flag) { interrupt_ = flag; }

  // Authentication (`ttldb serve --auth`). The user this connection is
  // authenticated as (at most one, as mongod 8.0), or null.
  const UserName* user() const { return user_.has_value() ? &*user_ : nullptr; }
  void set_user(std::optional<UserName> user);
  // Whether the peer is on this machine (127.0.0.0/8 or a Unix socket):
  // the localhost exception (creating the first user) applies to it only.
  bool local() const { return local_; }
  void set_local(bool local) { local_ = local; }
  // The SASL conversation in progress (saslStart .. saslContinue), if any.
  ScramSha256Server* conversation() const { return conversation_.get(); }
  const std::string& conversation_db() const { return conversation_db_; }
  void set_conversation(std::unique_ptr<ScramSha256Server> c, std::string db);

 private:
  const std::shared_ptr<ServerState> server_;
  const int64_t id_;
  std::string peer_;
  Value client_metadata_;
  const std::atomic<bool>* interrupt_ = nullptr;
  std::optional<UserName> user_;
  bool local_ = true;  // in-process connections are local
  std::unique_ptr<ScramSha256Server> conversation_;
  std::string conversation_db_;
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_CONNECTION_H_
