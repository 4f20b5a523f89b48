// The value model of ttldb documents: the types of MongoDB Extended JSON.
//
// A Value is a tagged union owning its data. Objects keep their fields in
// insertion order (as BSON does) and may be looked up by name. Values are
// copyable and movable; they are not thread-safe for concurrent mutation but
// a const Value may be read from many threads.
#ifndef TTLDB_VALUE_H_
#define TTLDB_VALUE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "ttldb/decimal128.h"

namespace ttldb {

// The types a document value can have. DO NOT CHANGE THESE ENUM VALUES: they
// are not persisted, but tests and the key codec name them.
enum class ValueType : uint8_t {
  kMinKey = 0,
  kNull = 1,
  kInt32 = 2,
  kInt64 = 3,
  kDouble = 4,
  kString = 5,
  kObject = 6,
  kArray = 7,
  kBinary = 8,
  kObjectId = 9,
  kBool = 10,
  kDate = 11,
  kTimestamp = 12,
  kRegex = 13,
  kMaxKey = 14,
  kDecimal = 15,  // Decimal128 (NumberDecimal); a number
};

// MongoDB's name of a type, as $type and error messages spell it
// ("double", "string", "object", "array", "binData", "objectId", "bool",
// "date", "null", "regex", "int", "timestamp", "long", "decimal", "minKey",
// "maxKey").
absl::string_view TypeName(ValueType type);

// The position of a type in MongoDB's cross-type sort order. Numbers share
// one bracket: MinKey < null < numbers < string < object < array < binData <
// ObjectId < bool < Date < Timestamp < regex < MaxKey.
int CanonicalTypeOrder(ValueType type);

// Int32, Int64, Double and Decimal: the types that compare by numeric value.
inline bool IsNumber(ValueType t) {
  return t == ValueType::kInt32 || t == ValueType::kInt64 ||
         t == ValueType::kDouble || t == ValueType::kDecimal;
}

// A 12-byte ObjectId: 4-byte big-endian seconds, 5-byte per-process random,
// 3-byte big-endian counter (MongoDB's layout), so ids sort by creation time.
struct ObjectId {
  std::array<uint8_t, 12> bytes{};

  // A fresh id; thread-safe.
  static ObjectId Generate();
  // A fresh id with the given creation time (seconds since the epoch).
  static ObjectId GenerateAt(uint32_t seconds);
  // Parses 24 hex digits; false if `hex` is not exactly that.
  static bool FromHex(absl::string_view hex, ObjectId* out);
  std::string ToHex() const;
  uint32_t Seconds() const;

  friend bool operator==(const ObjectId& a, const ObjectId& b) {
    return a.bytes == b.bytes;
  }
  friend bool operator<(const ObjectId& a, const ObjectId& b) {
    return a.bytes < b.bytes;
  }
};

struct Timestamp {
  uint32_t t = 0;  // seconds
  uint32_t i = 0;  // increment
};

struct Binary {
  uint8_t subtype = 0;
  std::string data;  // raw bytes
};

struct Regex {
  std::string pattern;
  std::string options;  // sorted flags, e.g. "im"
};

namespace value_internal {

// A heap-held copy of a rarely used member too large for Value's inline
// storage (Binary: 40 bytes, Regex: 64): boxed, a Value takes 48 bytes
// instead of 80, so every object field and array item of every parsed,
// cached or copied document is smaller. Copies deep-copy; a moved-from box
// reads as an empty T, as a moved-from T would.
template <typename T>
class Boxed {
 public:
  explicit Boxed(T v) : p_(std::make_unique<T>(std::move(v))) {}
  Boxed(const Boxed& o) : p_(std::make_unique<T>(o.get())) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& o) {
    p_ = std::make_unique<T>(o.get());
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  const T& get() const {
    static const T kEmpty{};
    return p_ != nullptr ? *p_ : kEmpty;
  }

 private:
  std::unique_ptr<T> p_;
};

}  // namespace value_internal

class Value;
using Field = std::pair<std::string, Value>;

class Value {
 public:
  using Object = std::vector<Field>;
  using Array = std::vector<Value>;

  Value() : type_(ValueType::kNull) {}  // null

