#include "commands/reply.h"

#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "base/status.h"
#include "ttldb/document_validation_error.h"
#include "ttldb/duplicate_key_error.h"

namespace ttldb {
namespace commands {

Value OkReply(Value::Object fields) {
  fields.emplace_back("ok", Value::Double(1));
  return Value::MakeObject(std::move(fields));
}

int ReplyCode(const absl::Status& status) {
  const int code = ErrorCode(status);
  return code == 0 ? kInternalError : code;
}

void AppendErrorExtraInfo(const absl::Status& status, Value::Object* fields) {
  if (std::optional<DuplicateKeyInfo> dup = GetDuplicateKeyInfo(status)) {
    fields->emplace_back("keyPattern", std::move(dup->key_pattern));
    fields->emplace_back("keyValue", std::move(dup->key_value));
  }
  if (std::optional<Value> err_info = GetDocumentValidationErrInfo(status)) {
    fields->emplace_back("errInfo", *std::move(err_info));
  }
}

Value ErrorReply(const absl::Status& status) {
  const int code = ReplyCode(status);
  Value::Object fields = {
      {"ok", Value::Double(0)},
      {"errmsg", Value::String(std::string(status.message()))},
      {"code", Value::Int32(code)},
      {"codeName", Value::String(MongoCodeName(code))},
  };
  AppendErrorExtraInfo(status, &fields);
  return Value::MakeObject(std::move(fields));
}

Binary RandomUuid() {
  // 16 random bytes from two ObjectIds' random parts and counters, with
  // the version (4) and variant bits of RFC 4122.
  ObjectId a = ObjectId::Generate();
  ObjectId b = ObjectId::Generate();
  Binary uuid;
  uuid.subtype = 4;
  uuid.data.assign(reinterpret_cast<const char*>(a.bytes.data()), 8);
  uuid.data.append(reinterpret_cast<const char*>(b.bytes.data()) + 4, 8);
  uuid.data[6] = static_cast<char>((uuid.data[6] & 0x0f) | 0x40);
  uuid.data[8] = static_cast<char>((uuid.data[8] & 0x3f) | 0x80);
  return uuid;
}

Value Count(int64_t n) {
  if (n >= std::numeric_limits<int32_t>::min() &&
      n <= std::numeric_limits<int32_t>::max()) {
    return Value::Int32(static_cast<int32_t>(n));
  }
  return Value::Int64(n);
}

Value Narrow(Value v) {
  if (v.type() == ValueType::kInt64) return Count(v.int64_value());
  if (v.is_object()) {
    for (Field& f : v.mutable_object_fields()) f.second = Narrow(f.second);
  } else if (v.is_array()) {
    for (Value& item : v.mutable_array_items()) item = Narrow(item);
  }
  return v;
}

}  // namespace commands
}  // namespace ttldb
