// Index key encoding. The grammar below is a storage format: DO NOT CHANGE
// THE TAG VALUES OR LAYOUTS without bumping the database format version.
//
// key      := value                  (ascending field)
//           | ~value                 (descending field: every byte of the
//                                     ascending encoding complemented)
// value    := 0x0A                                   MinKey
//           | 0x0F                                   empty array key
//                                                    ("undefined"; only
//                                                    from AppendEmptyArrayKey)
//           | 0x14                                   null
//           | 0x1E                                   NaN (all NaNs equal,
//                                                    double or decimal)
//           | 0x1F dbits64 exact                     number < -2^63 (-inf too)
//           | 0x20 int64 frac exact                  number in [-2^63, 2^63)
//           | 0x21 dbits64 exact                     number >= 2^63 (+inf too)
//           | 0x3C cstr                              string
//           | 0x46 field* 0x00                       object
//           | 0x50 value* 0x00                       array
//           | 0x5A be32(len) subtype(1) byte[len]    binData
//           | 0x64 byte[12]                          ObjectId
//           | 0x6E (0x00 | 0x01)                     bool
//           | 0x78 int64                             Date (millis)
//           | 0x82 be32(t) be32(i)                   Timestamp
//           | 0x8C cstr(pattern) cstr(options)       regex
//           | 0xF0                                   MaxKey
// field    := ftype cstr(name) value
// ftype    := the bracket byte of the field value's type, numbers all 0x1E
//             (so fields compare by type, then name, then value, as BSON
//             objects do; 0x00, the end marker, is below every ftype)
// int64    := 8 bytes big-endian of (int64 as uint64) XOR 2^63 (sign flipped)
// frac     := 0x00 dbits64(r)                       -1 < r < 0
//           | 0x01                                   r == 0 (an integer)
//           | 0x02 dbits64(r)                        0 < r < 1
//             (the int64 is t = trunc(x) and r = x - t, both exact; the
//             pair (t, r) orders exactly like x, and an int64 n and the
//             double n.0 encode identically. floor() would not do: for tiny
//             negative x, x - floor(x) rounds to 1.)
//             Format 3 added `exact` after every number (format 2 had none:
//             the open of a format-2 database rebuilds its keys).
// exact    := 0x01                                   the number is exactly
//                                                    what precedes
//           | 0x02 dec                               a decimal strictly
//             between what precedes (lo) and the next encodable double (the
//             next dbits64 / frac), which no double or int64 equals: lo is the
//             decimal rounded toward -inf (x itself in the large brackets,
//             the fraction r in the middle one, where frac may then be 0x01
//             for 0 < r < 2^-1074 or 0x00 dbits64(-1.0) for r just above -1)
// dec      := be16(adjexp + 0x1900) be128(coefficient scaled to 34 digits)
//             of the large-bracket value or the fraction r, trailing zeros
//             stripped first (so 0.50 and 0.5 agree); all 18 bytes
//             complemented when negative. Decimals equal to an int64 or a
//             double (1.00, 0.5, 1E+300 exactly) encode as those do.
// dbits64  := 8 bytes big-endian of the double's bits, with every bit flipped
//             when the sign is set, else only the sign bit set
// cstr     := (byte != 0x00 | 0x00 0xFF)* 0x00 0x01
//             (0x00 escaped as 0x00 0xFF; the terminator 0x00 0x01 sorts
//             below any continuation, so a prefix sorts first)
//
// Tags leave gaps so that new types can be placed between existing ones.
#include "index/key_codec.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {
namespace {

enum Tag : uint8_t {
  kEndTag = 0x00,
  kMinKeyTag = 0x0A,
  kUndefinedTag = 0x0F,
  kNullTag = 0x14,
  kNaNTag = 0x1E,
  kNegLargeTag = 0x1F,
  kNumberTag = 0x20,
  kPosLargeTag = 0x21,
  kStringTag = 0x3C,
  kObjectTag = 0x46,
  kArrayTag = 0x50,
  kBinaryTag = 0x5A,
  kObjectIdTag = 0x64,
  kBoolTag = 0x6E,
  kDateTag = 0x78,
  kTimestampTag = 0x82,
  kRegexTag = 0x8C,
  kMaxKeyTag = 0xF0,
};

// 2^63 as a double: the first double above every int64.
constexpr double kTwo63 = 9223372036854775808.0;

// Added to a decimal's adjusted exponent (-6176..6144) in `dec`.
constexpr int kDecimalExpBias = 0x1900;
constexpr unsigned __int128 kTenTo34 =
    static_cast<unsigned __int128>(10000000000000000000ull) *
    1000000000000000ull;

// A corrupt key could nest without end; 200 is twice the document limit.
constexpr int kMaxDecodeDepth = 200;

// The first and last tag of a type's bracket.
void BracketTags(ValueType t, uint8_t* first, uint8_t* last) {
  switch (t) {
    case ValueType::kMinKey:
      *first = *last = kMinKeyTag;
      return;
    case ValueType::kNull:
      *first = *last = kNullTag;
      return;
    case ValueType::kInt32:
    case ValueType::kInt64:
    case ValueType::kDouble:
    case ValueType::kDecimal:
      *first = kNaNTag;
      *last = kPosLargeTag;
      return;
    case ValueType::kString:
      *first = *last = kStringTag;
      return;
    case ValueType::kObject:
      *first = *last = kObjectTag;
      return;
    case ValueType::kArray:
      *first = *last = kArrayTag;
      return;
    case ValueType::kBinary:
      *first = *last = kBinaryTag;
      return;
    case ValueType::kObjectId:
      *first = *last = kObjectIdTag;
      return;
    case ValueType::kBool:
      *first = *last = kBoolTag;
      return;
    case ValueType::kDate:
      *first = *last = kDateTag;
      return;
    case ValueType::kTimestamp:
      *first = *last = kTimestampTag;
      return;
    case ValueType::kRegex:
      *first = *last = kRegexTag;
      return;
    case ValueType::kMaxKey:
      *first = *last = kMaxKeyTag;
      return;
  }
  *first = *last = kNullTag;
}

// One append of the bytes, not a push_back (and its capacity check) each:
// every index key and document key goes through these (issue 29 item 2).
void PutBE64(uint64_t v, std::string* out) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(v >> (56 - 8 * i));
  out->append(b, sizeof(b));
}

