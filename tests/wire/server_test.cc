// `ttldb serve`'s server over real sockets, with hostile peers: whatever a
// client sends, the server neither crashes nor hangs other clients nor
// allocates beyond one message; malformed messages get MongoDB's error
// replies or a closed connection (server/message.h says which).
// Expected codes: src/mongo/rpc/op_msg.cpp (OpMsg::parse),
// src/mongo/transport/asio/asio_session_impl.cpp (msgLen bounds: the
// connection is closed), src/mongo/util/net/hostandport / mongod's bindIp.
#include "server/server.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "commands/command_runner.h"
#include "document/bson.h"
#include "gtest/gtest.h"
#include "server/message.h"
#include "tests/test_util.h"
#include "ttldb/json.h"

namespace ttldb {
namespace server {
namespace {

void PutInt32(std::string* out, uint32_t v) {
  for (int k = 0; k < 4; ++k) out->push_back(static_cast<char>(v >> (8 * k)));
}

Value Doc(const std::string& json) {
  absl::StatusOr<Value> v = ParseDocument(json);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : Value::MakeObject();
}

// A blocking client socket with helpers for raw messages.
class RawClient {
 public:
  explicit RawClient(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = htons(port);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0;
  }
  explicit RawClient(const std::string& unix_path) {
    fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un un{};
    un.sun_family = AF_UNIX;
    std::strcpy(un.sun_path, unix_path.c_str());
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&un), sizeof un) == 0;
  }
  ~RawClient() { close(fd_); }
  bool connected() const { return connected_; }

  bool Send(const std::string& bytes) {
    return send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }

  // Reads one reply within `timeout`; false if the connection closed or
  // nothing came. *header and *doc describe it.
  bool Receive(Value* doc, MessageHeader* header = nullptr,
               absl::Duration timeout = absl::Seconds(10),
               uint32_t* flags = nullptr) {
    std::string h;
    if (!ReadN(16, timeout, &h)) return false;
    absl::StatusOr<MessageHeader> parsed =
        ParseHeader(reinterpret_cast<const uint8_t*>(h.data()));
    if (!parsed.ok()) return false;
    std::string body;
    if (!ReadN(parsed->message_length - 16, timeout, &body)) return false;
    if (header != nullptr) *header = *parsed;
    if (flags != nullptr && parsed->op_code == kOpMsg && body.size() >= 4) {
      std::memcpy(flags, body.data(), 4);
    }
    size_t skip = parsed->op_code == kOpReply ? 20 : 5;  // OP_MSG: flags+kind
    absl::StatusOr<Value> v =
        BsonToValue(reinterpret_cast<const uint8_t*>(body.data()) + skip,
                    body.size() - skip);
    if (!v.ok()) return false;
    *doc = *v;
    return true;
  }

  // True when the server closed the connection within `timeout`.
  bool ClosedByServer(absl::Duration timeout = absl::Seconds(10)) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, absl::ToInt64Milliseconds(timeout)) <= 0) return false;
    char c;
    return recv(fd_, &c, 1, 0) <= 0;
  }

  Value Command(const std::string& json) {
    EXPECT_TRUE(Send(EncodeOpMsg(++id_, Doc(json))));
    Value reply;
    EXPECT_TRUE(Receive(&reply)) << json;
    return reply;
  }

 private:
  bool ReadN(size_t n, absl::Duration timeout, std::string* out) {
    absl::Time deadline = absl::Now() + timeout;
    out->resize(n);
    size_t got = 0;
    while (got < n) {
      int64_t left = absl::ToInt64Milliseconds(deadline - absl::Now());
      pollfd p{fd_, POLLIN, 0};
      if (left <= 0 || poll(&p, 1, left) <= 0) return false;
      ssize_t r = recv(fd_, &(*out)[got], n - got, 0);
      if (r <= 0) return false;
      got += r;
    }
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  int32_t id_ = 100;
};

