// BsonHash64: MongoDB's BSONElementHasher::hash64 (src/mongo/db/hasher.cpp)
// over ttldb's Value, through base/md5.h.
#include "document/bson_hash.h"

#include <cmath>
#include <limits>
#include <string>

#include "base/md5.h"
#include "ttldb/decimal128.h"

namespace ttldb {
namespace {

void AppendHashInt32(int32_t v, std::string* out) {
  const uint32_t u = static_cast<uint32_t>(v);
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(u >> (8 * i)));
}

void AppendHashInt64(int64_t v, std::string* out) {
  const uint64_t u = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(u >> (8 * i)));
}

// bsontypes.cpp canonicalizeBSONType.
int32_t CanonicalType(ValueType t) {
  switch (t) {
    case ValueType::kMinKey:
      return -1;
    case ValueType::kNull:
      return 5;
    case ValueType::kInt32:
    case ValueType::kInt64:
    case ValueType::kDouble:
    case ValueType::kDecimal:
      return 10;
    case ValueType::kString:
      return 15;
    case ValueType::kObject:
      return 20;
    case ValueType::kArray:
      return 25;
    case ValueType::kBinary:
      return 30;
    case ValueType::kObjectId:
      return 35;
    case ValueType::kBool:
      return 40;
    case ValueType::kDate:
      return 45;
    case ValueType::kTimestamp:
      return 47;
    case ValueType::kRegex:
      return 50;
    case ValueType::kMaxKey:
      return 127;
  }
  return 0;
}

// BSONElement::safeNumberLongForHash.
int64_t NumberForHash(const Value& v) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  switch (v.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      return v.int64_value();
    case ValueType::kDouble: {
      const double d = v.double_value();
      if (std::isnan(d)) return 0;
      if (d == 9223372036854775808.0) return kMin;  // the historic overflow
      if (!(d < 9223372036854775808.0)) return kMax;
      if (d < -9223372036854775808.0) return kMin;
      return static_cast<int64_t>(d);
    }
    case ValueType::kDecimal: {
      const Decimal128& d = v.decimal_value();
      if (d.IsNaN()) return 0;
      int64_t out = 0;
      if (d.ToInt64RoundEven(&out)) return out;
      return d.IsNegative() ? kMin : kMax;
    }
    default:
      return 0;
  }
}

void AppendHashString(const std::string& s, std::string* out) {
  AppendHashInt32(static_cast<int32_t>(s.size() + 1), out);
  out->append(s);
  out->push_back('\0');
}

// hasher.cpp recursiveHash: the bytes fed to MD5 for one element.
void AppendForHash(const Value& v, const std::string* field_name,
                   std::string* out) {
  AppendHashInt32(CanonicalType(v.type()), out);
  if (field_name != nullptr) {
    out->append(*field_name);
    out->push_back('\0');
  }
  switch (v.type()) {
    case ValueType::kMinKey:
    case ValueType::kMaxKey:
    case ValueType::kNull:
      break;
    case ValueType::kInt32:
    case ValueType::kInt64:
    case ValueType::kDouble:
    case ValueType::kDecimal:
      AppendHashInt64(NumberForHash(v), out);
      break;
    case ValueType::kString:
      AppendHashString(v.string_value(), out);
      break;
    case ValueType::kObject:
      for (const Field& f : v.object_fields()) {
        AppendForHash(f.second, &f.first, out);
      }
      AppendHashInt32(0, out);  // EOO: canonical type 0, no name, no value
      break;
    case ValueType::kArray: {
      size_t i = 0;
      for (const Value& item : v.array_items()) {
        const std::string name = std::to_string(i++);
        AppendForHash(item, &name, out);
      }
      AppendHashInt32(0, out);
      break;
    }
    case ValueType::kBinary: {
      const Binary& b = v.binary_value();
      AppendHashInt32(static_cast<int32_t>(b.data.size()), out);
      out->push_back(static_cast<char>(b.subtype));
      out->append(b.data);
      break;
    }
    case ValueType::kObjectId:
      out->append(reinterpret_cast<const char*>(v.oid_value().bytes.data()),
                  v.oid_value().bytes.size());
      break;
    case ValueType::kBool:
      out->push_back(v.bool_value() ? 1 : 0);
      break;
    case ValueType::kDate:
      AppendHashInt64(v.date_millis(), out);
      break;
    case ValueType::kTimestamp:
      // BSON's uint64: the increment in the low 32 bits.
      AppendHashInt32(static_cast<int32_t>(v.timestamp_value().i), out);
      AppendHashInt32(static_cast<int32_t>(v.timestamp_value().t), out);
      break;
    case ValueType::kRegex:
      out->append(v.regex_value().pattern);
      out->push_back('\0');
      out->append(v.regex_value().options);
      out->push_back('\0');
      break;
  }
}

}  // namespace

int64_t BsonHash64(const Value& v) {
  std::string bytes;
  AppendHashInt32(0, &bytes);  // the seed
  AppendForHash(v, nullptr, &bytes);
  const std::array<uint8_t, 16> digest = Md5(bytes);
  uint64_t h = 0;
  for (int i = 7; i >= 0; --i) h = (h << 8) | digest[i];
  return static_cast<int64_t>(h);
}

}  // namespace ttldb
