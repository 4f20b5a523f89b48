#include <string>

#include "document/bson.h"

namespace ttldb {

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
    case ValueType::kObjectId:
      return 12;
    case ValueType::kDecimal:
      return 16;
    case ValueType::kString:
      return 4 + v.string_value().size() + 1;
    case ValueType::kBinary:
      return 4 + 1 + v.binary_value().data.size();
    case ValueType::kRegex:
      return v.regex_value().pattern.size() + 1 +
             v.regex_value().options.size() + 1;
    case ValueType::kObject:
      return BsonDocumentSize(v);
    case ValueType::kArray: {
      size_t n = 4 + 1;
      const Value::Array& items = v.array_items();
      for (size_t i = 0; i < items.size(); ++i) {
        n += 1 + BsonIndexNameSize(i) + 1 + BsonValueSize(items[i]);
      }
      return n;
    }
  }
  return 0;
}

size_t BsonDocumentSize(const Value& doc) {
  size_t n = 4 + 1;
  for (const Field& f : doc.object_fields()) {
    n += 1 + f.first.size() + 1 + BsonValueSize(f.second);
  }
  return n;
}

}  // namespace ttldb
