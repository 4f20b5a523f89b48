#include "document/compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ttldb {
namespace {

template <typename T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Exact comparison of an int64 with a double (no rounding of the int64).
// NaN is below every number.
int CompareIntDouble(int64_t i, double d) {
  if (std::isnan(d)) return 1;
  // 2^63 exactly; every double >= it exceeds every int64.
  constexpr double kTwo63 = 9223372036854775808.0;
  if (d >= kTwo63) return -1;
  if (d < -kTwo63) return 1;
  // Here trunc(d) is an exactly representable int64.
  double t = std::trunc(d);
  int64_t ti = static_cast<int64_t>(t);
  if (i != ti) return i < ti ? -1 : 1;
  if (d > t) return -1;  // i == trunc(d) < d
  if (d < t) return 1;
  return 0;
}

int CompareDoubles(double a, double b) {
  bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an && bn ? 0 : (an ? -1 : 1);
  return Cmp(a, b);  // -0.0 == 0.0
}

// A decimal against any number, as mongo/base/compare_numbers.h does: ints
// and longs convert to decimal exactly; doubles by rounding the decimal
// toward negative infinity and noting whether that was exact.
int CompareDecimalTo(const Decimal128& a, const Value& b) {
  switch (b.type()) {
    case ValueType::kDecimal:
      return Decimal128::Compare(a, b.decimal_value());
    case ValueType::kDouble:
      return Decimal128::CompareToDouble(a, b.double_value());
    default:
      return Decimal128::CompareToInt64(a, b.int64_value());
  }
}

int CompareNumbers(const Value& a, const Value& b) {
  if (a.type() == ValueType::kDecimal) {
    return CompareDecimalTo(a.decimal_value(), b);
  }
  if (b.type() == ValueType::kDecimal) {
    return -CompareDecimalTo(b.decimal_value(), a);
  }
  bool ad = a.type() == ValueType::kDouble;
  bool bd = b.type() == ValueType::kDouble;
  if (!ad && !bd) return Cmp(a.int64_value(), b.int64_value());
  if (ad && bd) return CompareDoubles(a.double_value(), b.double_value());
  if (bd) return CompareIntDouble(a.int64_value(), b.double_value());
  return -CompareIntDouble(b.int64_value(), a.double_value());
}

int CompareStrings(const std::string& a, const std::string& b) {
  int c = a.compare(b);  // memcmp order: unsigned bytes
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace

int CompareValues(const Value& a, const Value& b) {
  int ta = CanonicalTypeOrder(a.type());
  int tb = CanonicalTypeOrder(b.type());
  if (ta != tb) return ta < tb ? -1 : 1;
  switch (a.type()) {
    case ValueType::kMinKey:
    case ValueType::kNull:
    case ValueType::kMaxKey:
      return 0;
    case ValueType::kInt32:
    case ValueType::kInt64:
    case ValueType::kDouble:
    case ValueType::kDecimal:
      return CompareNumbers(a, b);
    case ValueType::kString:
      return CompareStrings(a.string_value(), b.string_value());
    case ValueType::kObject: {
      const Value::Object& fa = a.object_fields();
      const Value::Object& fb = b.object_fields();
      size_t n = std::min(fa.size(), fb.size());
      for (size_t i = 0; i < n; ++i) {
        int c = Cmp(CanonicalTypeOrder(fa[i].second.type()),
                    CanonicalTypeOrder(fb[i].second.type()));
        if (c != 0) return c;
        c = CompareStrings(fa[i].first, fb[i].first);
        if (c != 0) return c;
        c = CompareValues(fa[i].second, fb[i].second);
        if (c != 0) return c;
      }
      return Cmp(fa.size(), fb.size());
    }
    case ValueType::kArray: {
      const Value::Array& ia = a.array_items();
      const Value::Array& ib = b.array_items();
      size_t n = std::min(ia.size(), ib.size());
      for (size_t i = 0; i < n; ++i) {
        int c = CompareValues(ia[i], ib[i]);
        if (c != 0) return c;
      }
      return Cmp(ia.size(), ib.size());
    }
    case ValueType::kBinary: {
      const Binary& ba = a.binary_value();
      const Binary& bb = b.binary_value();
      if (ba.data.size() != bb.data.size()) {
        return Cmp(ba.data.size(), bb.data.size());
      }
      if (ba.subtype != bb.subtype) return Cmp(ba.subtype, bb.subtype);
      return CompareStrings(ba.data, bb.data);
    }
    case ValueType::kObjectId: {
      int c = std::memcmp(a.oid_value().bytes.data(),
                          b.oid_value().bytes.data(), 12);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case ValueType::kBool:
      return Cmp(a.bool_value(), b.bool_value());
    case ValueType::kDate:
      return Cmp(a.date_millis(), b.date_millis());
    case ValueType::kTimestamp: {
      const Timestamp& x = a.timestamp_value();
      const Timestamp& y = b.timestamp_value();
      if (x.t != y.t) return Cmp(x.t, y.t);
      return Cmp(x.i, y.i);
    }
    case ValueType::kRegex: {
      int c = CompareStrings(a.regex_value().pattern, b.regex_value().pattern);
      if (c != 0) return c;
      return CompareStrings(a.regex_value().options, b.regex_value().options);
    }
  }
  return 0;
}

namespace {

// IdenticalValues (doubles_by_bits) and ExactEqual (doubles by ==, NaN equal
// to NaN): they differ only there.
bool SameValues(const Value& a, const Value& b, bool doubles_by_bits) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case ValueType::kMinKey:
    case ValueType::kNull:
    case ValueType::kMaxKey:
      return true;
    case ValueType::kBool:
      return a.bool_value() == b.bool_value();
    case ValueType::kInt32:
    case ValueType::kInt64:
      return a.int64_value() == b.int64_value();
    case ValueType::kDate:
      return a.date_millis() == b.date_millis();
    case ValueType::kDouble: {
      const double x = a.double_value(), y = b.double_value();
      if (doubles_by_bits) return std::memcmp(&x, &y, sizeof(double)) == 0;
      return x == y || (std::isnan(x) && std::isnan(y));
    }
    case ValueType::kDecimal:
      return a.decimal_value() == b.decimal_value();
    case ValueType::kString:
      return a.string_value() == b.string_value();
    case ValueType::kObjectId:
      return a.oid_value() == b.oid_value();
    case ValueType::kTimestamp:
      return a.timestamp_value().t == b.timestamp_value().t &&
             a.timestamp_value().i == b.timestamp_value().i;
    case ValueType::kBinary:
      return a.binary_value().subtype == b.binary_value().subtype &&
             a.binary_value().data == b.binary_value().data;
    case ValueType::kRegex:
      return a.regex_value().pattern == b.regex_value().pattern &&
             a.regex_value().options == b.regex_value().options;
    case ValueType::kObject: {
      const Value::Object& x = a.object_fields();
      const Value::Object& y = b.object_fields();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (x[i].first != y[i].first ||
            !SameValues(x[i].second, y[i].second, doubles_by_bits)) {
          return false;
        }
      }
      return true;
    }
    case ValueType::kArray: {
      const Value::Array& x = a.array_items();
      const Value::Array& y = b.array_items();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!SameValues(x[i], y[i], doubles_by_bits)) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace

bool IdenticalValues(const Value& a, const Value& b) {
  return SameValues(a, b, /*doubles_by_bits=*/true);
}

bool ExactEqual(const Value& a, const Value& b) {
  return SameValues(a, b, /*doubles_by_bits=*/false);
}

}  // namespace ttldb
