#include "server/message.h"

#include <cstring>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"
#include "server/crc32c.h"

namespace ttldb {
namespace server {
namespace {

absl::Status Error(int code, absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument, code, message);
}

int32_t ReadInt32(const uint8_t* p) {
  uint32_t v = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
               uint32_t{p[3]} << 24;
  return static_cast<int32_t>(v);
}

void PutInt32(std::string* out, int32_t v) {
  uint32_t u = static_cast<uint32_t>(v);
  char b[4] = {static_cast<char>(u), static_cast<char>(u >> 8),
               static_cast<char>(u >> 16), static_cast<char>(u >> 24)};
  out->append(b, 4);
}

void SetInt32(std::string* out, size_t at, int32_t v) {
  std::string tmp;
  PutInt32(&tmp, v);
  out->replace(at, 4, tmp);
}

// A BSON document starting at data[pos], within [pos, end): its length.
absl::StatusOr<size_t> DocumentAt(const uint8_t* data, size_t pos, size_t end) {
  if (end - pos < 5) {
    return Error(kInvalidBSON, "invalid BSON: document truncated");
  }
  int32_t len = ReadInt32(data + pos);
  if (len < 5 || static_cast<size_t>(len) > end - pos) {
    return Error(kInvalidBSON,
                 absl::StrCat("invalid BSON: document length ", len,
                              " does not fit in its section"));
  }
  return static_cast<size_t>(len);
}

// A NUL-terminated string at data[pos] within [pos, end).
absl::StatusOr<std::string> CStringAt(const uint8_t* data, size_t pos,
                                      size_t end) {
  const void* nul = std::memchr(data + pos, 0, end - pos);
  if (nul == nullptr) return Error(kProtocolError, "unterminated string");
  return std::string(reinterpret_cast<const char*>(data + pos),
                     static_cast<const uint8_t*>(nul) - (data + pos));
}

absl::StatusOr<Request> ParseOpMsg(const MessageHeader& header,
                                   const uint8_t* body, size_t size,
                                   bool* more_to_come) {
  if (size < 4) return Error(kProtocolError, "OP_MSG without flagBits");
  uint32_t flags = static_cast<uint32_t>(ReadInt32(body));
  if (more_to_come != nullptr) *more_to_come = (flags & kMoreToCome) != 0;
  // mongo/rpc/op_msg.cpp containsUnknownRequiredFlags: the low 16 bits are
  // required, the high 16 optional.
  constexpr uint32_t kRequired = 0xFFFF;
  if (flags & ~(kChecksumPresent | kMoreToCome) & kRequired) {
    std::string bits;
    for (int i = 31; i >= 0; --i) bits.push_back((flags >> i) & 1 ? '1' : '0');
    return Error(
        kIllegalOpMsgFlag,
        absl::StrCat("Message contains illegal flags value: Ob", bits));
  }
  size_t end = size;
  if (flags & kChecksumPresent) {
    if (size < 8) return Error(kProtocolError, "OP_MSG checksum truncated");
    end = size - 4;
  }

  Request request;
  request.header = header;
  request.more_to_come = (flags & kMoreToCome) != 0;
  request.exhaust_allowed = (flags & kExhaustAllowed) != 0;
  bool have_body = false;
  std::vector<std::pair<std::string, Value>> sequences;
  size_t pos = 4;
  while (pos < end) {
    uint8_t kind = body[pos++];
    if (kind == 0) {
      if (have_body) return Error(40430, "Multiple body sections in message");
      have_body = true;
      ASSIGN_OR_RETURN(size_t len, DocumentAt(body, pos, end));
      ASSIGN_OR_RETURN(request.command, BsonToValue(body + pos, len));
      pos += len;
    } else if (kind == 1) {
      if (sequences.size() >= 2) {
        return Error(kTooManyDocumentSequences,
                     "Too many document sequences in OP_MSG");
      }
      if (end - pos < 4) return Error(kProtocolError, "section truncated");
      int32_t section_size = ReadInt32(body + pos);
      if (section_size < 5 || static_cast<size_t>(section_size) > end - pos) {
        return Error(kProtocolError,
                     absl::StrCat("document sequence size ", section_size,
                                  " does not fit in the message"));
      }
      size_t section_end = pos + section_size;
      ASSIGN_OR_RETURN(std::string name, CStringAt(body, pos + 4, section_end));
      // The identifier becomes a field name of the command.
      if (!IsValidUtf8Key(name)) {
        return Error(kInvalidBSON,
                     "invalid BSON: document sequence identifier is not UTF-8");
      }
      for (const auto& s : sequences) {
        if (s.first == name) {
          return Error(40431,
                       absl::StrCat("Duplicate document sequence: ", name));
        }
      }
      size_t p = pos + 4 + name.size() + 1;
      Value docs = Value::MakeArray();
      while (p < section_end) {
        ASSIGN_OR_RETURN(size_t len, DocumentAt(body, p, section_end));
        ASSIGN_OR_RETURN(Value doc, BsonToValue(body + p, len));
        docs.mutable_array_items().push_back(std::move(doc));
        p += len;
      }
      sequences.emplace_back(std::move(name), std::move(docs));
      pos = section_end;
    } else {
      return Error(40432, absl::StrCat("Unknown section kind ", int{kind}));
    }
  }
  if (!have_body) return Error(40587, "OP_MSG messages must have a body");
  for (auto& [name, docs] : sequences) {
    if (request.command.Get(name) != nullptr) {
      return Error(
          40433,
          absl::StrCat("Duplicate field between body and document sequence ",
                       name));
    }
    request.command.mutable_object_fields().emplace_back(std::move(name),
                                                         std::move(docs));
  }
  if (flags & kChecksumPresent) {
    // The checksum covers the whole message but itself, header included.
    std::string whole;
    PutInt32(&whole, header.message_length);
    PutInt32(&whole, header.request_id);
    PutInt32(&whole, header.response_to);
    PutInt32(&whole, header.op_code);
    whole.append(reinterpret_cast<const char*>(body), end);
    uint32_t want = static_cast<uint32_t>(ReadInt32(body + end));
    if (Crc32c(reinterpret_cast<const uint8_t*>(whole.data()), whole.size()) !=
        want) {
      return Error(kChecksumMismatch,
                   "OP_MSG checksum does not match contents");
    }
  }
  const Value* db = request.command.Get("$db");
  if (db == nullptr || !db->is_string()) {
    return Error(40571, "OP_MSG requests require a $db argument");
  }
  request.db = db->string_value();
  return request;
}

absl::StatusOr<Request> ParseOpQuery(const MessageHeader& header,
                                     const uint8_t* body, size_t size) {
  if (size < 4) return Error(kProtocolError, "OP_QUERY truncated");
  ASSIGN_OR_RETURN(std::string ns, CStringAt(body, 4, size));
  size_t pos = 4 + ns.size() + 1;
  if (size - pos < 8) return Error(kProtocolError, "OP_QUERY truncated");
  pos += 8;  // numberToSkip, numberToReturn
  ASSIGN_OR_RETURN(size_t len, DocumentAt(body, pos, size));
  ASSIGN_OR_RETURN(Value query, BsonToValue(body + pos, len));
  pos += len;
  if (pos < size) {  // returnFieldsSelector: checked, unused
    ASSIGN_OR_RETURN(size_t plen, DocumentAt(body, pos, size));
    ASSIGN_OR_RETURN(Value unused, BsonToValue(body + pos, plen));
    pos += plen;
    if (pos != size) {
      return Error(kProtocolError, "bytes after the OP_QUERY projection");
    }
  }
  // Drivers wrap the command when they add $readPreference.
  for (const char* wrapper : {"$query", "query"}) {
    const Value* inner = query.Get(wrapper);
    if (inner != nullptr && inner->is_object()) {
      Value unwrapped = *inner;
      query = std::move(unwrapped);
      break;
    }
  }
  std::string command_name =
      query.object_fields().empty() ? "" : query.object_fields()[0].first;
  Request request;
  request.header = header;
  request.legacy = true;
  if (!absl::EndsWith(ns, ".$cmd") ||
      !(command_name == "hello" || command_name == "isMaster" ||
        command_name == "ismaster")) {
    // MongoDB 8.0's message (service_entry_point_common.cpp).
    return Error(kUnsupportedOpQueryCommand,
                 absl::StrCat("Unsupported OP_QUERY command: ", command_name,
                              ". The client driver may require an upgrade. "
                              "For more details see "
                              "https://dochub.mongodb.org/core/"
                              "legacy-opcode-removal"));
  }
  request.db = ns.substr(0, ns.size() - 5);
  request.command = std::move(query);
  return request;
}

}  // namespace

absl::StatusOr<MessageHeader> ParseHeader(const uint8_t* bytes) {
  MessageHeader h;
  h.message_length = ReadInt32(bytes);
  h.request_id = ReadInt32(bytes + 4);
  h.response_to = ReadInt32(bytes + 8);
  h.op_code = ReadInt32(bytes + 12);
  if (h.message_length < static_cast<int32_t>(kHeaderSize) ||
      h.message_length > kMaxMessageSizeBytes) {
    return Error(kProtocolError,
                 absl::StrCat("recv(): message msgLen ", h.message_length,
                              " is invalid. Min ", kHeaderSize,
                              " Max: ", kMaxMessageSizeBytes));
  }
  return h;
}

bool IsRequestOpCode(int32_t op_code) {
  return op_code == kOpMsg || op_code == kOpQuery;
}

absl::StatusOr<Request> ParseRequest(const MessageHeader& header,
                                     const uint8_t* body, size_t size,
                                     bool* more_to_come) {
  if (more_to_come != nullptr) *more_to_come = false;
  if (header.op_code == kOpMsg) {
    return ParseOpMsg(header, body, size, more_to_come);
  }
  if (header.op_code == kOpQuery) return ParseOpQuery(header, body, size);
  return Error(kProtocolError,
               absl::StrCat("unsupported opCode ", header.op_code));
}

Value ErrorReply(const absl::Status& status) {
  int code = ErrorCode(status);
  if (code == 0) code = kInternalError;
  Value reply = Value::MakeObject();
  reply.Set("ok", Value::Double(0));
  reply.Set("errmsg", Value::String(std::string(status.message())));
  reply.Set("code", Value::Int32(code));
  reply.Set("codeName", Value::String(MongoCodeName(code)));
  return reply;
}

std::string EncodeReply(const MessageHeader& request, bool legacy,
                        int32_t request_id, const Value& reply,
                        uint32_t flags) {
  absl::StatusOr<std::string> bson = ValueToBson(reply);
  if (!bson.ok()) bson = ValueToBson(ErrorReply(bson.status()));
  std::string out;
  out.reserve(36 + bson->size());  // the largest header, OP_REPLY's
  PutInt32(&out, 0);               // messageLength, set below
  PutInt32(&out, request_id);
  PutInt32(&out, request.request_id);
  if (legacy) {
    PutInt32(&out, kOpReply);
    PutInt32(&out, 0);    // responseFlags
    out.append(8, '\0');  // cursorID
    PutInt32(&out, 0);    // startingFrom
    PutInt32(&out, 1);    // numberReturned
  } else {
    PutInt32(&out, kOpMsg);
    PutInt32(&out, static_cast<int32_t>(flags));
    out.push_back('\0');  // section kind 0
  }
  out += *bson;
  SetInt32(&out, 0, static_cast<int32_t>(out.size()));
  return out;
}

std::string EncodeOpMsg(int32_t request_id, const Value& command,
                        uint32_t flags) {
  absl::StatusOr<std::string> bson = ValueToBson(command);
  std::string out;
  PutInt32(&out, 0);
  PutInt32(&out, request_id);
  PutInt32(&out, 0);
  PutInt32(&out, kOpMsg);
  PutInt32(&out, static_cast<int32_t>(flags));
  out.push_back('\0');
  out += bson.ok() ? *bson : std::string();
  if (flags & kChecksumPresent) {
    SetInt32(&out, 0, static_cast<int32_t>(out.size() + 4));
    PutInt32(&out,
             static_cast<int32_t>(Crc32c(
                 reinterpret_cast<const uint8_t*>(out.data()), out.size())));
  } else {
    SetInt32(&out, 0, static_cast<int32_t>(out.size()));
  }
  return out;
}

}  // namespace server
}  // namespace ttldb