  static Value Null() { return Value(); }
  static Value MinKey() { return Value(ValueType::kMinKey, std::monostate{}); }
  static Value MaxKey() { return Value(ValueType::kMaxKey, std::monostate{}); }
  static Value Bool(bool b) { return Value(ValueType::kBool, b); }
  static Value Int32(int32_t v) { return Value(ValueType::kInt32, int64_t{v}); }
  static Value Int64(int64_t v) { return Value(ValueType::kInt64, v); }
  static Value Double(double v) { return Value(ValueType::kDouble, v); }
  static Value Decimal(Decimal128 v) { return Value(ValueType::kDecimal, v); }
  // Milliseconds since the Unix epoch (negative before 1970).
  static Value Date(int64_t millis) { return Value(ValueType::kDate, millis); }
  static Value String(std::string s) {
    return Value(ValueType::kString, std::move(s));
  }
  static Value Oid(const ObjectId& id) {
    return Value(ValueType::kObjectId, id);
  }
  static Value Ts(Timestamp ts) { return Value(ValueType::kTimestamp, ts); }
  static Value Bin(Binary b) {
    return Value(ValueType::kBinary,
                 value_internal::Boxed<Binary>(std::move(b)));
  }
  static Value Re(Regex r) {
    return Value(ValueType::kRegex, value_internal::Boxed<Regex>(std::move(r)));
  }
  static Value MakeObject(Object fields = {}) {
    return Value(ValueType::kObject, std::move(fields));
  }
  static Value MakeArray(Array items = {}) {
    return Value(ValueType::kArray, std::move(items));
  }

  ValueType type() const { return type_; }
  bool is_null() const { return type_ == ValueType::kNull; }
  bool is_number() const { return IsNumber(type_); }
  bool is_object() const { return type_ == ValueType::kObject; }
  bool is_array() const { return type_ == ValueType::kArray; }
  bool is_string() const { return type_ == ValueType::kString; }
  bool is_date() const { return type_ == ValueType::kDate; }

  // Typed accessors: the caller must have checked type().
  bool bool_value() const { return std::get<bool>(data_); }
  int32_t int32_value() const {
    return static_cast<int32_t>(std::get<int64_t>(data_));
  }
  int64_t int64_value() const { return std::get<int64_t>(data_); }
  double double_value() const { return std::get<double>(data_); }
  const Decimal128& decimal_value() const {
    return std::get<Decimal128>(data_);
  }
  int64_t date_millis() const { return std::get<int64_t>(data_); }
  const std::string& string_value() const {
    return std::get<std::string>(data_);
  }
  std::string& mutable_string_value() { return std::get<std::string>(data_); }
  const ObjectId& oid_value() const { return std::get<ObjectId>(data_); }
  const Timestamp& timestamp_value() const {
    return std::get<Timestamp>(data_);
  }
  const Binary& binary_value() const {
    return std::get<value_internal::Boxed<Binary>>(data_).get();
  }
  const Regex& regex_value() const {
    return std::get<value_internal::Boxed<Regex>>(data_).get();
  }
  const Object& object_fields() const { return std::get<Object>(data_); }
  Object& mutable_object_fields() { return std::get<Object>(data_); }
  const Array& array_items() const { return std::get<Array>(data_); }
  Array& mutable_array_items() { return std::get<Array>(data_); }

  // Any number as a double (int64 beyond 2^53 and most decimals lose
  // precision; a decimal rounds to nearest).
  double AsDouble() const;

  // Object field access (type must be kObject). Get returns nullptr when
  // absent; Set replaces in place or appends; Remove returns whether it was
  // present.
  const Value* Get(absl::string_view name) const;
  Value* GetMutable(absl::string_view name);
  void Set(absl::string_view name, Value v);
  bool Remove(absl::string_view name);

 private:
  using Data =
      std::variant<std::monostate, bool, int64_t, double, std::string, ObjectId,
                   Timestamp, value_internal::Boxed<Binary>,
                   value_internal::Boxed<Regex>, Object, Array, Decimal128>;
  template <typename T>
  Value(ValueType type, T&& data) : type_(type), data_(std::forward<T>(data)) {}

  ValueType type_;
  Data data_;
};

}  // namespace ttldb

#endif  // TTLDB_VALUE_H_
