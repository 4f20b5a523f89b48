#include "server/client.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "document/bson.h"
#include "server/message.h"
#include "server/socket_io.h"

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

}  // namespace

absl::StatusOr<Value> RunRemoteCommand(absl::string_view host, int port,
                                       absl::string_view db, Value command,
                                       absl::Duration timeout) {
  if (!command.is_object()) {
    return absl::InvalidArgumentError("a command must be an object");
  }
  command.Set("$db", Value::String(std::string(db)));
  const absl::Time deadline = absl::Now() + timeout;
  absl::StatusOr<int> fd_or = Connect(host, port);
  if (!fd_or.ok()) return fd_or.status();
  Fd fd(*fd_or);
  const std::string request = EncodeOpMsg(/*request_id=*/1, command);
  if (IoResult r = WriteAll(fd.get(), request.data(), request.size(), deadline);
      r != IoResult::kOk) {
    return IoError(r, "sending the command");
  }
  uint8_t head[16];
  if (IoResult r = ReadFull(fd.get(), head, sizeof(head), deadline);
      r != IoResult::kOk) {
    return IoError(r, "waiting for the reply");
  }
  absl::StatusOr<MessageHeader> header = ParseHeader(head);
  if (!header.ok()) return header.status();
  std::string body(static_cast<size_t>(header->message_length) - 16, '\0');
  if (IoResult r = ReadFull(fd.get(), reinterpret_cast<uint8_t*>(body.data()),
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

}  // namespace server
}  // namespace ttldb
