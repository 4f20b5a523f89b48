// MongoDB's BSONElement::safeNumberLong (src/mongo/bson/bsonelement.cpp),
// what the IDL's safeInt64 fields ($graphLookup's maxDepth, create's size
// and max, collMod's cappedSize, an index's expireAfterSeconds) read a
// number as: an int or long as it is, a double truncated toward zero, NaN
// as 0, beyond the int64 range saturated at its limits; a decimal as its
// double. Anything else is 0. Internal to ttldb.
#ifndef TTLDB_DOCUMENT_SAFE_NUMBER_H_
#define TTLDB_DOCUMENT_SAFE_NUMBER_H_

#include <cmath>
#include <cstdint>
#include <limits>

#include "ttldb/value.h"

namespace ttldb {

inline int64_t SafeNumberLong(double v) {
  if (std::isnan(v)) return 0;
  // 2^63 is exactly representable; every double >= it is out of range.
  if (v >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
  if (v < -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);  // truncates toward zero
}

inline int64_t SafeNumberLong(const Value& v) {
  if (v.type() == ValueType::kInt32 || v.type() == ValueType::kInt64) {
    return v.int64_value();
  }
  return v.is_number() ? SafeNumberLong(v.AsDouble()) : 0;
}

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_SAFE_NUMBER_H_