double Ok(const Value& reply) {
  const Value* ok = reply.Get("ok");
  return ok != nullptr && ok->is_number() ? ok->AsDouble() : -1;
}

int Code(const Value& reply) {
  const Value* code = reply.Get("code");
  return code != nullptr && code->is_number() ? code->int32_value() : 0;
}

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { StartServer(ServerOptions()); }

  void StartServer(ServerOptions options) {
    server_.reset();
    if (runner_ == nullptr) {
      auto runner = commands::CommandRunner::Open(dir_.path(), {});
      ASSERT_TRUE(runner.ok()) << runner.status();
      runner_ = std::move(*runner);
    }
    options.port = 0;
    if (options.message_timeout == ServerOptions().message_timeout) {
      options.message_timeout = absl::Seconds(1);
    }
    auto server = Server::Start(runner_.get(), options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
  }

  void TearDown() override {
    server_.reset();
    if (runner_ != nullptr) {
      EXPECT_TRUE(runner_->Close().ok());
    }
  }

  // A fresh client can still ping: the server is alive and responsive.
  void ExpectServing() {
    RawClient c(server_->port());
    ASSERT_TRUE(c.connected());
    absl::Time start = absl::Now();
    EXPECT_EQ(Ok(c.Command(R"({"ping": 1, "$db": "admin"})")), 1);
    EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  }

  TempDir dir_;
  std::unique_ptr<commands::CommandRunner> runner_;
  std::unique_ptr<Server> server_;
};

TEST_F(ServerTest, PingAndCrudOverOpMsg) {
  RawClient c(server_->port());
  ASSERT_TRUE(c.connected());
  EXPECT_EQ(Ok(c.Command(R"({"ping": 1, "$db": "admin"})")), 1);
  Value ins = c.Command(
      R"({"insert": "c", "documents": [{"_id": 1, "a": "x"}], "$db": "test"})");
  EXPECT_EQ(Ok(ins), 1) << ToJson(ins);
  Value found = c.Command(R"({"find": "c", "filter": {}, "$db": "test"})");
  EXPECT_EQ(ToJson(*found.Get("cursor")->Get("firstBatch")),
            R"([{"_id":1,"a":"x"}])");
}

TEST_F(ServerTest, LegacyIsMasterGetsAnOpReply) {
  std::string m;
  PutInt32(&m, 0);
  PutInt32(&m, 77);
  PutInt32(&m, 0);
  PutInt32(&m, kOpQuery);
  PutInt32(&m, 0);
  m += std::string("admin.$cmd") + '\0';
  PutInt32(&m, 0);
  PutInt32(&m, -1);
  m += *ValueToBson(Doc(R"({"isMaster": 1})"));
  uint32_t len = m.size();
  for (int k = 0; k < 4; ++k) m[k] = static_cast<char>(len >> (8 * k));
  RawClient c(server_->port());
  ASSERT_TRUE(c.Send(m));
  Value reply;
  MessageHeader h;
  ASSERT_TRUE(c.Receive(&reply, &h));
  EXPECT_EQ(h.op_code, kOpReply);
  EXPECT_EQ(h.response_to, 77);
  EXPECT_EQ(Ok(reply), 1) << ToJson(reply);
  EXPECT_EQ(reply.Get("maxMessageSizeBytes")->AsDouble(), 48000000);
}

TEST_F(ServerTest, BadLengthsCloseTheConnection) {
  for (int32_t len : {0, 15, -5, 48000001}) {
    RawClient c(server_->port());
    std::string m;
    PutInt32(&m, len);
    PutInt32(&m, 1);
    PutInt32(&m, 0);
    PutInt32(&m, kOpMsg);
    ASSERT_TRUE(c.Send(m));
    EXPECT_TRUE(c.ClosedByServer()) << len;
  }
  ExpectServing();
}

