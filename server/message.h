// MongoDB's wire protocol messages, as ttldb's server reads and writes them.
//
// Every message starts with a 16-byte little-endian header:
//   int32 messageLength   the whole message, header included
//   int32 requestID
//   int32 responseTo      the requestID a reply answers
//   int32 opCode
//
// Requests ttldb understands:
//   OP_MSG (2013): uint32 flagBits, then sections, then an optional
//     CRC-32C. flagBits: bit 0 checksumPresent (the checksum is verified,
//     as mongod does: ChecksumMismatch 288), bit 1 moreToCome (no reply is
//     sent), bit 16 exhaustAllowed (ttldb streams only the awaitable
//     hello's replies, as server/server.h says). Any other bit among the
//     low 16 ("required") is IllegalOpMsgFlag (223). Sections: kind 0, the body
//     (exactly one BSON document); kind 1, a document sequence (int32 size,
//     cstring identifier, documents), merged into the body as an array under
//     its identifier (insert's `documents`, update's `updates`). At most two
//     sequences (TooManyDocumentSequences 233), never named like a body
//     field (40433). The body names its database in `$db` (40571).
//   OP_QUERY (2004): the legacy handshake older clients send first:
//     int32 flags, cstring "<db>.$cmd", int32 skip, int32 return, the
//     command document (possibly wrapped as {$query: ...}), an optional
//     projection. Only hello/isMaster/ismaster are accepted, as MongoDB
//     8.0 (UnsupportedOpQueryCommand 352 otherwise); the reply is OP_REPLY.
// Anything else (OP_COMPRESSED, which ttldb never advertises, the removed
// legacy opcodes, unknown numbers) is not a request: the server closes the
// connection.
//
// Limits: messageLength is between 16 and 48,000,000 bytes (MongoDB's
// MaxMessageSizeBytes); sections must fit their message exactly.
#ifndef TTLDB_SERVER_MESSAGE_H_
#define TTLDB_SERVER_MESSAGE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ttldb/value.h"

namespace ttldb {
namespace server {

// 48,000,000: MongoDB's MaxMessageSizeBytes (and hello's maxMessageSizeBytes).
constexpr int32_t kMaxMessageSizeBytes = 48000000;
constexpr size_t kHeaderSize = 16;

// DO NOT CHANGE THESE VALUES: they are MongoDB's.
enum OpCode : int32_t {
  kOpReply = 1,
  kOpQuery = 2004,
  kOpCompressed = 2012,
  kOpMsg = 2013,
};

// OP_MSG flag bits.
constexpr uint32_t kChecksumPresent = 1u << 0;
constexpr uint32_t kMoreToCome = 1u << 1;
constexpr uint32_t kExhaustAllowed = 1u << 16;

struct MessageHeader {
  int32_t message_length = 0;
  int32_t request_id = 0;
  int32_t response_to = 0;
  int32_t op_code = 0;
};

// Reads the 16 header bytes. Fails (ProtocolError 17) when messageLength is
// below 16 or above kMaxMessageSizeBytes: the connection cannot go on.
absl::StatusOr<MessageHeader> ParseHeader(const uint8_t* bytes);

// True for the opcodes ParseRequest understands (OP_MSG, OP_QUERY).
bool IsRequestOpCode(int32_t op_code);

struct Request {
  MessageHeader header;
  std::string db;                // the database the command runs against
  Value command;                 // the body, document sequences merged in
  bool legacy = false;           // came as OP_QUERY: answer with OP_REPLY
  bool more_to_come = false;     // OP_MSG moreToCome: send no reply
  bool exhaust_allowed = false;  // OP_MSG exhaustAllowed
};

// Parses the part of a message after its header (`size` is
// messageLength - 16) for an opcode IsRequestOpCode accepts. Errors carry
// MongoDB's code and are answered with ErrorReply. `*more_to_come` (may be
// null) is set from the flags as soon as they are read, even when parsing
// then fails, so the caller knows whether the client awaits an answer.
absl::StatusOr<Request> ParseRequest(const MessageHeader& header,
                                     const uint8_t* body, size_t size,
                                     bool* more_to_come);

// {ok: 0, errmsg, code, codeName} for a failed request.
Value ErrorReply(const absl::Status& status);

// The reply message answering `request` (OP_MSG, or OP_REPLY for a legacy
// request) carrying `reply`, with the given requestID and OP_MSG flagBits
// (kMoreToCome for the replies of an exhaust stream). A reply that cannot
// be encoded becomes an error reply.
std::string EncodeReply(const MessageHeader& request, bool legacy,
                        int32_t request_id, const Value& reply,
                        uint32_t flags = 0);

// An OP_MSG request with `command` as its body (tests, benchmarks).
std::string EncodeOpMsg(int32_t request_id, const Value& command,
                        uint32_t flags = 0);

}  // namespace server
}  // namespace ttldb

#endif  // TTLDB_SERVER_MESSAGE_H_