void PutBE32(uint32_t v, std::string* out) {
  char b[4];
  for (int i = 0; i < 4; ++i) b[i] = static_cast<char>(v >> (24 - 8 * i));
  out->append(b, sizeof(b));
}

void PutInt64(int64_t v, std::string* out) {
  PutBE64(static_cast<uint64_t>(v) ^ (uint64_t{1} << 63), out);
}

uint64_t DoubleBits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof(u));
  return u;
}

double BitsDouble(uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof(d));
  return d;
}

void PutOrderedDouble(double d, std::string* out) {
  uint64_t u = DoubleBits(d);
  if (u >> 63) {
    u = ~u;
  } else {
    u |= uint64_t{1} << 63;
  }
  PutBE64(u, out);
}

void ComplementFrom(size_t start, std::string* out) {
  for (size_t i = start; i < out->size(); ++i) (*out)[i] = ~(*out)[i];
}

void PutCString(absl::string_view s, std::string* out) {
  // The runs between NULs in one append each (usually the whole string).
  while (true) {
    const size_t nul = s.find('\0');
    if (nul == absl::string_view::npos) break;
    out->append(s.data(), nul + 1);
    out->push_back(static_cast<char>(0xFF));
    s.remove_prefix(nul + 1);
  }
  out->append(s.data(), s.size());
  out->append("\0\x01", 2);
}

// frac of a nonzero r in [-1, 1) (-1 only below a decimal just above it).
void PutFraction(double r, std::string* out) {
  if (r < 0) {
    out->push_back('\0');
    PutOrderedDouble(r, out);
  } else if (r == 0) {
    out->push_back('\x01');
  } else {
    out->push_back('\x02');
    PutOrderedDouble(r, out);
  }
}

enum Exactness : uint8_t { kExact = 0x01, kAbove = 0x02 };

// An integer in int64 range, without its exactness byte.
void PutIntegerPart(int64_t v, std::string* out) {
  out->push_back(static_cast<char>(kNumberTag));
  PutInt64(v, out);
  out->push_back('\x01');
}

void PutInteger(int64_t v, std::string* out) {
  PutIntegerPart(v, out);
  out->push_back(static_cast<char>(kExact));
}

// A double (not NaN), without its exactness byte.
void PutDoublePart(double d, std::string* out) {
  if (std::isnan(d)) {
    out->push_back(static_cast<char>(kNaNTag));
  } else if (d < -kTwo63) {
    out->push_back(static_cast<char>(kNegLargeTag));
    PutOrderedDouble(d, out);
  } else if (d >= kTwo63) {
    out->push_back(static_cast<char>(kPosLargeTag));
    PutOrderedDouble(d, out);
  } else {
    double t = std::trunc(d);
    double r = d - t;  // exact, in (-1, 1), same sign as d; -0.0 gives 0
    out->push_back(static_cast<char>(kNumberTag));
    PutInt64(static_cast<int64_t>(t), out);
    PutFraction(r, out);
  }
}

