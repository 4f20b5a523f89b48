#include "document/compare_hash.h"

#include <cmath>
#include <cstdint>

#include "absl/hash/hash.h"
#include "ttldb/decimal128.h"

namespace ttldb {
namespace {

// Numbers at or beyond 2^62 from zero hash by their sign alone: the floor of
// a double or a decimal that large is exact, but keeping one bound for every
// type keeps equal values on the same side of it.
constexpr int64_t kBig = int64_t{1} << 62;

enum NumberClass : int {
  kFinite = 0,
  kNaN = 1,
  kBigPositive = 2,
  kBigNegative = 3
};

size_t HashFloor(int64_t floor) {
  if (floor >= kBig) return absl::HashOf(int{kBigPositive});
  if (floor <= -kBig) return absl::HashOf(int{kBigNegative});
  return absl::HashOf(int{kFinite}, floor);
}

size_t NumberHash(const Value& v) {
  switch (v.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      return HashFloor(v.int64_value());
    case ValueType::kDouble: {
      const double d = v.double_value();
      if (std::isnan(d)) return absl::HashOf(int{kNaN});
      const double f = std::floor(d);
      if (f >= static_cast<double>(kBig)) return HashFloor(kBig);
      if (f <= -static_cast<double>(kBig)) return HashFloor(-kBig);
      return HashFloor(static_cast<int64_t>(f));
    }
    default: {  // kDecimal
      const Decimal128& d = v.decimal_value();
      if (d.IsNaN()) return absl::HashOf(int{kNaN});
      int64_t floor = 0;
      if (d.IsInfinite() || !d.Floor().ToInt64RoundEven(&floor)) {
        return HashFloor(d.IsNegative() ? -kBig : kBig);
      }
      return HashFloor(floor);
    }
  }
}

}  // namespace

size_t CompareHash(const Value& v, const Collator* collator) {
  const int bracket = CanonicalTypeOrder(v.type());
  switch (v.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
    case ValueType::kDouble:
    case ValueType::kDecimal:
      return absl::HashOf(bracket, NumberHash(v));
    case ValueType::kString:
      if (collator != nullptr) {
        return absl::HashOf(bracket, collator->Key(v.string_value()));
      }
      return absl::HashOf(bracket, absl::string_view(v.string_value()));
    case ValueType::kObject: {
      size_t h = absl::HashOf(bracket);
      for (const Field& f : v.object_fields()) {
        h = absl::HashOf(h, absl::string_view(f.first),
                         CompareHash(f.second, collator));
      }
      return h;
    }
    case ValueType::kArray: {
      size_t h = absl::HashOf(bracket);
      for (const Value& item : v.array_items()) {
        h = absl::HashOf(h, CompareHash(item, collator));
      }
      return h;
    }
    case ValueType::kObjectId:
      return absl::HashOf(bracket, v.oid_value().bytes);
    case ValueType::kBool:
      return absl::HashOf(bracket, v.bool_value());
    case ValueType::kDate:
      return absl::HashOf(bracket, v.date_millis());
    default:
      return absl::HashOf(bracket);
  }
}

}  // namespace ttldb