TEST_F(ServerTest, UnknownOpcodesAndCompressionCloseTheConnection) {
  for (int32_t op : {int32_t{kOpCompressed}, int32_t{2001} /* OP_UPDATE */,
                     int32_t{9999}, int32_t{kOpReply}}) {
    RawClient c(server_->port());
    std::string m = EncodeOpMsg(1, Doc(R"({"ping": 1, "$db": "admin"})"));
    for (int k = 0; k < 4; ++k) m[12 + k] = static_cast<char>(op >> (8 * k));
    ASSERT_TRUE(c.Send(m));
    EXPECT_TRUE(c.ClosedByServer()) << op;
  }
  ExpectServing();
}

TEST_F(ServerTest, InvalidBsonGetsAnErrorReplyAndTheConnectionGoesOn) {
  RawClient c(server_->port());
  std::string m = EncodeOpMsg(5, Doc(R"({"ping": 1, "$db": "admin"})"));
  m[21] = 0x7f;  // the body document's length byte: past the message end
  ASSERT_TRUE(c.Send(m));
  Value reply;
  MessageHeader h;
  ASSERT_TRUE(c.Receive(&reply, &h));
  EXPECT_EQ(h.response_to, 5);
  EXPECT_EQ(Ok(reply), 0);
  EXPECT_EQ(Code(reply), 22) << ToJson(reply);
  EXPECT_EQ(reply.Get("codeName")->string_value(), "InvalidBSON");
  // Invalid UTF-8 in a string: InvalidBSON too.
  std::string bad = EncodeOpMsg(6, Doc(R"({"ping": "xx", "$db": "admin"})"));
  size_t at = bad.find("xx");
  bad[at] = '\xff';
  ASSERT_TRUE(c.Send(bad));
  ASSERT_TRUE(c.Receive(&reply));
  EXPECT_EQ(Code(reply), 22);
  EXPECT_EQ(Ok(c.Command(R"({"ping": 1, "$db": "admin"})")), 1);
}

TEST_F(ServerTest, HalfSentMessageThenSilenceDoesNotBlockOthers) {
  // Claims 47 MB, sends 20 bytes of it, then waits.
  RawClient stalled(server_->port());
  std::string m;
  PutInt32(&m, 47000000);
  PutInt32(&m, 1);
  PutInt32(&m, 0);
  PutInt32(&m, kOpMsg);
  m += "0123";
  ASSERT_TRUE(stalled.Send(m));
  // Meanwhile another client is served at once.
  ExpectServing();
  // The staller is cut off after message_timeout (1 s here).
  EXPECT_TRUE(stalled.ClosedByServer(absl::Seconds(5)));
  // A truncated message followed by a close is harmless too.
  {
    RawClient quitter(server_->port());
    std::string ping = EncodeOpMsg(1, Doc(R"({"ping": 1, "$db": "admin"})"));
    ASSERT_TRUE(quitter.Send(ping.substr(0, ping.size() / 2)));
  }
  ExpectServing();
}

int64_t RssKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  }
  return 0;
}

TEST_F(ServerTest, ClaimedSizesCostNothingUntilTheBytesArrive) {
  // 20 clients each claim a 47 MB message and send only its header: the
  // server must not reserve 940 MB for them.
  ServerOptions options;
  options.message_timeout = absl::Seconds(5);
  StartServer(options);
  int64_t before = RssKiB();
  std::vector<std::unique_ptr<RawClient>> stalled;
  for (int i = 0; i < 20; ++i) {
    stalled.push_back(std::make_unique<RawClient>(server_->port()));
    std::string m;
    PutInt32(&m, 47000000);
    PutInt32(&m, 1);
    PutInt32(&m, 0);
    PutInt32(&m, kOpMsg);
    m += "0123456789";
    ASSERT_TRUE(stalled.back()->Send(m));
  }
  ExpectServing();
  absl::SleepFor(absl::Milliseconds(300));
  EXPECT_LT(RssKiB() - before, 100 * 1024) << "KiB grown";
}

