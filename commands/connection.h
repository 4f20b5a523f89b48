// One client connection's state in the command layer: its id (hello's
// connectionId) and the cursors it opened, which die with it.
#ifndef TTLDB_COMMANDS_CONNECTION_H_
#define TTLDB_COMMANDS_CONNECTION_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "document/value.h"

namespace ttldb {
namespace commands {

struct ServerState;

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
  void set_peer(std::string peer) { peer_ = std::move(peer); }

  // The client metadata of the first hello ({driver, os, application}),
  // null until then; for logs and currentOp.
  const Value& client_metadata() const { return client_metadata_; }
  void set_client_metadata(Value v) { client_metadata_ = std::move(v); }

  // A flag that, once set, interrupts this connection's multi-document
  // writes between documents (11601 Interrupted): the shell's Ctrl-C.
  // Not owned; null (the default): never interrupted.
  const std::atomic<bool>* interrupt() const { return interrupt_; }
  void set_interrupt(const std::atomic<bool>* flag) { interrupt_ = flag; }

 private:
  const std::shared_ptr<ServerState> server_;
  const int64_t id_;
  std::string peer_;
  Value client_metadata_;
  const std::atomic<bool>* interrupt_ = nullptr;
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_CONNECTION_H_
