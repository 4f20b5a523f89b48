// The OP_MSG / OP_QUERY decoder. Expected codes and messages from MongoDB's
// src/mongo/rpc/op_msg.cpp (OpMsg::parse) and op_msg_test.cpp.
#include "server/message.h"

#include <string>

#include "base/status.h"
#include "document/bson.h"
#include "gtest/gtest.h"
#include "server/crc32c.h"
#include "ttldb/json.h"

namespace ttldb {
namespace server {
namespace {

Value Doc(const char* json) {
  absl::StatusOr<Value> v = ParseDocument(json);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : Value::MakeObject();
}

std::string Bson(const char* json) { return *ValueToBson(Doc(json)); }

void PutInt32(std::string* out, uint32_t v) {
  for (int k = 0; k < 4; ++k) out->push_back(static_cast<char>(v >> (8 * k)));
}

// An OP_MSG from raw sections (after flagBits), header filled in.
std::string OpMsg(uint32_t flags, const std::string& sections,
                  bool checksum = false, bool corrupt_checksum = false) {
  std::string m;
  PutInt32(&m, 0);
  PutInt32(&m, 7);
  PutInt32(&m, 0);
  PutInt32(&m, kOpMsg);
  PutInt32(&m, flags);
  m += sections;
  uint32_t len = m.size() + (checksum ? 4 : 0);
  for (int k = 0; k < 4; ++k) m[k] = static_cast<char>(len >> (8 * k));
  if (checksum) {
    uint32_t crc = Crc32c(reinterpret_cast<const uint8_t*>(m.data()), m.size());
    PutInt32(&m, corrupt_checksum ? crc ^ 1 : crc);
  }
  return m;
}

std::string Sequence(const std::string& name,
                     const std::vector<std::string>& docs) {
  std::string body = name + std::string(1, '\0');
  for (const auto& d : docs) body += d;
  std::string s(1, '\x01');
  PutInt32(&s, body.size() + 4);
  return s + body;
}

std::string Body(const char* json) { return std::string(1, '\0') + Bson(json); }

absl::StatusOr<Request> Parse(const std::string& m, bool* more = nullptr) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(m.data());
  absl::StatusOr<MessageHeader> h = ParseHeader(p);
  if (!h.ok()) return h.status();
  EXPECT_EQ(static_cast<size_t>(h->message_length), m.size());
  return ParseRequest(*h, p + kHeaderSize, m.size() - kHeaderSize, more);
}

TEST(Crc32cTest, CheckValue) {
  EXPECT_EQ(Crc32c(reinterpret_cast<const uint8_t*>("123456789"), 9),
            0xE3069283u);
}

TEST(MessageTest, BodyAndSequenceMerge) {
  std::string m = OpMsg(
      0, Body(R"({"insert": "c", "$db": "test"})") +
             Sequence("documents", {Bson(R"({"a": 1})"), Bson(R"({"a": 2})")}));
  absl::StatusOr<Request> r = Parse(m);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->db, "test");
  EXPECT_FALSE(r->legacy);
  EXPECT_EQ(ToJson(r->command),
            R"({"insert":"c","$db":"test","documents":[{"a":1},{"a":2}]})");
}

TEST(MessageTest, EncodeOpMsgParsesBack) {
  std::string m = EncodeOpMsg(3, Doc(R"({"ping": 1, "$db": "admin"})"));
  absl::StatusOr<Request> r = Parse(m);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->header.request_id, 3);
  EXPECT_EQ(r->db, "admin");
}

TEST(MessageTest, ChecksumVerified) {
  std::string body = Body(R"({"ping": 1, "$db": "admin"})");
  EXPECT_TRUE(Parse(OpMsg(kChecksumPresent, body, true)).ok());
  absl::StatusOr<Request> bad =
      Parse(OpMsg(kChecksumPresent, body, true, true));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(ErrorCode(bad.status()), 288);  // ChecksumMismatch
  EXPECT_EQ(bad.status().message(), "OP_MSG checksum does not match contents");
}

TEST(MessageTest, MoreToComeAndExhaustAllowed) {
  bool more = false;
  absl::StatusOr<Request> r =
      Parse(OpMsg(kMoreToCome | kExhaustAllowed,
                  Body(R"({"ping": 1, "$db": "admin"})")),
            &more);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->more_to_come);
  EXPECT_TRUE(more);
}

TEST(MessageTest, UnknownRequiredFlagIsIllegal) {
  absl::StatusOr<Request> r =
      Parse(OpMsg(1u << 2, Body(R"({"ping": 1, "$db": "admin"})")));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(ErrorCode(r.status()), 223);  // IllegalOpMsgFlag
  // An unknown optional (high) bit is ignored.
  EXPECT_TRUE(Parse(OpMsg(1u << 20, Body(R"({"ping": 1, "$db": "a"})"))).ok());
}

