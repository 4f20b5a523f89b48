#include "document/bson_size.h"

#include <string>

namespace ttldb {
namespace {

size_t DecimalDigits(size_t i) {
  size_t n = 1;
  while (i >= 10) {
    i /= 10;
    ++n;
  }
  return n;
}

}  // namespace

size_t BsonValueSize(const Value& v) {
  switch (v.type()) {
    case ValueType::kMinKey:
    case ValueType::kMaxKey:
    case ValueType::kNull:
      return 0;
    case ValueType::kBool:
      return 1;
    case ValueType::kInt32:
      return 4;
    case ValueType::kInt64:
    case ValueType::kDouble:
    case ValueType::kDate:
    case ValueType::kTimestamp:
      return 8;
    case ValueType::kDecimal:
      return 16;
    case ValueType::kObjectId:
      return 12;
    case ValueType::kString:
      return 4 + v.string_value().size() + 1;
    case ValueType::kBinary:
      return 4 + 1 + v.binary_value().data.size();
    case ValueType::kRegex:
      return v.regex_value().pattern.size() + 1 +
             v.regex_value().options.size() + 1;
    case ValueType::kObject: {
      size_t n = 4 + 1;  // length and terminating NUL
      for (const Field& f : v.object_fields()) {
        n += 1 + f.first.size() + 1 + BsonValueSize(f.second);
      }
      return n;
    }
    case ValueType::kArray: {
      size_t n = 4 + 1;
      const Value::Array& items = v.array_items();
      for (size_t i = 0; i < items.size(); ++i) {
        n += 1 + DecimalDigits(i) + 1 + BsonValueSize(items[i]);
      }
      return n;
    }
  }
  return 0;
}

}  // namespace ttldb
