#include "document/bson.h"

#include <libbson-1.0/bson/bson.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/storable.h"

namespace ttldb {
namespace {

absl::Status InvalidBson(absl::string_view why) {
  return MongoError(absl::StatusCode::kInvalidArgument, kInvalidBSON,
                    absl::StrCat("invalid BSON: ", why));
}

// The one definition of well-formed UTF-8 (document/storable.h), the
// parser's and the write path's, rather than libbson's: a string the wire
// accepts is then one the store accepts, and the check runs eight ASCII
// bytes at a time (bson_utf8_validate decodes every character: 2.2 ns a
// byte, most of the decode of a 2 KB document; tools/bench/codec_cost).
// BSON strings are length-prefixed and may hold NUL bytes, which are valid.
bool ValidUtf8(const char* s, size_t len) {
  return IsValidUtf8(absl::string_view(s, len));
}

absl::StatusOr<Value> Decode(bson_iter_t* it, bool array, int depth);

// The Value of the element `it` points at. `depth` is the nesting level of
// the document holding it (the top-level document is 1).
absl::StatusOr<Value> DecodeElement(bson_iter_t* it, int depth) {
  const char* key = bson_iter_key(it);
  switch (bson_iter_type(it)) {
    case BSON_TYPE_DOUBLE:
      return Value::Double(bson_iter_double(it));
    case BSON_TYPE_UTF8:
    case BSON_TYPE_SYMBOL: {
      uint32_t len = 0;
      const char* s = bson_iter_type(it) == BSON_TYPE_UTF8
                          ? bson_iter_utf8(it, &len)
                          : bson_iter_symbol(it, &len);
      if (!ValidUtf8(s, len)) {
        return InvalidBson(
            absl::StrCat("invalid UTF-8 in the string of field '", key, "'"));
      }
      return Value::String(std::string(s, len));
    }
    case BSON_TYPE_DOCUMENT:
    case BSON_TYPE_ARRAY: {
      bool array = bson_iter_type(it) == BSON_TYPE_ARRAY;
      if (depth + 1 > kMaxBsonDepth) {
        return MongoError(absl::StatusCode::kInvalidArgument, kOverflow,
                          "BSONObj exceeds maximum nested object depth");
      }
      bson_iter_t child;
      if (!bson_iter_recurse(it, &child)) {
        return InvalidBson(
            absl::StrCat("bad embedded document in field '", key, "'"));
      }
      return Decode(&child, array, depth + 1);
    }
    case BSON_TYPE_BINARY: {
      bson_subtype_t subtype;
      uint32_t len = 0;
      const uint8_t* data = nullptr;
      bson_iter_binary(it, &subtype, &len, &data);
      if (data == nullptr && len != 0) return InvalidBson("bad binData");
      Binary b;
      b.subtype = static_cast<uint8_t>(subtype);
      b.data.assign(reinterpret_cast<const char*>(data), len);
      return Value::Bin(std::move(b));
    }
    case BSON_TYPE_OID: {
      ObjectId id;
      std::memcpy(id.bytes.data(), bson_iter_oid(it)->bytes, 12);
      return Value::Oid(id);
    }
    case BSON_TYPE_BOOL:
      return Value::Bool(bson_iter_bool(it));
    case BSON_TYPE_DATE_TIME:
      return Value::Date(bson_iter_date_time(it));
    case BSON_TYPE_NULL:
      return Value::Null();
    case BSON_TYPE_REGEX: {
      const char* options = nullptr;
      const char* pattern = bson_iter_regex(it, &options);
      if (pattern == nullptr || options == nullptr ||
          !ValidUtf8(pattern, std::strlen(pattern)) ||
          !ValidUtf8(options, std::strlen(options))) {
        return InvalidBson(absl::StrCat("bad regex in field '", key, "'"));
      }
      // The flags libbson writes back ("ilmsux"), sorted and once each, as
      // ttldb stores them; any other is refused with the code the matcher
      // gives an unknown flag (51108), rather than dropped silently.
      Regex r;
      r.pattern = pattern;
      for (const char* f = "ilmsux"; *f != '\0'; ++f) {
        if (std::strchr(options, *f) != nullptr) r.options.push_back(*f);
      }
      for (const char* o = options; *o != '\0'; ++o) {
        if (std::strchr("ilmsux", *o) == nullptr) {
          return MongoError(absl::StatusCode::kInvalidArgument,
                            kInvalidRegexFlag,
                            absl::StrCat("invalid flag in regex options: ",
                                         std::string(1, *o)));
        }
      }
      return Value::Re(std::move(r));
    }
    case BSON_TYPE_INT32:
      return Value::Int32(bson_iter_int32(it));
    case BSON_TYPE_TIMESTAMP: {
      Timestamp ts;
      bson_iter_timestamp(it, &ts.t, &ts.i);
      return Value::Ts(ts);
    }
    case BSON_TYPE_INT64:
      return Value::Int64(bson_iter_int64(it));
    case BSON_TYPE_DECIMAL128: {
      bson_decimal128_t d;
      bson_iter_decimal128(it, &d);
      return Value::Decimal(Decimal128(d.high, d.low));
    }
    case BSON_TYPE_MINKEY:
      return Value::MinKey();
    case BSON_TYPE_MAXKEY:
      return Value::MaxKey();
    case BSON_TYPE_UNDEFINED:
    case BSON_TYPE_DBPOINTER:
    case BSON_TYPE_CODE:
    case BSON_TYPE_CODEWSCOPE: {
      const char* name =
          bson_iter_type(it) == BSON_TYPE_UNDEFINED   ? "undefined"
          : bson_iter_type(it) == BSON_TYPE_DBPOINTER ? "dbPointer"
          : bson_iter_type(it) == BSON_TYPE_CODE      ? "javascript"
                                                      : "javascriptWithScope";
      return MongoError(
          absl::StatusCode::kInvalidArgument, kBadValue,
          absl::StrCat("field '", key, "' has the deprecated BSON type ", name,
                       ", which ttldb does not store"));
    }
    default:
      return InvalidBson(absl::StrCat("unknown BSON type ",
                                      static_cast<int>(bson_iter_type(it)),
                                      " in field '", key, "'"));
  }
}

absl::StatusOr<Value> Decode(bson_iter_t* it, bool array, int depth) {
  Value out = array ? Value::MakeArray() : Value::MakeObject();
  while (bson_iter_next(it)) {
    uint32_t key_len = bson_iter_key_len(it);
    const char* key = bson_iter_key(it);
    if (!ValidUtf8(key, key_len)) return InvalidBson("invalid UTF-8 in a key");
    ASSIGN_OR_RETURN(Value v, DecodeElement(it, depth));
    if (array) {
      out.mutable_array_items().push_back(std::move(v));
    } else {
      out.mutable_object_fields().emplace_back(std::string(key, key_len),
                                               std::move(v));
    }
  }
  // bson_iter_next stops early, with err_off set, on a corrupt element.
  if (it->err_off != 0) {
    return InvalidBson(absl::StrCat("corrupt element at offset ", it->err_off));
  }
  return out;
}

bool Append(bson_t* b, const char* key, int key_len, const Value& v);

bool AppendDocument(bson_t* b, const char* key, int key_len, const Value& v) {
  bson_t child;
  bool array = v.is_array();
  if (!(array ? bson_append_array_begin(b, key, key_len, &child)
              : bson_append_document_begin(b, key, key_len, &child))) {
    return false;
  }
  bool ok = true;
  if (array) {
    size_t i = 0;
    for (const Value& item : v.array_items()) {
      const char* k;
      char buf[16];
      size_t n = bson_uint32_to_string(static_cast<uint32_t>(i++), &k, buf,
                                       sizeof buf);
      if (!(ok = Append(&child, k, static_cast<int>(n), item))) break;
    }
  } else {
    for (const auto& [name, item] : v.object_fields()) {
      if (!(ok = Append(&child, name.data(), static_cast<int>(name.size()),
                        item))) {
        break;
      }
    }
  }
  bool closed = array ? bson_append_array_end(b, &child)
                      : bson_append_document_end(b, &child);
  return ok && closed;
}

bool Append(bson_t* b, const char* key, int key_len, const Value& v) {
  switch (v.type()) {
    case ValueType::kMinKey:
      return bson_append_minkey(b, key, key_len);
    case ValueType::kMaxKey:
      return bson_append_maxkey(b, key, key_len);
    case ValueType::kNull:
      return bson_append_null(b, key, key_len);
    case ValueType::kInt32:
      return bson_append_int32(b, key, key_len, v.int32_value());
    case ValueType::kInt64:
      return bson_append_int64(b, key, key_len, v.int64_value());
    case ValueType::kDouble:
      return bson_append_double(b, key, key_len, v.double_value());
    case ValueType::kDecimal: {
      bson_decimal128_t d;
      d.high = v.decimal_value().high();
      d.low = v.decimal_value().low();
      return bson_append_decimal128(b, key, key_len, &d);
    }
    case ValueType::kString:
      return bson_append_utf8(b, key, key_len, v.string_value().data(),
                              static_cast<int>(v.string_value().size()));
    case ValueType::kObject:
    case ValueType::kArray:
      return AppendDocument(b, key, key_len, v);
    case ValueType::kBinary:
      return bson_append_binary(
          b, key, key_len,
          static_cast<bson_subtype_t>(v.binary_value().subtype),
          reinterpret_cast<const uint8_t*>(v.binary_value().data.data()),
          static_cast<uint32_t>(v.binary_value().data.size()));
    case ValueType::kObjectId: {
      bson_oid_t oid;
      std::memcpy(oid.bytes, v.oid_value().bytes.data(), 12);
      return bson_append_oid(b, key, key_len, &oid);
    }
    case ValueType::kBool:
      return bson_append_bool(b, key, key_len, v.bool_value());
    case ValueType::kDate:
      return bson_append_date_time(b, key, key_len, v.date_millis());
    case ValueType::kTimestamp:
      return bson_append_timestamp(b, key, key_len, v.timestamp_value().t,
                                   v.timestamp_value().i);
    case ValueType::kRegex:
      return bson_append_regex(b, key, key_len, v.regex_value().pattern.c_str(),
                               v.regex_value().options.c_str());
  }
  return false;
}

}  // namespace

bool IsValidUtf8Key(absl::string_view key) {
  return key.find('\0') == absl::string_view::npos && IsValidUtf8(key);
}

absl::StatusOr<Value> BsonToValue(const uint8_t* data, size_t size) {
  if (size < 5) return InvalidBson("a document has at least 5 bytes");
  int32_t declared;
  std::memcpy(&declared, data, 4);
  declared = BSON_UINT32_FROM_LE(declared);
  if (declared < 5 || static_cast<size_t>(declared) != size) {
    return InvalidBson(absl::StrCat("document length ", declared,
                                    " does not match its ", size, " bytes"));
  }
  if (data[size - 1] != 0) return InvalidBson("document not NUL-terminated");
  bson_iter_t it;
  if (!bson_iter_init_from_data(&it, data, size)) {
    return InvalidBson("bad document header");
  }
  return Decode(&it, /*array=*/false, /*depth=*/1);
}

absl::StatusOr<std::string> ValueToBson(const Value& document) {
  if (!document.is_object()) {
    return absl::InvalidArgumentError("ValueToBson: not a document");
  }
  // On the stack: bson_t is declared 128-byte aligned, which bson_new's
  // heap block need not be.
  bson_t b;
  bson_init(&b);
  for (const auto& [name, item] : document.object_fields()) {
    if (!Append(&b, name.data(), static_cast<int>(name.size()), item)) {
      bson_destroy(&b);
      return MongoError(absl::StatusCode::kResourceExhausted,
                        kBSONObjectTooLarge,
                        "cannot encode the document as BSON (too large, or a "
                        "regex or key with a NUL byte)");
    }
  }
  std::string out(reinterpret_cast<const char*>(bson_get_data(&b)), b.len);
  bson_destroy(&b);
  return out;
}

}  // namespace ttldb
