#include "storage/write_walk.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "document/bson.h"
#include "document/storable.h"
#include "storage/doc_cache.h"
#include "ttldb/decimal128.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// As storage/doc_cache.cc decides and counts.
using doc_cache_internal::Chunk;
using doc_cache_internal::kMaxExactDepth;
using doc_cache_internal::StringHeap;

class Walker {
 public:
  explicit Walker(WriteWalk* w) : w_(*w) {}

  // The BSON size of `v`'s value (BsonValueSize); `depth`: the containers
  // above it. Stops early (the result then meaningless) once not storable.
  size_t Value_(const Value& v, int depth) {
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
      case ValueType::kDate:
      case ValueType::kTimestamp:
        return 8;
      case ValueType::kDouble:
        if (std::isnan(v.double_value())) w_.reparses = false;
        return 8;
      case ValueType::kObjectId:
        return 12;
      case ValueType::kDecimal: {
        if (w_.reparses) {
          absl::StatusOr<Decimal128> back =
              Decimal128::FromString(v.decimal_value().ToString());
          if (!back.ok() || !(*back == v.decimal_value())) w_.reparses = false;
        }
        return 16;
      }
      case ValueType::kString: {
        const std::string& s = v.string_value();
        if (!IsValidUtf8(s)) w_.storable = false;
        w_.heap += StringHeap(s);
        return 4 + s.size() + 1;
      }
      case ValueType::kBinary: {
        const Binary& b = v.binary_value();
        w_.heap += Chunk(sizeof(Binary)) + StringHeap(b.data);
        return 4 + 1 + b.data.size();
      }
      case ValueType::kRegex: {
        const Regex& re = v.regex_value();
        if (!IsValidUtf8(re.pattern) || !IsValidUtf8(re.options)) {
          w_.storable = false;
        }
        if (!std::all_of(
                re.options.begin(), re.options.end(),
                [](char c) { return static_cast<unsigned char>(c) < 0x80; }) ||
            !std::is_sorted(re.options.begin(), re.options.end())) {
          w_.reparses = false;
        }
        w_.heap += Chunk(sizeof(Regex)) + StringHeap(re.pattern) +
                   StringHeap(re.options);
        return re.pattern.size() + 1 + re.options.size() + 1;
      }
      case ValueType::kObject:
        return Object(v, depth);
      case ValueType::kArray: {
        if (depth + 1 > kMaxNestingDepth) {
          w_.storable = false;
          return 0;
        }
        if (depth >= kMaxExactDepth) w_.reparses = false;
        const Value::Array& items = v.array_items();
        if (items.capacity() != 0) {
          w_.heap += Chunk(items.capacity() * sizeof(Value));
        }
        size_t n = 4 + 1;
        for (size_t i = 0; i < items.size(); ++i) {
          n += 1 + BsonIndexNameSize(i) + 1 + Value_(items[i], depth + 1);
          if (!w_.storable) return 0;
        }
        return n;
      }
    }
    return 0;
  }

  size_t Object(const Value& v, int depth) {
    if (depth + 1 > kMaxNestingDepth) {
      w_.storable = false;
      return 0;
    }
    if (depth >= kMaxExactDepth) w_.reparses = false;
    const Value::Object& fields = v.object_fields();
    if (fields.capacity() != 0) {
      w_.heap += Chunk(fields.capacity() * sizeof(Field));
    }
    size_t n = 4 + 1;
    for (const Field& f : fields) {
      const std::string& name = f.first;
      if (!IsValidUtf8(name) || name.find('\0') != std::string::npos) {
        w_.storable = false;
        return 0;
      }
      if (!name.empty() && name[0] == '$') {
        w_.reparses = false;
        if (depth == 0 || IsExtendedJsonKeyword(name)) {
          w_.storable = false;
          return 0;
        }
      }
      w_.heap += StringHeap(name);
      n += 1 + name.size() + 1 + Value_(f.second, depth + 1);
      if (!w_.storable) return 0;
    }
    return n;
  }

 private:
  WriteWalk& w_;
};

}  // namespace

WriteWalk WalkForWrite(const Value& doc) {
  WriteWalk w;
  w.bson_size = Walker(&w).Object(doc, 0);
  return w;
}

size_t CacheChargeFromWalk(absl::string_view key, const WriteWalk& walk) {
  // A null Value owns no heap: the entry's own part of the charge.
  static const Value kNull = Value::Null();
  return CacheCharge(key, kNull) + walk.heap;
}

}  // namespace ttldb