TEST_F(ServerTest, MoreToComeSendsNoReply) {
  RawClient c(server_->port());
  ASSERT_TRUE(c.Send(EncodeOpMsg(
      1, Doc(R"({"insert": "q", "documents": [{"_id": 1}], "$db": "test"})"),
      kMoreToCome)));
  Value reply;
  EXPECT_FALSE(c.Receive(&reply, nullptr, absl::Milliseconds(300)));
  Value found = c.Command(R"({"find": "q", "$db": "test"})");
  EXPECT_EQ(ToJson(*found.Get("cursor")->Get("firstBatch")), R"([{"_id":1}])");
}

// The drivers' streaming monitor: hello with topologyVersion and
// maxAwaitTimeMS, exhaustAllowed. mongod waits maxAwaitTimeMS (the
// topology of a standalone never changes), then streams replies flagged
// moreToCome, each answering the previous one (MongoDB's server monitoring
// specification; src/mongo/db/repl/replication_info.cpp, awaitable hello).
TEST_F(ServerTest, AwaitableHelloStreamsWithExhaust) {
  RawClient c(server_->port());
  Value first = c.Command(R"({"hello": 1, "$db": "admin"})");
  ASSERT_EQ(Ok(first), 1);
  const Value* tv = first.Get("topologyVersion");
  ASSERT_NE(tv, nullptr);
  Value hello = Doc(R"({"hello": 1, "maxAwaitTimeMS": 300, "$db": "admin"})");
  hello.Set("topologyVersion", *tv);
  absl::Time start = absl::Now();
  ASSERT_TRUE(c.Send(EncodeOpMsg(500, hello, kExhaustAllowed)));
  Value reply;
  MessageHeader h;
  uint32_t flags = 0;
  ASSERT_TRUE(c.Receive(&reply, &h, absl::Seconds(5), &flags));
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(250));
  EXPECT_EQ(h.response_to, 500);
  EXPECT_EQ(flags & kMoreToCome, kMoreToCome);
  EXPECT_EQ(Ok(reply), 1);
  MessageHeader next;
  ASSERT_TRUE(c.Receive(&reply, &next, absl::Seconds(5), &flags));
  EXPECT_EQ(next.response_to, h.request_id);
  EXPECT_EQ(flags & kMoreToCome, kMoreToCome);
  // Other clients are served meanwhile, and shutdown ends the stream.
  ExpectServing();
  server_->Shutdown();
  EXPECT_TRUE(c.ClosedByServer(absl::Seconds(2)));
}

TEST_F(ServerTest, AwaitableHelloWithoutExhaustWaitsThenGoesOn) {
  RawClient c(server_->port());
  Value first = c.Command(R"({"hello": 1, "$db": "admin"})");
  Value hello = Doc(R"({"hello": 1, "maxAwaitTimeMS": 200, "$db": "admin"})");
  hello.Set("topologyVersion", *first.Get("topologyVersion"));
  absl::Time start = absl::Now();
  ASSERT_TRUE(c.Send(EncodeOpMsg(501, hello)));
  Value reply;
  uint32_t flags = 1;
  ASSERT_TRUE(c.Receive(&reply, nullptr, absl::Seconds(5), &flags));
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(150));
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(Ok(c.Command(R"({"ping": 1, "$db": "admin"})")), 1);
}

TEST_F(ServerTest, ConnectionsBeyondTheLimitAreClosed) {
  ServerOptions options;
  options.max_connections = 2;
  StartServer(options);
  RawClient a(server_->port()), b(server_->port());
  EXPECT_EQ(Ok(a.Command(R"({"ping": 1, "$db": "admin"})")), 1);
  EXPECT_EQ(Ok(b.Command(R"({"ping": 1, "$db": "admin"})")), 1);
  RawClient c(server_->port());
  EXPECT_TRUE(c.ClosedByServer());
  EXPECT_EQ(server_->connection_count(), 2);
}