void PutDouble(double d, std::string* out) {
  if (std::isnan(d)) {
    out->push_back(static_cast<char>(kNaNTag));
    return;
  }
  PutDoublePart(d, out);
  out->push_back(static_cast<char>(kExact));
}

// `dec` of a nonzero finite decimal: adjusted exponent, then the
// coefficient scaled to 34 digits, which orders decimals of one sign.
void PutDecimalBytes(const Decimal128& x, std::string* out) {
  bool negative;
  unsigned __int128 c;
  int e;
  x.Parts(&negative, &c, &e);
  while (c != 0 && c % 10 == 0) c /= 10, ++e;
  int digits = 0;
  for (unsigned __int128 t = c; t != 0; t /= 10) ++digits;
  unsigned __int128 scaled = c;
  for (int i = digits; i < 34; ++i) scaled *= 10;
  const int adjusted = e + digits - 1;
  const size_t start = out->size();
  const uint16_t biased = static_cast<uint16_t>(adjusted + kDecimalExpBias);
  out->push_back(static_cast<char>(biased >> 8));
  out->push_back(static_cast<char>(biased & 0xFF));
  PutBE64(static_cast<uint64_t>(scaled >> 64), out);
  PutBE64(static_cast<uint64_t>(scaled), out);
  if (negative) ComplementFrom(start, out);
}

// A decimal that is not NaN: as the int64 or double it equals, else as the
// double below it followed by its own digits.
void PutDecimal(const Decimal128& x, std::string* out) {
  if (x.IsNaN()) {
    out->push_back(static_cast<char>(kNaNTag));
    return;
  }
  int64_t i;
  if (x.ToInt64Exact(&i)) return PutInteger(i, out);
  bool inexact;
  const double lo = x.ToDoubleFloor(&inexact);
  if (!inexact) return PutDouble(lo, out);
  int64_t t;
  if (Decimal128::CompareToDouble(x, kTwo63) >= 0 ||
      Decimal128::CompareToDouble(x, -kTwo63) < 0 || !x.TruncToInt64(&t)) {
    // lo is in the same bracket as x: 2^63 and -2^63 are doubles.
    out->push_back(static_cast<char>(lo < 0 ? kNegLargeTag : kPosLargeTag));
    PutOrderedDouble(lo, out);
    out->push_back(static_cast<char>(kAbove));
    PutDecimalBytes(x, out);
    return;
  }
  // x = t + r exactly, 0 < |r| < 1, both exact in decimal.
  const Decimal128 r = x.Subtract(Decimal128::FromInt64(t));
  bool r_inexact;
  const double r_lo = r.ToDoubleFloor(&r_inexact);
  out->push_back(static_cast<char>(kNumberTag));
  PutInt64(t, out);
  if (r_lo == 0) {
    out->push_back('\x01');
  } else {
    PutFraction(r_lo, out);
  }
  if (!r_inexact) {
    out->push_back(static_cast<char>(kExact));
    return;
  }
  out->push_back(static_cast<char>(kAbove));
  PutDecimalBytes(r, out);
}

uint8_t FieldTypeByte(ValueType t) {
  uint8_t first, last;
  BracketTags(t, &first, &last);
  return first;
}