TEST(MessageTest, StructuralErrors) {
  const std::string ping = Body(R"({"ping": 1, "$db": "admin"})");
  struct Case {
    std::string message;
    int code;
  } cases[] = {
      {OpMsg(0, ""), 40587},                             // no body
      {OpMsg(0, ping + ping), 40430},                    // two bodies
      {OpMsg(0, ping + std::string(1, '\x02')), 40432},  // unknown kind
      {OpMsg(0, Body(R"({"ping": 1})")), 40571},         // no $db
      {OpMsg(0, Body(R"({"insert": "c", "documents": [], "$db": "t"})") +
                    Sequence("documents", {})),
       40433},
      {OpMsg(0,
             ping + Sequence("a", {}) + Sequence("b", {}) + Sequence("c", {})),
       233},
      {OpMsg(0, ping + Sequence("a", {}) + Sequence("a", {})), 40431},
      // A sequence identifier that is not UTF-8 (found by
      // fuzz/wire_message_fuzz: it became a key that could not re-encode).
      {OpMsg(0, ping + Sequence("\xff", {})), 22},
      // A body whose length runs past the message.
      {OpMsg(0, ping.substr(0, ping.size() - 1)), 22},
      // A sequence holding half a document.
      {OpMsg(0, ping + Sequence("d", {Bson(R"({"a": 1})").substr(0, 6)})), 22},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Request> r = Parse(c.message);
    ASSERT_FALSE(r.ok()) << c.code;
    EXPECT_EQ(ErrorCode(r.status()), c.code) << r.status();
  }
}

TEST(MessageTest, HeaderLengthBounds) {
  std::string h(16, '\0');
  auto with_length = [&](int32_t len) {
    for (int k = 0; k < 4; ++k) h[k] = static_cast<char>(len >> (8 * k));
    return ParseHeader(reinterpret_cast<const uint8_t*>(h.data()));
  };
  EXPECT_TRUE(with_length(16).ok());
  EXPECT_TRUE(with_length(48000000).ok());
  EXPECT_EQ(ErrorCode(with_length(48000001).status()), 17);
  EXPECT_EQ(ErrorCode(with_length(15).status()), 17);
  EXPECT_EQ(ErrorCode(with_length(-1).status()), 17);
}

std::string OpQuery(const std::string& ns, const std::string& query) {
  std::string m;
  PutInt32(&m, 0);
  PutInt32(&m, 9);
  PutInt32(&m, 0);
  PutInt32(&m, kOpQuery);
  PutInt32(&m, 0);
  m += ns + std::string(1, '\0');
  PutInt32(&m, 0);
  PutInt32(&m, -1);
  m += query;
  uint32_t len = m.size();
  for (int k = 0; k < 4; ++k) m[k] = static_cast<char>(len >> (8 * k));
  return m;
}

TEST(MessageTest, LegacyHandshake) {
  absl::StatusOr<Request> r =
      Parse(OpQuery("admin.$cmd", Bson(R"({"isMaster": 1, "client": {}})")));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->legacy);
  EXPECT_EQ(r->db, "admin");
  EXPECT_EQ(r->command.object_fields()[0].first, "isMaster");
  // Wrapped with a read preference.
  r = Parse(
      OpQuery("admin.$cmd",
              Bson(R"({"$query": {"hello": 1}, "$readPreference": {}})")));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(ToJson(r->command), R"({"hello":1})");
  // Anything else: MongoDB 8.0 refuses OP_QUERY commands but the handshake.
  r = Parse(OpQuery("test.$cmd", Bson(R"({"find": "c"})")));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(ErrorCode(r.status()), 352);
  r = Parse(OpQuery("test.c", Bson(R"({"hello": 1})")));
  EXPECT_EQ(ErrorCode(r.status()), 352);
}

TEST(MessageTest, RepliesAnswerTheRequest) {
  MessageHeader request;
  request.request_id = 41;
  Value reply = Doc(R"({"ok": 1})");
  std::string msg = EncodeReply(request, /*legacy=*/false, 5, reply);
  const uint8_t* p = reinterpret_cast<const uint8_t*>(msg.data());
  absl::StatusOr<MessageHeader> h = ParseHeader(p);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->message_length, static_cast<int32_t>(msg.size()));
  EXPECT_EQ(h->response_to, 41);
  EXPECT_EQ(h->op_code, kOpMsg);
  std::string legacy = EncodeReply(request, /*legacy=*/true, 5, reply);
  h = ParseHeader(reinterpret_cast<const uint8_t*>(legacy.data()));
  EXPECT_EQ(h->op_code, kOpReply);
  // 16 header + 20 OP_REPLY fields, then the document.
  absl::StatusOr<Value> doc = BsonToValue(
      reinterpret_cast<const uint8_t*>(legacy.data()) + 36, legacy.size() - 36);
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(ToJson(*doc), R"({"ok":1})");
}

TEST(MessageTest, ErrorReplyShape) {
  Value v = ErrorReply(MongoError(absl::StatusCode::kInvalidArgument, 288,
                                  "OP_MSG checksum does not match contents"));
  EXPECT_EQ(ToJson(v),
            R"({"ok":0.0,"errmsg":"OP_MSG checksum does not match contents",)"
            R"("code":288,"codeName":"ChecksumMismatch"})");
}

}  // namespace
}  // namespace server
}  // namespace ttldb
