#include "ttldb/value.h"

#include <atomic>
#include <ctime>
#include <random>

namespace ttldb {

absl::string_view TypeName(ValueType type) {
  switch (type) {
    case ValueType::kMinKey:
      return "minKey";
    case ValueType::kNull:
      return "null";
    case ValueType::kInt32:
      return "int";
    case ValueType::kInt64:
      return "long";
    case ValueType::kDouble:
      return "double";
    case ValueType::kString:
      return "string";
    case ValueType::kObject:
      return "object";
    case ValueType::kArray:
      return "array";
    case ValueType::kBinary:
      return "binData";
    case ValueType::kObjectId:
      return "objectId";
    case ValueType::kBool:
      return "bool";
    case ValueType::kDate:
      return "date";
    case ValueType::kTimestamp:
      return "timestamp";
    case ValueType::kRegex:
      return "regex";
    case ValueType::kMaxKey:
      return "maxKey";
    case ValueType::kDecimal:
      return "decimal";
  }
  return "unknown";
}

int CanonicalTypeOrder(ValueType type) {
  switch (type) {
    case ValueType::kMinKey:
      return 0;
    case ValueType::kNull:
      return 1;
    case ValueType::kInt32:
    case ValueType::kInt64:
    case ValueType::kDouble:
    case ValueType::kDecimal:
      return 2;
    case ValueType::kString:
      return 3;
    case ValueType::kObject:
      return 4;
    case ValueType::kArray:
      return 5;
    case ValueType::kBinary:
      return 6;
    case ValueType::kObjectId:
      return 7;
    case ValueType::kBool:
      return 8;
    case ValueType::kDate:
      return 9;
    case ValueType::kTimestamp:
      return 10;
    case ValueType::kRegex:
      return 11;
    case ValueType::kMaxKey:
      return 12;
  }
  return 13;
}

namespace {

// The 5 random bytes of every id this process generates, chosen once, and
// the 3-byte counter's starting point, random as MongoDB's is.
struct OidProcessState {
  std::array<uint8_t, 5> random;
  std::atomic<uint32_t> counter;

  OidProcessState() {
    std::random_device rd;
    uint64_t r = (uint64_t{rd()} << 32) ^ rd();
    for (int i = 0; i < 5; ++i) random[i] = static_cast<uint8_t>(r >> (8 * i));
    counter.store(rd() & 0xFFFFFF, std::memory_order_relaxed);
  }
};

OidProcessState& ProcessState() {
  static OidProcessState* state = new OidProcessState();
  return *state;
}

int HexDigitOf(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

ObjectId ObjectId::Generate() {
  return GenerateAt(static_cast<uint32_t>(std::time(nullptr)));
}

ObjectId ObjectId::GenerateAt(uint32_t seconds) {
  OidProcessState& state = ProcessState();
  uint32_t count =
      state.counter.fetch_add(1, std::memory_order_relaxed) & 0xFFFFFF;
  ObjectId id;
  id.bytes[0] = static_cast<uint8_t>(seconds >> 24);
  id.bytes[1] = static_cast<uint8_t>(seconds >> 16);
  id.bytes[2] = static_cast<uint8_t>(seconds >> 8);
  id.bytes[3] = static_cast<uint8_t>(seconds);
  for (int i = 0; i < 5; ++i) id.bytes[4 + i] = state.random[i];
  id.bytes[9] = static_cast<uint8_t>(count >> 16);
  id.bytes[10] = static_cast<uint8_t>(count >> 8);
  id.bytes[11] = static_cast<uint8_t>(count);
  return id;
}

bool ObjectId::FromHex(absl::string_view hex, ObjectId* out) {
  if (hex.size() != 24) return false;
  ObjectId id;
  for (int i = 0; i < 12; ++i) {
    int hi = HexDigitOf(hex[2 * i]);
    int lo = HexDigitOf(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    id.bytes[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  *out = id;
  return true;
}

std::string ObjectId::ToHex() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(24, '0');
  for (int i = 0; i < 12; ++i) {
    s[2 * i] = kHex[bytes[i] >> 4];
    s[2 * i + 1] = kHex[bytes[i] & 0xF];
  }
  return s;
}

uint32_t ObjectId::Seconds() const {
  return uint32_t{bytes[0]} << 24 | uint32_t{bytes[1]} << 16 |
         uint32_t{bytes[2]} << 8 | uint32_t{bytes[3]};
}

double Value::AsDouble() const {
  switch (type_) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      return static_cast<double>(std::get<int64_t>(data_));
    case ValueType::kDouble:
      return std::get<double>(data_);
    case ValueType::kDecimal:
      return std::get<Decimal128>(data_).ToDouble();
    default:
      return 0;
  }
}

const Value* Value::Get(absl::string_view name) const {
  for (const Field& f : std::get<Object>(data_)) {
    if (f.first == name) return &f.second;
  }
  return nullptr;
}

Value* Value::GetMutable(absl::string_view name) {
  for (Field& f : std::get<Object>(data_)) {
    if (f.first == name) return &f.second;
  }
  return nullptr;
}

void Value::Set(absl::string_view name, Value v) {
  if (Value* existing = GetMutable(name)) {
    *existing = std::move(v);
    return;
  }
  std::get<Object>(data_).emplace_back(std::string(name), std::move(v));
}

bool Value::Remove(absl::string_view name) {
  Object& fields = std::get<Object>(data_);
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    if (it->first == name) {
      fields.erase(it);
      return true;
    }
  }
  return false;
}

}  // namespace ttldb