void AppendAscending(const Value& v, std::string* out) {
  switch (v.type()) {
    case ValueType::kMinKey:
      out->push_back(static_cast<char>(kMinKeyTag));
      return;
    case ValueType::kNull:
      out->push_back(static_cast<char>(kNullTag));
      return;
    case ValueType::kInt32:
    case ValueType::kInt64:
      PutInteger(v.int64_value(), out);
      return;
    case ValueType::kDouble:
      PutDouble(v.double_value(), out);
      return;
    case ValueType::kDecimal:
      PutDecimal(v.decimal_value(), out);
      return;
    case ValueType::kString:
      out->push_back(static_cast<char>(kStringTag));
      PutCString(v.string_value(), out);
      return;
    case ValueType::kObject:
      out->push_back(static_cast<char>(kObjectTag));
      for (const Field& f : v.object_fields()) {
        out->push_back(static_cast<char>(FieldTypeByte(f.second.type())));
        PutCString(f.first, out);
        AppendAscending(f.second, out);
      }
      out->push_back(static_cast<char>(kEndTag));
      return;
    case ValueType::kArray:
      out->push_back(static_cast<char>(kArrayTag));
      for (const Value& item : v.array_items()) AppendAscending(item, out);
      out->push_back(static_cast<char>(kEndTag));
      return;
    case ValueType::kBinary: {
      const Binary& b = v.binary_value();
      out->push_back(static_cast<char>(kBinaryTag));
      PutBE32(static_cast<uint32_t>(b.data.size()), out);
      out->push_back(static_cast<char>(b.subtype));
      out->append(b.data);
      return;
    }
    case ValueType::kObjectId:
      out->push_back(static_cast<char>(kObjectIdTag));
      out->append(reinterpret_cast<const char*>(v.oid_value().bytes.data()),
                  12);
      return;
    case ValueType::kBool:
      out->push_back(static_cast<char>(kBoolTag));
      out->push_back(v.bool_value() ? '\x01' : '\0');
      return;
    case ValueType::kDate:
      out->push_back(static_cast<char>(kDateTag));
      PutInt64(v.date_millis(), out);
      return;
    case ValueType::kTimestamp:
      out->push_back(static_cast<char>(kTimestampTag));
      PutBE32(v.timestamp_value().t, out);
      PutBE32(v.timestamp_value().i, out);
      return;
    case ValueType::kRegex:
      out->push_back(static_cast<char>(kRegexTag));
      PutCString(v.regex_value().pattern, out);
      PutCString(v.regex_value().options, out);
      return;
    case ValueType::kMaxKey:
      out->push_back(static_cast<char>(kMaxKeyTag));
      return;
  }
}

// Reads bytes of one direction, undoing the complement of descending keys.
class Reader {
 public:
  Reader(absl::string_view in, bool descending)
      : in_(in), mask_(descending ? 0xFF : 0x00) {}

  bool Byte(uint8_t* b) {
    if (pos_ >= in_.size()) return false;
    *b = static_cast<uint8_t>(in_[pos_++]) ^ mask_;
    return true;
  }
  bool Bytes(size_t n, std::string* out) {
    if (in_.size() - pos_ < n) return false;
    for (size_t i = 0; i < n; ++i) {
      out->push_back(
          static_cast<char>(static_cast<uint8_t>(in_[pos_++]) ^ mask_));
    }
    return true;
  }
  bool BE64(uint64_t* v) {
    uint64_t r = 0;
    for (int i = 0; i < 8; ++i) {
      uint8_t b;
      if (!Byte(&b)) return false;
      r = (r << 8) | b;
    }
    *v = r;
    return true;
  }
  bool BE32(uint32_t* v) {
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
      uint8_t b;
      if (!Byte(&b)) return false;
      r = (r << 8) | b;
    }
    *v = r;
    return true;
  }
  bool Int64(int64_t* v) {
    uint64_t u;
    if (!BE64(&u)) return false;
    *v = static_cast<int64_t>(u ^ (uint64_t{1} << 63));
    return true;
  }
  bool OrderedDouble(double* d) {
    uint64_t u;
    if (!BE64(&u)) return false;
    if (u >> 63) {
      u &= ~(uint64_t{1} << 63);
    } else {
      u = ~u;
    }
    *d = BitsDouble(u);
    return true;
  }
  bool CString(std::string* out) {
    for (;;) {
      uint8_t b;
      if (!Byte(&b)) return false;
      if (b != 0) {
        out->push_back(static_cast<char>(b));
        continue;
      }
      if (!Byte(&b)) return false;
      if (b == 0x01) return true;
      if (b != 0xFF) return false;
      out->push_back('\0');
    }
  }
  size_t pos() const { return pos_; }

 private:
  absl::string_view in_;
  uint8_t mask_;
  size_t pos_ = 0;
};

absl::Status Corrupt(const Reader& r, absl::string_view what) {
  return absl::DataLossError(
      absl::StrCat("corrupt index key at byte ", r.pos(), ": ", what));
}

absl::StatusOr<Value> Decode(Reader* r, int depth);

