#include "server/server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/start_thread.h"
#include "base/status.h"
#include "commands/connection.h"
#include "document/compare.h"
#include "server/message.h"
#include "server/socket_io.h"
#include "ttldb/logger.h"

namespace ttldb {
namespace server {

struct Server::Client {
  int fd = -1;
  std::string peer;
  bool local = false;  // 127.0.0.0/8 or the Unix socket
  std::thread thread;
  std::atomic<bool> done{false};
};

namespace {

// 100 ms: how often the listener looks at the stop flag.
constexpr int kAcceptPollMillis = 100;

// 1 MiB: a reply past this size returns the memory its building freed.
constexpr size_t kTrimAfterReplyBytes = 1 << 20;

// Returns freed heap memory to the system (glibc keeps it per arena).
void ReleaseFreedMemory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

absl::Status Errno(absl::string_view what) {
  return absl::UnavailableError(absl::StrCat(what, ": ", std::strerror(errno)));
}

// hello/isMaster with maxAwaitTimeMS and topologyVersion (the drivers'
// awaitable hello, MongoDB's "Server Monitoring" specification): *await is
// maxAwaitTimeMS; *unchanged tells whether the client's topologyVersion is
// the one `reply` reports (then mongod waits before answering).
bool IsAwaitableHello(const Value& command, const Value& reply,
                      absl::Duration* await, bool* unchanged) {
  if (command.object_fields().empty()) return false;
  const std::string& name = command.object_fields()[0].first;
  if (name != "hello" && name != "isMaster" && name != "ismaster") {
    return false;
  }
  const Value* max_await = command.Get("maxAwaitTimeMS");
  const Value* known = command.Get("topologyVersion");
  const Value* ok = reply.Get("ok");
  const Value* current = reply.Get("topologyVersion");
  if (max_await == nullptr || !max_await->is_number() || known == nullptr ||
      !known->is_object() || ok == nullptr || !ok->is_number() ||
      ok->AsDouble() != 1 || current == nullptr) {
    return false;
  }
  // 0 to 1 hour: a bounded wait whatever the client asks (hello refuses a
  // NaN or negative maxAwaitTimeMS; a NaN must never reach the cast).
  double ms = max_await->AsDouble();
  ms = std::isnan(ms) ? 0 : std::min(std::max(ms, 0.0), 3600e3);
  *await = absl::Milliseconds(static_cast<int64_t>(ms));
  *unchanged = ValuesEqual(*known, *current);
  return true;
}

// Loopback only: 127.0.0.0/8 or "localhost".
bool ParseLoopback(const std::string& ip, in_addr* out) {
  std::string addr = ip == "localhost" ? "127.0.0.1" : ip;
  if (inet_pton(AF_INET, addr.c_str(), out) != 1) return false;
  return (ntohl(out->s_addr) >> 24) == 127;
}

}  // namespace

Server::Server(commands::CommandRunner* runner, const ServerOptions& options)
    : runner_(runner), options_(options) {}

absl::StatusOr<std::unique_ptr<Server>> Server::Start(
    commands::CommandRunner* runner, const ServerOptions& options) {
  std::unique_ptr<Server> server(new Server(runner, options));
  RETURN_IF_ERROR(server->Listen());
  RETURN_IF_ERROR(StartThread(
      &server->listener_, [s = server.get()] { s->AcceptLoop(); },
      "the listener"));
  return server;
}

absl::Status Server::Listen() {
  in_addr addr{};
  if (!ParseLoopback(options_.bind_ip, &addr)) {
    if (inet_pton(AF_INET, options_.bind_ip.c_str(), &addr) != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot bind '", options_.bind_ip, "': not an IPv4 address"));
    }
    if (!options_.auth) {
      return absl::PermissionDeniedError(absl::StrCat(
          "refusing to bind ", options_.bind_ip,
          ": binding a non-loopback address requires access control; start "
          "with --auth (and create a user first, over 127.0.0.1), or bind "
          "127.0.0.1 (the default) or use --unix-socket"));
    }
  }
  if (options_.tls.mode != TlsMode::kDisabled) {
    ASSIGN_OR_RETURN(tls_, TlsContext::Create(options_.tls));
  }
  if (!options_.listen_tcp && options_.unix_socket.empty()) {
    return absl::InvalidArgumentError(
        "a server without TCP needs a unix socket to listen on");
  }
  if (options_.listen_tcp) RETURN_IF_ERROR(ListenTcp(addr));
  if (!options_.unix_socket.empty()) RETURN_IF_ERROR(ListenUnix());
  return absl::OkStatus();
}

absl::Status Server::ListenTcp(const in_addr& addr) {
  tcp_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (tcp_fd_ < 0) return Errno("socket");
  int one = 1;
  setsockopt(tcp_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr = addr;
  sa.sin_port = htons(static_cast<uint16_t>(options_.port));
  if (bind(tcp_fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    return Errno(absl::StrCat("bind ", options_.bind_ip, ":", options_.port));
  }
  if (listen(tcp_fd_, 128) != 0) return Errno("listen");
  socklen_t len = sizeof sa;
  getsockname(tcp_fd_, reinterpret_cast<sockaddr*>(&sa), &len);
  port_ = ntohs(sa.sin_port);
  return absl::OkStatus();
}

absl::Status Server::ListenUnix() {
  sockaddr_un un{};
  un.sun_family = AF_UNIX;
  if (options_.unix_socket.size() >= sizeof un.sun_path) {
    return absl::InvalidArgumentError(
        absl::StrCat("unix socket path too long: ", options_.unix_socket));
  }
  std::strcpy(un.sun_path, options_.unix_socket.c_str());
  struct stat st;
  if (lstat(un.sun_path, &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return absl::AlreadyExistsError(
          absl::StrCat(options_.unix_socket, " exists and is not a socket"));
    }
    unlink(un.sun_path);  // stale, as mongod replaces it
  }
  unix_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (unix_fd_ < 0) return Errno("socket");
  if (bind(unix_fd_, reinterpret_cast<sockaddr*>(&un), sizeof un) != 0) {
    return Errno(absl::StrCat("bind ", options_.unix_socket));
  }
  chmod(un.sun_path, 0700);
  if (listen(unix_fd_, 128) != 0) return Errno("listen");
  return absl::OkStatus();
}

void Server::AcceptLoop() {
  std::vector<pollfd> fds;
  if (tcp_fd_ >= 0) fds.push_back({tcp_fd_, POLLIN, 0});
  if (unix_fd_ >= 0) fds.push_back({unix_fd_, POLLIN, 0});
  while (!stopping_.load()) {
    ReapFinished();
    for (auto& p : fds) p.revents = 0;
    int n = poll(fds.data(), fds.size(), kAcceptPollMillis);
    if (n <= 0) continue;
    for (const pollfd& p : fds) {
      if (!(p.revents & POLLIN)) continue;
      sockaddr_storage peer{};
      socklen_t len = sizeof peer;
      int fd =
          accept4(p.fd, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC);
      if (fd < 0) continue;
      if (connections_.load() >= options_.max_connections) {
        close(fd);  // mongod: "connection refused because too many open
                    // connections"
        continue;
      }
      auto client = std::make_unique<Client>();
      client->fd = fd;
      if (peer.ss_family == AF_INET) {
        auto* in = reinterpret_cast<sockaddr_in*>(&peer);
        char buf[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &in->sin_addr, buf, sizeof buf);
        client->peer = absl::StrCat(buf, ":", ntohs(in->sin_port));
        client->local = (ntohl(in->sin_addr.s_addr) >> 24) == 127;
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      } else {
        client->peer = "anonymous unix socket";
        client->local = true;
      }
      connections_.fetch_add(1);
      Client* c = client.get();
      absl::MutexLock lock(&mu_);
      absl::Status started = StartThread(
          &c->thread,
          [this, c] {
            Serve(c);
            close(c->fd);
            connections_.fetch_sub(1);
            c->done.store(true);
          },
          "a connection");
      if (!started.ok()) {
        // A process or memory limit refused the thread: this connection is
        // closed and the server goes on serving the others, as mongod
        // does when it cannot start a thread for a new connection.
        if (options_.logger) {
          options_.logger(LogLevel::kWarning,
                          absl::StrCat("refusing connection from ", c->peer,
                                       ": ", started.message()));
        }
        // Counted before the close, so that a client that sees the close
        // also sees the count.
        refused_threads_.fetch_add(1);
        connections_.fetch_sub(1);
        close(fd);
        continue;
      }
      clients_.push_back(std::move(client));
    }
  }
}

void Server::ReapFinished() {
  std::list<std::unique_ptr<Client>> finished;
  {
    absl::MutexLock lock(&mu_);
    for (auto it = clients_.begin(); it != clients_.end();) {
      if ((*it)->done.load()) {
        finished.push_back(std::move(*it));
        it = clients_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& c : finished) c->thread.join();
}

void Server::Serve(Client* client) {
  Transport io(client->fd);
  // The TLS handshake (or the decision to go without) is bounded like a
  // message.
  if (!io.Start(tls_.get(), absl::Now() + options_.message_timeout,
                stopping_)) {
    return;
  }
  std::unique_ptr<commands::Connection> connection = runner_->NewConnection();
  connection->set_peer(client->peer);
  connection->set_local(client->local);
  std::vector<uint8_t> buf;
  for (;;) {
    // Between messages a client may idle; a started message must finish
    // within message_timeout.
    if (io.WaitReadable(stopping_) != IoResult::kOk) return;
    absl::Time deadline = absl::Now() + options_.message_timeout;
    uint8_t header_bytes[kHeaderSize];
    if (io.ReadFull(header_bytes, kHeaderSize, deadline, &stopping_) !=
        IoResult::kOk) {
      return;
    }
    absl::StatusOr<MessageHeader> header = ParseHeader(header_bytes);
    if (!header.ok()) return;  // the stream cannot be resynchronized
    if (!IsRequestOpCode(header->op_code)) return;
    size_t body_size =
        static_cast<size_t>(header->message_length) - kHeaderSize;
    // The buffer grows with the bytes that actually arrive (1 MiB at a
    // time), so a header claiming 48 MB that is never followed by a body
    // costs nothing.
    constexpr size_t kChunk = 1 << 20;
    buf.clear();
    while (buf.size() < body_size) {
      size_t have = buf.size();
      size_t want = std::min(kChunk, body_size - have);
      buf.resize(have + want);
      if (io.ReadFull(buf.data() + have, want, deadline, &stopping_) !=
          IoResult::kOk) {
        return;
      }
    }
    bool more_to_come = false;
    absl::StatusOr<Request> request =
        ParseRequest(*header, buf.data(), body_size, &more_to_come);
    // Large buffers are not kept for an idle connection.
    if (buf.capacity() > (1 << 20)) std::vector<uint8_t>().swap(buf);
    Value reply;
    bool legacy = header->op_code == kOpQuery;
    bool awaitable = false;
    absl::Duration await;
    if (!request.ok()) {
      if (more_to_come) return;  // no reply expected: nothing to say it on
      reply = ErrorReply(request.status());
    } else {
      reply = runner_->Run(connection.get(), request->db, request->command);
      if (request->more_to_come) continue;
      bool unchanged = false;
      awaitable = !legacy &&
                  IsAwaitableHello(request->command, reply, &await, &unchanged);
      if (awaitable && unchanged && !WaitQuietly(client->fd, await)) return;
    }
    // An awaitable hello with exhaustAllowed streams its replies: each has
    // moreToCome set and answers the previous one, every maxAwaitTimeMS,
    // until the client hangs up (the drivers' streaming monitor).
    const uint32_t flags =
        awaitable && request->exhaust_allowed ? kMoreToCome : 0;
    MessageHeader answering = *header;
    for (;;) {
      int32_t id = next_request_id_.fetch_add(1);
      std::string out = EncodeReply(answering, legacy, id, reply, flags);
      if (flags == 0) {
        // While a client does not read, all this connection holds is the
        // encoded reply: the reply's Values (several times its size) and
        // the request go now. No further request is read until the reply
        // is sent (back-pressure), and a reply not taken within
        // message_timeout closes the connection.
        reply = Value();
        if (request.ok()) request->command = Value();
        // The allocator keeps what a large reply's Values freed in this
        // thread's arena; give it back, or a client that never reads would
        // pin several times the reply's size after all.
        if (out.size() > kTrimAfterReplyBytes) ReleaseFreedMemory();
      }
      pending_reply_bytes_.fetch_add(static_cast<int64_t>(out.size()));
      const IoResult written = io.WriteAll(
          out.data(), out.size(), absl::Now() + options_.message_timeout);
      pending_reply_bytes_.fetch_sub(static_cast<int64_t>(out.size()));
      if (written != IoResult::kOk) return;
      if (flags == 0) break;
      answering.request_id = id;
      if (!WaitQuietly(client->fd, await)) return;
      reply = runner_->Run(connection.get(), request->db, request->command);
    }
  }
}

bool Server::WaitQuietly(int fd, absl::Duration d) {
  absl::Time until = absl::Now() + d;
  while (!stopping_.load()) {
    int64_t left = absl::ToInt64Milliseconds(until - absl::Now());
    if (left <= 0) return true;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 100))) > 0) {
      // The client spoke or hung up while it should be waiting.
      char c;
      return recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
    }
  }
  return false;
}

void Server::Shutdown() {
  {
    absl::MutexLock lock(&mu_);
    if (shut_down_) return;
    shut_down_ = true;
  }
  stopping_.store(true);
  if (listener_.joinable()) listener_.join();
  if (tcp_fd_ >= 0) close(tcp_fd_);
  if (unix_fd_ >= 0) {
    close(unix_fd_);
    unlink(options_.unix_socket.c_str());
  }
  tcp_fd_ = unix_fd_ = -1;
  std::list<std::unique_ptr<Client>> clients;
  {
    absl::MutexLock lock(&mu_);
    clients.swap(clients_);
  }
  for (auto& c : clients) c->thread.join();
}

Server::~Server() {
  Shutdown();
  if (tcp_fd_ >= 0) close(tcp_fd_);
  if (unix_fd_ >= 0) close(unix_fd_);
}

}  // namespace server
}  // namespace ttldb