// Issue 28 item 11 (review N9): when the system refuses a thread for a
// connection (a process limit such as systemd's TasksMax), that connection
// is closed and the server goes on; it used to abort on the uncaught
// std::system_error. The refusal is injected at StartThread's sync point.
TEST_F(ServerTest, ThreadRefusedClosesThatConnectionAndServingGoesOn) {
  RawClient before(server_->port());
  EXPECT_EQ(Ok(before.Command(R"({"ping": 1, "$db": "admin"})")), 1);
  std::atomic<int> refusals{2};
  SyncPoint::Set("StartThread", [&] {
    if (refusals.fetch_sub(1) > 0) {
      throw std::system_error(EAGAIN, std::generic_category(),
                              "injected thread refusal");
    }
  });
  RawClient a(server_->port()), b(server_->port());
  EXPECT_TRUE(a.ClosedByServer());
  EXPECT_TRUE(b.ClosedByServer());
  SyncPoint::ClearAll();
  EXPECT_EQ(server_->refused_for_threads(), 2);
  // The connection that had its thread, and new ones, are served.
  EXPECT_EQ(Ok(before.Command(R"({"ping": 1, "$db": "admin"})")), 1);
  ExpectServing();
}

TEST_F(ServerTest, UnixSocket) {
  ServerOptions options;
  options.unix_socket = absl::StrCat("/tmp/ttldb-test-", getpid(), ".sock");
  StartServer(options);
  RawClient c(options.unix_socket);
  ASSERT_TRUE(c.connected());
  EXPECT_EQ(Ok(c.Command(R"({"ping": 1, "$db": "admin"})")), 1);
  server_.reset();
  EXPECT_NE(access(options.unix_socket.c_str(), F_OK), 0) << "socket removed";
}

// listen_tcp false (the in-process shell's server): the socket alone, no
// port; without a socket there would be nothing to listen on.
TEST_F(ServerTest, UnixSocketWithoutTcp) {
  ServerOptions options;
  options.listen_tcp = false;
  auto refused = Server::Start(runner_.get(), options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  options.unix_socket =
      absl::StrCat("/tmp/ttldb-test-notcp-", getpid(), ".sock");
  auto server = Server::Start(runner_.get(), options);
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_EQ((*server)->port(), 0);
  RawClient c(options.unix_socket);
  ASSERT_TRUE(c.connected());
  EXPECT_EQ(Ok(c.Command(R"({"ping": 1, "$db": "admin"})")), 1);
  server->reset();
  EXPECT_NE(access(options.unix_socket.c_str(), F_OK), 0) << "socket removed";
}

TEST_F(ServerTest, NonLoopbackBindIsRefused) {
  ServerOptions options;
  options.bind_ip = "0.0.0.0";
  options.port = 0;
  auto server = Server::Start(runner_.get(), options);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(server.status().message().find(
                "binding a non-loopback address requires access control; "
                "start with --auth"),
            absl::string_view::npos)
      << server.status();
}

// With access control on, any address may be bound (issue 17's bind rule).
TEST_F(ServerTest, NonLoopbackBindWithAuth) {
  ServerOptions options;
  options.bind_ip = "0.0.0.0";
  options.port = 0;
  options.auth = true;
  auto server = Server::Start(runner_.get(), options);
  ASSERT_TRUE(server.ok()) << server.status();
  RawClient c((*server)->port());
  EXPECT_EQ(Ok(c.Command(R"({"ping": 1, "$db": "admin"})")), 1);
}

TEST_F(ServerTest, ShutdownClosesIdleConnections) {
  RawClient c(server_->port());
  EXPECT_EQ(Ok(c.Command(R"({"ping": 1, "$db": "admin"})")), 1);
  absl::Time start = absl::Now();
  server_->Shutdown();
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  EXPECT_TRUE(c.ClosedByServer());
}

}  // namespace
}  // namespace server
}  // namespace ttldb