// `dec` (see the grammar), of a value of the given sign.
absl::StatusOr<Decimal128> ReadDecimalBytes(Reader* r, bool negative) {
  std::string raw;
  if (!r->Bytes(18, &raw)) return Corrupt(*r, "truncated decimal");
  if (negative) {
    for (char& c : raw) c = ~c;
  }
  auto byte = [&](int i) { return static_cast<uint8_t>(raw[i]); };
  const int adjusted = (byte(0) << 8 | byte(1)) - kDecimalExpBias;
  unsigned __int128 scaled = 0;
  for (int i = 2; i < 18; ++i) scaled = scaled << 8 | byte(i);
  if (scaled == 0 || scaled >= kTenTo34) return Corrupt(*r, "bad decimal");
  int exponent = adjusted - 33;
  // Strip the scaling zeros, but keep those the exponent range needs
  // (1E+6144 is 1000000000000000000000000000000000E+6111).
  while (scaled % 10 == 0 && exponent < 6111) scaled /= 10, ++exponent;
  if (exponent < -6176 || exponent > 6111) return Corrupt(*r, "bad decimal");
  return Decimal128::FromParts(negative, scaled, exponent);
}

absl::StatusOr<Value> DecodeWithTag(Reader* r, uint8_t tag, int depth) {
  if (depth > kMaxDecodeDepth) return Corrupt(*r, "nested too deeply");
  switch (tag) {
    case kMinKeyTag:
      return Value::MinKey();
    case kUndefinedTag:
      return Value::MakeArray();
    case kNullTag:
      return Value::Null();
    case kNaNTag:
      return Value::Double(std::numeric_limits<double>::quiet_NaN());
    case kNegLargeTag:
    case kPosLargeTag: {
      double d;
      if (!r->OrderedDouble(&d)) return Corrupt(*r, "truncated number");
      if (tag == kNegLargeTag ? !(d < -kTwo63) : !(d >= kTwo63)) {
        return Corrupt(*r, "number outside its bracket");
      }
      uint8_t exact;
      if (!r->Byte(&exact)) return Corrupt(*r, "truncated number");
      if (exact == kExact) return Value::Double(d);
      if (exact != kAbove) return Corrupt(*r, "bad exactness byte");
      ASSIGN_OR_RETURN(Decimal128 x, ReadDecimalBytes(r, d < 0));
      if (Decimal128::CompareToDouble(x, d) <= 0) {
        return Corrupt(*r, "decimal not above its double");
      }
      return Value::Decimal(x);
    }
    case kNumberTag: {
      int64_t i;
      uint8_t flag;
      if (!r->Int64(&i) || !r->Byte(&flag)) {
        return Corrupt(*r, "truncated number");
      }
      double frac = 0;
      if (flag > 2 || (flag != 1 && !r->OrderedDouble(&frac))) {
        return Corrupt(*r, "bad fraction");
      }
      uint8_t exact;
      if (!r->Byte(&exact) || (exact != kExact && exact != kAbove)) {
        return Corrupt(*r, "bad exactness byte");
      }
      if (flag == 0 ? !(frac >= -1 && frac < 0)
                    : !(frac >= 0 && frac < 1) || (flag == 2 && frac == 0)) {
        return Corrupt(*r, "bad fraction");
      }
      if (exact == kAbove) {
        ASSIGN_OR_RETURN(Decimal128 rest, ReadDecimalBytes(r, flag == 0));
        if (Decimal128::CompareToDouble(rest, frac) <= 0) {
          return Corrupt(*r, "decimal not above its double");
        }
        return Value::Decimal(Decimal128::FromInt64(i).Add(rest));
      }
      if (frac == -1) return Corrupt(*r, "bad fraction");
      if (flag == 1) {
        if (i >= std::numeric_limits<int32_t>::min() &&
            i <= std::numeric_limits<int32_t>::max()) {
          return Value::Int32(static_cast<int32_t>(i));
        }
        return Value::Int64(i);
      }
      // A double with a fraction is below 2^52 in magnitude, so i converts
      // exactly and the sum is the encoded double exactly. A decimal t + r
      // whose r happens to be a double may be no double: keep it a decimal.
      if (i > -(int64_t{1} << 52) && i < (int64_t{1} << 52)) {
        const double d = static_cast<double>(i) + frac;
        if (std::trunc(d) == static_cast<double>(i) &&
            d - std::trunc(d) == frac) {
          return Value::Double(d);
        }
      }
      return Value::Decimal(
          Decimal128::FromInt64(i).Add(Decimal128::FromDoubleNearest(frac)));
    }
    case kStringTag: {
      std::string s;
      if (!r->CString(&s)) return Corrupt(*r, "bad string");
      return Value::String(std::move(s));
    }
    case kObjectTag: {
      Value::Object fields;
      for (;;) {
        uint8_t ftype;
        if (!r->Byte(&ftype)) return Corrupt(*r, "truncated object");
        if (ftype == kEndTag) break;
        std::string name;
        if (!r->CString(&name)) return Corrupt(*r, "bad field name");
        ASSIGN_OR_RETURN(Value v, Decode(r, depth + 1));
        if (FieldTypeByte(v.type()) != ftype) {
          return Corrupt(*r, "field type byte does not match its value");
        }
        fields.emplace_back(std::move(name), std::move(v));
      }
      return Value::MakeObject(std::move(fields));
    }
    case kArrayTag: {
      Value::Array items;
      for (;;) {
        uint8_t t;
        if (!r->Byte(&t)) return Corrupt(*r, "truncated array");
        if (t == kEndTag) break;
        ASSIGN_OR_RETURN(Value v, DecodeWithTag(r, t, depth + 1));
        items.push_back(std::move(v));
      }
      return Value::MakeArray(std::move(items));
    }
    case kBinaryTag: {
      uint32_t len;
      uint8_t subtype;
      Binary b;
      if (!r->BE32(&len) || !r->Byte(&subtype) || !r->Bytes(len, &b.data)) {
        return Corrupt(*r, "truncated binData");
      }
      b.subtype = subtype;
      return Value::Bin(std::move(b));
    }
    case kObjectIdTag: {
      std::string raw;
      if (!r->Bytes(12, &raw)) return Corrupt(*r, "truncated ObjectId");
      ObjectId id;
      std::memcpy(id.bytes.data(), raw.data(), 12);
      return Value::Oid(id);
    }
    case kBoolTag: {
      uint8_t b;
      if (!r->Byte(&b) || b > 1) return Corrupt(*r, "bad bool");
      return Value::Bool(b == 1);
    }
    case kDateTag: {
      int64_t ms;
      if (!r->Int64(&ms)) return Corrupt(*r, "truncated Date");
      return Value::Date(ms);
    }
    case kTimestampTag: {
      Timestamp ts;
      if (!r->BE32(&ts.t) || !r->BE32(&ts.i)) {
        return Corrupt(*r, "truncated Timestamp");
      }
      return Value::Ts(ts);
    }
    case kRegexTag: {
      Regex re;
      if (!r->CString(&re.pattern) || !r->CString(&re.options)) {
        return Corrupt(*r, "bad regex");
      }
      return Value::Re(std::move(re));
    }
    case kMaxKeyTag:
      return Value::MaxKey();
  }
  return Corrupt(*r, absl::StrCat("unknown type tag ", tag));
}

