// The wire-protocol decoder (server/message.h) and BSON conversion
// (document/bson.h) on arbitrary bytes: never crashes, never reads out
// of bounds; every error has a MongoDB code; a decoded command re-encodes
// to BSON that decodes to the same value, and a decoded document
// re-encodes to exactly its input bytes' value.
#include "base/status.h"
#include "document/bson.h"
#include "document/compare.h"
#include "fuzz/fuzz_util.h"
#include "server/message.h"
#include "ttldb/json.h"

namespace {

void CheckRoundTrip(const ttldb::Value& v) {
  using namespace ttldb;
  auto bson = ValueToBson(v);
  FUZZ_CHECK(bson.ok(), std::string(bson.status().message()));
  auto again =
      BsonToValue(reinterpret_cast<const uint8_t*>(bson->data()), bson->size());
  FUZZ_CHECK(again.ok(), std::string(again.status().message()));
  FUZZ_CHECK(ToJson(*again, JsonFormat::kCanonical) ==
                 ToJson(v, JsonFormat::kCanonical),
             ToJson(v, JsonFormat::kCanonical));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  // The bytes as one BSON document.
  auto doc = BsonToValue(data, size);
  if (doc.ok()) {
    CheckRoundTrip(*doc);
  } else {
    FUZZ_CHECK(ErrorCode(doc.status()) != 0, "BSON error without a code");
  }
  // The bytes as a message: header, then the body as sent.
  if (size < server::kHeaderSize) return 0;
  auto header = server::ParseHeader(data);
  if (!header.ok()) {
    FUZZ_CHECK(ErrorCode(header.status()) != 0, "header error without code");
    return 0;
  }
  if (!server::IsRequestOpCode(header->op_code)) return 0;
  bool more = false;
  auto request = server::ParseRequest(*header, data + server::kHeaderSize,
                                      size - server::kHeaderSize, &more);
  if (!request.ok()) {
    FUZZ_CHECK(ErrorCode(request.status()) != 0, "request error without code");
    // The error reply always encodes.
    std::string reply = server::EncodeReply(
        *header, false, 1, server::ErrorReply(request.status()));
    FUZZ_CHECK(reply.size() > server::kHeaderSize, "empty reply");
    return 0;
  }
  FUZZ_CHECK(request->command.is_object(), "command is not a document");
  CheckRoundTrip(request->command);
  return 0;
}
