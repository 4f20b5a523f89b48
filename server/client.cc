#include "server/client.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"
#include "server/message.h"
#include "server/scram_client.h"
#include "server/socket_io.h"
#include "server/transport.h"

namespace ttldb {
namespace server {
namespace {

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

absl::StatusOr<int> Connect(absl::string_view host, int port) {
  addrinfo hints;
  std::memset(&hints, 0, sizeof(hints));
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string h(host);
  const std::string p = std::to_string(port);
  if (int rc = getaddrinfo(h.c_str(), p.c_str(), &hints, &found); rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot resolve ", h, ": ", gai_strerror(rc)));
  }
  int fd = -1;
  int error = 0;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
    error = errno;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(found);
  if (fd < 0) {
    return absl::UnavailableError(absl::StrCat("cannot connect to ", h, ":",
                                               port, ": ", strerror(error)));
  }
  return fd;
}

absl::Status IoError(IoResult r, absl::string_view what) {
  if (r == IoResult::kTimeout) {
    return absl::DeadlineExceededError(absl::StrCat("timed out while ", what));
  }
  return absl::UnavailableError(
      absl::StrCat("the server closed the connection while ", what));
}

// Sends `command` (with "$db": db) on `fd` and reads the reply.
absl::StatusOr<Value> RoundTrip(Transport& fd, int32_t request_id,
                                absl::string_view db, Value command,
                                absl::Time deadline) {
  command.Set("$db", Value::String(std::string(db)));
  const std::string request = EncodeOpMsg(request_id, command);
  if (IoResult r = fd.WriteAll(request.data(), request.size(), deadline);
      r != IoResult::kOk) {
    return IoError(r, "sending the command");
  }
  uint8_t head[16];
  if (IoResult r = fd.ReadFull(head, sizeof(head), deadline);
      r != IoResult::kOk) {
    return IoError(r, "waiting for the reply");
  }
  absl::StatusOr<MessageHeader> header = ParseHeader(head);
  if (!header.ok()) return header.status();
  std::string body(static_cast<size_t>(header->message_length) - 16, '\0');
  if (IoResult r = fd.ReadFull(reinterpret_cast<uint8_t*>(body.data()),
                               body.size(), deadline);
      r != IoResult::kOk) {
    return IoError(r, "reading the reply");
  }
  // mongod answers an OP_MSG with an OP_MSG: flagBits, then one kind-0
  // section holding the reply document (no document sequences, no
  // checksum: ttldb's server sends none).
  if (header->op_code != kOpMsg || body.size() < 5 || body[4] != 0) {
    return absl::DataLossError(
        absl::StrCat("the reply is not an OP_MSG with a body (opCode ",
                     header->op_code, ")"));
  }
  return BsonToValue(reinterpret_cast<const uint8_t*>(body.data()) + 5,
                     body.size() - 5);
}

bool IsOk(const Value& reply) {
  const Value* ok = reply.Get("ok");
  return ok != nullptr && ok->is_number() && ok->AsDouble() == 1;
}

// The payload of a saslStart/saslContinue reply.
absl::StatusOr<std::string> Payload(const Value& reply) {
  const Value* p = reply.Get("payload");
  if (p == nullptr || p->type() != ValueType::kBinary) {
    return absl::DataLossError("the SASL reply has no payload");
  }
  return p->binary_value().data;
}

Value Bin(std::string data) {
  Binary b;
  b.subtype = 0;
  b.data = std::move(data);
  return Value::Bin(std::move(b));
}

// SCRAM-SHA-256 on `fd` (driver auth spec): saslStart with client-first,
// saslContinue with client-final, skipping the empty last round. The
// server's refusal is returned as its reply; nullopt once logged in.
absl::StatusOr<std::optional<Value>> Login(Transport& fd,
                                           const RemoteCredentials& cred,
                                           absl::Time deadline) {
  ScramSha256Client scram(cred.user, cred.password);
  ASSIGN_OR_RETURN(
      Value first,
      RoundTrip(fd, 1, cred.source,
                Value::MakeObject(
                    {{"saslStart", Value::Int32(1)},
                     {"mechanism", Value::String("SCRAM-SHA-256")},
                     {"payload", Bin(scram.ClientFirst())},
                     {"options", Value::MakeObject({{"skipEmptyExchange",
                                                     Value::Bool(true)}})}}),
                deadline));
  if (!IsOk(first)) return first;
  ASSIGN_OR_RETURN(std::string server_first, Payload(first));
  ASSIGN_OR_RETURN(std::string client_final, scram.ClientFinal(server_first));
  const Value* id = first.Get("conversationId");
  if (id == nullptr) {
    return absl::DataLossError("the saslStart reply has no conversationId");
  }
  ASSIGN_OR_RETURN(
      Value final_reply,
      RoundTrip(fd, 2, cred.source,
                Value::MakeObject({{"saslContinue", Value::Int32(1)},
                                   {"conversationId", *id},
                                   {"payload", Bin(client_final)}}),
                deadline));
  if (!IsOk(final_reply)) return final_reply;
  ASSIGN_OR_RETURN(std::string server_final, Payload(final_reply));
  RETURN_IF_ERROR(scram.VerifyServerFinal(server_final));
  const Value* done = final_reply.Get("done");
  if (done == nullptr || done->type() != ValueType::kBool ||
      !done->bool_value()) {
    return absl::DataLossError("the SASL conversation did not end");
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<Value> RunRemoteCommand(absl::string_view host, int port,
                                       absl::string_view db, Value command,
                                       absl::Duration timeout,
                                       const RemoteCredentials* credentials,
                                       const ClientTlsOptions* tls) {
  if (!command.is_object()) {
    return absl::InvalidArgumentError("a command must be an object");
  }
  const absl::Time deadline = absl::Now() + timeout;
  absl::StatusOr<int> fd_or = Connect(host, port);
  if (!fd_or.ok()) return fd_or.status();
  Fd fd(*fd_or);
  Transport transport(fd.get());
  if (tls != nullptr) {
    ASSIGN_OR_RETURN(std::unique_ptr<ClientTlsContext> context,
                     ClientTlsContext::Create(*tls));
    RETURN_IF_ERROR(transport.StartClient(*context, host, deadline));
  }
  if (credentials != nullptr) {
    ASSIGN_OR_RETURN(std::optional<Value> refused,
                     Login(transport, *credentials, deadline));
    if (refused.has_value()) return *std::move(refused);
  }
  return RoundTrip(transport, 3, db, std::move(command), deadline);
}

}  // namespace server
}  // namespace ttldb