absl::StatusOr<Value> Decode(Reader* r, int depth) {
  uint8_t tag;
  if (!r->Byte(&tag)) return Corrupt(*r, "empty key");
  return DecodeWithTag(r, tag, depth);
}

}  // namespace

void AppendKeyValue(const Value& v, bool descending, std::string* out) {
  size_t start = out->size();
  AppendAscending(v, out);
  if (descending) ComplementFrom(start, out);
}

std::string EncodeKeyValue(const Value& v, bool descending) {
  std::string out;
  AppendKeyValue(v, descending, &out);
  return out;
}

void AppendEmptyArrayKey(bool descending, std::string* out) {
  out->push_back(
      static_cast<char>(descending ? ~kUndefinedTag : kUndefinedTag));
}

absl::StatusOr<Value> DecodeKeyValue(absl::string_view* in, bool descending) {
  Reader r(*in, descending);
  ASSIGN_OR_RETURN(Value v, Decode(&r, 0));
  in->remove_prefix(r.pos());
  return v;
}

std::string KeyBracketStart(ValueType t, bool descending) {
  uint8_t first, last;
  BracketTags(t, &first, &last);
  uint8_t b = descending ? static_cast<uint8_t>(~last) : first;
  return std::string(1, static_cast<char>(b));
}

std::string KeyBracketEnd(ValueType t, bool descending) {
  uint8_t first, last;
  BracketTags(t, &first, &last);
  // Tags lie in 0x0A..0xF0, so neither +1 overflows.
  uint8_t b = descending ? static_cast<uint8_t>(~first) + 1 : last + 1;
  return std::string(1, static_cast<char>(b));
}

std::string KeyPrefixEnd(absl::string_view prefix) {
  std::string s(prefix);
  while (!s.empty() && static_cast<uint8_t>(s.back()) == 0xFF) s.pop_back();
  if (s.empty()) return s;
  s.back() = static_cast<char>(static_cast<uint8_t>(s.back()) + 1);
  return s;
}

}  // namespace ttldb
