// The wire-protocol server behind `ttldb serve`: MongoDB clients (mongosh,
// the drivers, Compass) connect over TCP or a Unix socket and every command
// runs through the shared command layer (commands/command_runner.h).
//
//   ServerOptions options;          // 127.0.0.1:27017
//   ASSIGN_OR_RETURN(auto server, Server::Start(runner.get(), options));
//   ...                             // until SIGTERM
//   server->Shutdown();             // in-flight commands finish
//   runner->Close();
//
// Threads: one listener, plus one thread per connection, at most
// max_connections of them (MongoDB's net.maxIncomingConnections); a
// connection beyond the limit is accepted and closed at once, as mongod
// does. A client that starts a message and then stalls is disconnected
// after message_timeout; it only ever holds its own thread, so it never
// blocks other clients or the TTL monitor. An idle client (between
// messages) may stay connected indefinitely, as with mongod.
//
// The drivers' awaitable hello (hello with topologyVersion and
// maxAwaitTimeMS) is answered as mongod answers it on a standalone: after
// maxAwaitTimeMS when the client's topologyVersion is current, and with
// exhaustAllowed as a stream of replies flagged moreToCome, one every
// maxAwaitTimeMS, until the client hangs up or the server shuts down.
//
// Hostile input never crashes the server or makes it allocate beyond one
// message (48,000,000 bytes at most) per connection: a bad header, an
// unknown opcode or OP_COMPRESSED closes the connection; a malformed body
// (bad BSON, bad sections) gets an error reply ({ok: 0, code, codeName})
// and the connection goes on, as server/message.h describes.
//
// Security (docs/server.md): 127.0.0.1 is the default address; a
// non-loopback address may be bound only with authentication on
// (ServerOptions::auth, which must match the runner's RunnerOptions::auth),
// else Start refuses it. Connections from 127.0.0.0/8 and the Unix socket
// are local (Connection::local: the localhost exception). TLS through
// OpenSSL per ServerOptions::tls (server/transport.h).
//
// Thread safety: Shutdown may be called from any thread, once or more.
#ifndef TTLDB_SERVER_SERVER_H_
#define TTLDB_SERVER_SERVER_H_

#include <netinet/in.h>

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "commands/command_runner.h"
#include "server/transport.h"
#include "ttldb/logger.h"

namespace ttldb {
namespace server {

struct ServerOptions {
  // 127.0.0.1: mongod's default bindIp. Another address needs `auth`.
  std::string bind_ip = "127.0.0.1";
  // Access control is on (the runner was opened with auth): allows binding
  // a non-loopback address.
  bool auth = false;
  // TLS (mongod's --tlsMode, --tlsCertificateKeyFile, --tlsCAFile).
  TlsOptions tls;
  // 27017: MongoDB's default port. 0 picks a free port (see Server::port).
  int port = 27017;
  // false: no TCP listener at all, only `unix_socket` (which must then be
  // set). The in-process shell uses it: its server is reachable only by
  // the users its socket's directory admits, never over the network.
  bool listen_tcp = true;
  // A Unix domain socket to listen on as well (mode 0700, as mongod's
  // filePermissions); "" for none. A stale socket file there is replaced.
  std::string unix_socket;
  // MongoDB's maxIncomingConnections: connections beyond it are closed as
  // soon as they are accepted. 1000 bounds the threads and the memory (one
  // message buffer each) a ttldb server can be made to hold.
  int max_connections = 1000;
  // Once a message's first byte has arrived, the rest must arrive within
  // this time, else the connection is closed (a half-sent message never
  // holds a thread forever). Replies are sent under the same bound.
  absl::Duration message_timeout = absl::Seconds(30);
  // Where the server reports what it worked around (a connection refused
  // for want of a thread); none: silent.
  Logger logger;
};

class Server {
 public:
  // Binds and starts listening; commands run on `runner`, which must
  // outlive the server. Errors: a non-loopback bind_ip without auth
  // (PermissionDenied), an address in use, a bad socket path, unusable TLS
  // files.
  static absl::StatusOr<std::unique_ptr<Server>> Start(
      commands::CommandRunner* runner, const ServerOptions& options);

  // Shutdown, then frees everything.
  ~Server();

  // The TCP port listened on (the chosen one when options.port was 0); 0
  // without a TCP listener (options.listen_tcp false).
  int port() const { return port_; }

  // Connections currently open.
  int connection_count() const { return connections_.load(); }
  // Connections closed at once because no thread could be started for
  // them (a process or memory limit; base/start_thread.h).
  int64_t refused_for_threads() const { return refused_threads_.load(); }
  // Bytes of encoded replies being sent, over all connections: at most one
  // reply per connection, as a connection's next request is read only once
  // its reply is sent.
  int64_t pending_reply_bytes() const { return pending_reply_bytes_.load(); }

  // Stops accepting, lets every in-flight command finish and send its
  // reply, then closes every connection and waits for their threads.
  // Does not close the runner.
  void Shutdown();

 private:
  struct Client;
  Server(commands::CommandRunner* runner, const ServerOptions& options);

  absl::Status Listen();
  absl::Status ListenTcp(const in_addr& addr);
  absl::Status ListenUnix();
  void AcceptLoop();
  void Serve(Client* client);
  void ReapFinished() ABSL_LOCKS_EXCLUDED(mu_);
  // Waits `d` unless the client sends or hangs up, or the server stops;
  // false when the connection should end.
  bool WaitQuietly(int fd, absl::Duration d);

  // Constant after Start.
  commands::CommandRunner* const runner_;
  const ServerOptions options_;
  std::unique_ptr<TlsContext> tls_;  // null when TLS is disabled
  int tcp_fd_ = -1;
  int unix_fd_ = -1;
  int port_ = 0;

  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::atomic<int64_t> refused_threads_{0};
  std::atomic<int64_t> pending_reply_bytes_{0};
  std::atomic<int32_t> next_request_id_{1};
  std::thread listener_;

  absl::Mutex mu_;
  std::list<std::unique_ptr<Client>> clients_ ABSL_GUARDED_BY(mu_);
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace server
}  // namespace ttldb

#endif  // TTLDB_SERVER_SERVER_H_
