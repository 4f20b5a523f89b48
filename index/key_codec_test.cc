#include "index/key_codec.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "document/compare.h"
#include "gtest/gtest.h"
#include "ttldb/value.h"

namespace ttldb {
namespace {

int Sign(int c) { return c < 0 ? -1 : (c > 0 ? 1 : 0); }

int ByteCompare(const std::string& a, const std::string& b) {
  return Sign(a.compare(b));  // std::string compares as unsigned bytes
}

// Values drawn from small pools so that equal and nearly equal values are
// common, at every boundary that the number encoding has.
class RandomValues {
 public:
  explicit RandomValues(uint32_t seed) : rng_(seed) {}

  Value Next(int depth = 0) {
    int kind = Uniform(0, depth >= 3 ? 13 : 15);
    switch (kind) {
      case 0:
        return Value::MinKey();
      case 1:
        return Value::MaxKey();
      case 2:
        return Value::Null();
      case 3:
      case 4:
        return Number();
      case 5:
        return Value::String(String());
      case 6:
        return Value::Bool(Uniform(0, 1) == 1);
      case 7:
        return Value::Date(Date());
      case 8: {
        ObjectId id;
        for (auto& b : id.bytes) b = static_cast<uint8_t>(Uniform(0, 2) * 127);
        return Value::Oid(id);
      }
      case 9: {
        Timestamp ts;
        ts.t = Pick<uint32_t>({0, 1, 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF});
        ts.i = Pick<uint32_t>({0, 1, 0xFFFFFFFF});
        return Value::Ts(ts);
      }
      case 10: {
        Binary b;
        b.subtype = static_cast<uint8_t>(Pick<int>({0, 4, 0x80}));
        b.data = String();
        return Value::Bin(std::move(b));
      }
      case 11: {
        Regex re;
        re.pattern = String();
        re.options = Pick<std::string>({"", "i", "im", "s"});
        return Value::Re(std::move(re));
      }
      case 12:
      case 13:
        return Number();
      case 14: {
        Value::Object fields;
        int n = Uniform(0, 3);
        for (int i = 0; i < n; ++i) {
          fields.emplace_back(
              Pick<std::string>({"a", "b", "", std::string("a\0", 2)}),
              Next(depth + 1));
        }
        return Value::MakeObject(std::move(fields));
      }
      default: {
        Value::Array items;
        int n = Uniform(0, 3);
        for (int i = 0; i < n; ++i) items.push_back(Next(depth + 1));
        return Value::MakeArray(std::move(items));
      }
    }
  }

 private:
  int Uniform(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  template <typename T>
  T Pick(std::initializer_list<T> items) {
    return *(items.begin() + Uniform(0, static_cast<int>(items.size()) - 1));
  }

  Value Number() {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    constexpr double kTwo63 = 9223372036854775808.0;
    constexpr double kTwo53 = 9007199254740992.0;
    const double inf = std::numeric_limits<double>::infinity();
    switch (Uniform(0, 5)) {
      case 4:
      case 5:
        return Decimal();
      case 0:
        return Value::Int32(Pick<int32_t>(
            {0, 1, -1, 5, 2147483647, -2147483647 - 1, 100, -100}));
      case 1:
        return Value::Int64(Pick<int64_t>(
            {0, 5, -5, kMax, kMin, kMax - 1, kMin + 1, 9007199254740992,
             9007199254740993, -9007199254740993, 2147483648, 100}));
      case 2: {
        double base =
            Pick<double>({0.0, -0.0, 5.0, -5.0, 0.5, -0.5, 1e-300, -1e-300,
                          4.9e-324, kTwo53, -kTwo53, kTwo63, -kTwo63, 1e300,
                          -1e300, inf, -inf, 100.25, 2147483647.0});
        switch (Uniform(0, 2)) {
          case 0:
            return Value::Double(std::nextafter(base, inf));
          case 1:
            return Value::Double(std::nextafter(base, -inf));
          default:
            return Value::Double(base);
        }
      }
      default:
        if (Uniform(0, 5) == 0) {
          return Value::Double(std::numeric_limits<double>::quiet_NaN());
        }
        return Value::Double(
            std::uniform_real_distribution<double>(-1e6, 1e6)(rng_));
    }
  }

  // Decimals equal to ints and doubles (in other cohorts), just beside
  // them, between doubles, far outside double range, and special.
  Value Decimal() {
    auto dec = [](const std::string& s) {
      absl::StatusOr<Decimal128> d = Decimal128::FromString(s);
      EXPECT_TRUE(d.ok()) << s;
      return Value::Decimal(d.ok() ? *d : Decimal128::NaN());
    };
    std::string base =
        Pick<std::string>({"0",
                           "-0",
                           "0.000",
                           "5",
                           "5.00",
                           "-5",
                           "0.5",
                           "-0.50",
                           "100.25",
                           "0.1",
                           "-0.1",
                           "1E+300",
                           "1E-300",
                           "9223372036854775807",
                           "9223372036854775808",
                           "-9223372036854775808",
                           "-9223372036854775809",
                           "9007199254740993",
                           "9007199254740993.5",
                           "-9007199254740993.5",
                           "4.9E-324",
                           "2.2E-400",
                           "-2.2E-400",
                           "1E+6144",
                           "-1E+6144",
                           "1E-6176",
                           "-1E-6176",
                           "NaN",
                           "-NaN",
                           "Infinity",
                           "-Infinity",
                           "2147483647",
                           "1.7976931348623157E+308",
                           "1.7976931348623159E+308",
                           "0.9999999999999999999999999999999999",
                           "-0.9999999999999999999999999999999999",
                           "1234567890123456789012345678901234",
                           "4503599627370496.25"});
    if (Uniform(0, 2) == 0 && base.find_first_of("NI") == std::string::npos) {
      // A nudge in the 34th digit.
      base += Pick<std::string>({"000000000000000000000000000000001",
                                 "00000000000000000000000000000000"});
      if (base.find('.') == std::string::npos &&
          base.find('E') == std::string::npos) {
        base.insert(base.size() - 33, ".");
      }
      if (base.size() > 36) base = base.substr(0, 36);
      absl::StatusOr<Decimal128> d = Decimal128::FromString(base);
      if (!d.ok()) return Value::Decimal(Decimal128::FromInt64(7));
      return Value::Decimal(*d);
    }
    return dec(base);
  }

  std::string String() {
    std::string s;
    int n = Uniform(0, 3);
    for (int i = 0; i < n; ++i) {
      s.push_back(Pick<char>({'\0', '\x01', 'a', 'b', '\xFF', '\xFE'}));
    }
    return s;
  }

  int64_t Date() {
    int64_t base = Pick<int64_t>({0, 1, -1, 1700000000000, -62135596800000,
                                  std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min()});
    int64_t delta = Uniform(0, 1) ? 0 : Uniform(-2, 2);
    int64_t out;
    // Near the int64 limits keep the base rather than overflow.
    return __builtin_add_overflow(base, delta, &out) ? base : out;
  }

  std::mt19937 rng_;
};

std::string Describe(const Value& v, bool descending) {
  std::string enc = EncodeKeyValue(v, descending);
  std::string hex;
  static const char* kDigits = "0123456789abcdef";
  for (unsigned char c : enc) {
    hex.push_back(kDigits[c >> 4]);
    hex.push_back(kDigits[c & 15]);
  }
  return hex;
}

TEST(KeyCodecTest, OrderMatchesCompareValuesPairwise) {
  RandomValues gen(12345);
  std::vector<Value> values;
  for (int i = 0; i < 1500; ++i) values.push_back(gen.Next());
  for (bool desc : {false, true}) {
    std::vector<std::string> enc;
    for (const Value& v : values) enc.push_back(EncodeKeyValue(v, desc));
    for (size_t i = 0; i < values.size(); ++i) {
      for (size_t j = i; j < values.size(); ++j) {
        int want = Sign(CompareValues(values[i], values[j]));
        if (desc) want = -want;
        ASSERT_EQ(ByteCompare(enc[i], enc[j]), want)
            << "desc=" << desc << " i=" << i << " j=" << j << " "
            << Describe(values[i], desc) << " vs " << Describe(values[j], desc);
      }
    }
  }
}

TEST(KeyCodecTest, DecodeRoundTrips) {
  RandomValues gen(777);
  for (int i = 0; i < 5000; ++i) {
    Value v = gen.Next();
    for (bool desc : {false, true}) {
      std::string enc = EncodeKeyValue(v, desc);
      std::string buf = enc + "tail";
      absl::string_view in(buf);
      absl::StatusOr<Value> got = DecodeKeyValue(&in, desc);
      ASSERT_TRUE(got.ok()) << got.status() << " " << Describe(v, desc);
      EXPECT_EQ(in, "tail");
      EXPECT_EQ(CompareValues(*got, v), 0) << Describe(v, desc);
      EXPECT_EQ(EncodeKeyValue(*got, desc), enc);
    }
  }
}

TEST(KeyCodecTest, CompoundKeysCompareFieldByField) {
  RandomValues gen(99);
  std::vector<std::pair<Value, Value>> keys;
  for (int i = 0; i < 300; ++i) keys.emplace_back(gen.Next(), gen.Next());
  std::vector<std::string> enc;
  for (const auto& k : keys) {
    std::string s;
    AppendKeyValue(k.first, false, &s);
    AppendKeyValue(k.second, true, &s);
    enc.push_back(s);
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = 0; j < keys.size(); ++j) {
      int want = Sign(CompareValues(keys[i].first, keys[j].first));
      if (want == 0)
        want = -Sign(CompareValues(keys[i].second, keys[j].second));
      ASSERT_EQ(ByteCompare(enc[i], enc[j]), want) << i << " " << j;
    }
  }
}

TEST(KeyCodecTest, NumbersOfDifferentTypesEncodeIdentically) {
  std::string five = EncodeKeyValue(Value::Int32(5), false);
  EXPECT_EQ(EncodeKeyValue(Value::Int64(5), false), five);
  EXPECT_EQ(EncodeKeyValue(Value::Double(5.0), false), five);
  EXPECT_EQ(EncodeKeyValue(Value::Double(-0.0), false),
            EncodeKeyValue(Value::Int32(0), false));
  // 2^53 + 1 is not a double: the int64 must stay above the double 2^53.
  EXPECT_GT(EncodeKeyValue(Value::Int64(9007199254740993), false),
            EncodeKeyValue(Value::Double(9007199254740992.0), false));
  // The int64 maximum sits just below the double 2^63.
  EXPECT_LT(
      EncodeKeyValue(Value::Int64(std::numeric_limits<int64_t>::max()), false),
      EncodeKeyValue(Value::Double(9223372036854775808.0), false));
  EXPECT_EQ(
      EncodeKeyValue(Value::Int64(std::numeric_limits<int64_t>::min()), false),
      EncodeKeyValue(Value::Double(-9223372036854775808.0), false));
}

TEST(KeyCodecTest, DecodeGivesCanonicalNumberTypes) {
  auto decode = [](const Value& v) {
    std::string enc = EncodeKeyValue(v, false);
    absl::string_view in(enc);
    return DecodeKeyValue(&in, false).value();
  };
  EXPECT_EQ(decode(Value::Double(5.0)).type(), ValueType::kInt32);
  EXPECT_EQ(decode(Value::Int64(1LL << 40)).type(), ValueType::kInt64);
  EXPECT_EQ(decode(Value::Double(2.5)).type(), ValueType::kDouble);
  EXPECT_EQ(decode(Value::Double(2.5)).double_value(), 2.5);
  EXPECT_EQ(decode(Value::Double(-2.5)).double_value(), -2.5);
  EXPECT_TRUE(
      std::isnan(decode(Value::Double(std::numeric_limits<double>::quiet_NaN()))
                     .double_value()));
  EXPECT_EQ(decode(Value::Double(1e300)).double_value(), 1e300);
}

TEST(KeyCodecTest, StringsWithZeroBytes) {
  std::string a = EncodeKeyValue(Value::String("a"), false);
  std::string a0 = EncodeKeyValue(Value::String(std::string("a\0", 2)), false);
  std::string a1 = EncodeKeyValue(Value::String("a\x01"), false);
  EXPECT_EQ(a, std::string("\x3C"
                           "a\x00\x01",
                           4));
  EXPECT_EQ(a0, std::string("\x3C"
                            "a\x00\xFF\x00\x01",
                            6));
  EXPECT_LT(a, a0);
  EXPECT_LT(a0, a1);
}

TEST(KeyCodecTest, DatesFormOneContiguousBracket) {
  const std::string start = KeyBracketStart(ValueType::kDate, false);
  const std::string end = KeyBracketEnd(ValueType::kDate, false);
  const std::string dstart = KeyBracketStart(ValueType::kDate, true);
  const std::string dend = KeyBracketEnd(ValueType::kDate, true);
  RandomValues gen(4242);
  for (int i = 0; i < 3000; ++i) {
    Value v = gen.Next();
    std::string asc = EncodeKeyValue(v, false);
    std::string desc = EncodeKeyValue(v, true);
    bool in_asc = asc >= start && asc < end;
    bool in_desc = desc >= dstart && desc < dend;
    EXPECT_EQ(in_asc, v.is_date()) << Describe(v, false);
    EXPECT_EQ(in_desc, v.is_date()) << Describe(v, true);
    // The same holds for each type's bracket.
    EXPECT_GE(asc, KeyBracketStart(v.type(), false));
    EXPECT_LT(asc, KeyBracketEnd(v.type(), false));
    EXPECT_GE(desc, KeyBracketStart(v.type(), true));
    EXPECT_LT(desc, KeyBracketEnd(v.type(), true));
  }
  // Negative dates (before 1970) sort below positive ones.
  EXPECT_LT(EncodeKeyValue(Value::Date(-1), false),
            EncodeKeyValue(Value::Date(0), false));
  EXPECT_EQ(KeyBracketStart(ValueType::kInt32, false),
            KeyBracketStart(ValueType::kDouble, false));
}

TEST(KeyCodecTest, EmptyArrayKeySortsBetweenMinKeyAndNull) {
  std::string undef;
  AppendEmptyArrayKey(false, &undef);
  EXPECT_LT(EncodeKeyValue(Value::MinKey(), false), undef);
  EXPECT_LT(undef, EncodeKeyValue(Value::Null(), false));
  std::string desc;
  AppendEmptyArrayKey(true, &desc);
  EXPECT_GT(EncodeKeyValue(Value::MinKey(), true), desc);
  EXPECT_GT(desc, EncodeKeyValue(Value::Null(), true));
  absl::string_view in(desc);
  absl::StatusOr<Value> v = DecodeKeyValue(&in, true);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->is_array());
  EXPECT_TRUE(in.empty());
}

TEST(KeyCodecTest, CorruptInputIsDataLoss) {
  for (std::string bad :
       {std::string(), std::string("\x01"),
        std::string("\x3C"
                    "ab",
                    3),
        std::string("\x20\x80\x00", 3),
        std::string("\x20\x80\0\0\0\0\0\0\0\x03", 10),
        std::string("\x46\x14", 2), std::string("\x50", 1),
        std::string("\x6E\x02", 2), std::string("\x3C\x00\x02", 3)}) {
    absl::string_view in(bad);
    absl::StatusOr<Value> v = DecodeKeyValue(&in, false);
    EXPECT_EQ(v.status().code(), absl::StatusCode::kDataLoss) << bad.size();
  }
}

TEST(KeyCodecTest, PrefixEnd) {
  EXPECT_EQ(KeyPrefixEnd("ab"), "ac");
  EXPECT_EQ(KeyPrefixEnd(std::string("a\xFF\xFF", 3)), "b");
  EXPECT_EQ(KeyPrefixEnd(std::string("\xFF", 1)), "");
  std::string date = EncodeKeyValue(Value::Date(1000), false);
  std::string entry = date + std::string("\xFF\xFF\x64", 3);
  EXPECT_LT(entry, KeyPrefixEnd(date));
  EXPECT_LE(KeyPrefixEnd(date), EncodeKeyValue(Value::Date(1001), false));
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

Value Dec(const char* s) {
  absl::StatusOr<Decimal128> d = Decimal128::FromString(s);
  EXPECT_TRUE(d.ok()) << s;
  return Value::Decimal(*d);
}

// MongoDB indexes 1, 1.0 and NumberDecimal("1.00") as one key
// (src/mongo/db/storage/key_string.cpp encodes numbers by value;
// jstests/core/index/index_decimal.js finds all three with one equality).
TEST(KeyCodecDecimalTest, EqualNumbersOfEveryTypeEncodeIdentically) {
  for (bool desc : {false, true}) {
    const std::string one = EncodeKeyValue(Value::Int32(1), desc);
    EXPECT_EQ(EncodeKeyValue(Value::Double(1.0), desc), one);
    EXPECT_EQ(EncodeKeyValue(Dec("1.00"), desc), one);
    EXPECT_EQ(EncodeKeyValue(Dec("1E0"), desc), one);
    EXPECT_EQ(EncodeKeyValue(Dec("0.5"), desc),
              EncodeKeyValue(Value::Double(0.5), desc));
    EXPECT_EQ(EncodeKeyValue(Dec("-0"), desc),
              EncodeKeyValue(Value::Double(0.0), desc));
    EXPECT_EQ(EncodeKeyValue(Dec("NaN"), desc),
              EncodeKeyValue(Value::Double(std::nan("")), desc));
    EXPECT_EQ(EncodeKeyValue(Dec("-Infinity"), desc),
              EncodeKeyValue(Value::Double(-INFINITY), desc));
    EXPECT_EQ(EncodeKeyValue(Dec("9223372036854775807"), desc),
              EncodeKeyValue(Value::Int64(INT64_MAX), desc));
    EXPECT_EQ(EncodeKeyValue(Dec("1E+300"), desc),
              EncodeKeyValue(Dec("1.000E+300"), desc));
    EXPECT_EQ(EncodeKeyValue(Dec("0.10"), desc),
              EncodeKeyValue(Dec("0.1000"), desc));
  }
}

// A strictly increasing sequence mixing the types: the encodings increase
// too (and decrease under descending).
TEST(KeyCodecDecimalTest, MixedSequenceKeepsItsOrder) {
  const std::vector<Value> seq = {
      Value::Double(std::nan("")),
      Value::Double(-INFINITY),
      Dec("-1E+6144"),
      Value::Double(-1.7976931348623157e308),
      Dec("-9223372036854775809"),
      Value::Double(-9223372036854775808.0),
      Dec("-9223372036854775807.5"),
      Value::Int64(-9223372036854775807),
      Dec("-5.0000000000000000000000000000001"),
      Value::Int32(-5),
      Dec("-0.9999999999999999999999999999999999"),
      Value::Double(-0.1),
      Dec("-0.1"),
      Dec("-1E-6176"),
      Value::Int32(0),
      Dec("1E-6176"),
      Value::Double(4.9e-324),
      Dec("0.1"),
      Value::Double(0.1),
      Dec("0.1000000000000000055511151231257828"),
      Dec("0.9999999999999999999999999999999999"),
      Value::Int32(1),
      Dec("1.000000000000000000000000000000001"),
      Value::Double(1.0000000000000002),
      Value::Int64(9007199254740993),
      Dec("9007199254740993.5"),
      Value::Int64(INT64_MAX),
      Dec("9223372036854775807.5"),
      Value::Double(9223372036854775808.0),
      Dec("9223372036854775808.5"),
      Value::Double(1.7976931348623157e308),
      Dec("1.797693134862315708145274237317044E+308"),
      Dec("1E+6144"),
      Value::Double(INFINITY),
  };
  for (bool desc : {false, true}) {
    for (size_t i = 0; i + 1 < seq.size(); ++i) {
      ASSERT_LT(CompareValues(seq[i], seq[i + 1]), 0) << i;
      const std::string a = EncodeKeyValue(seq[i], desc);
      const std::string b = EncodeKeyValue(seq[i + 1], desc);
      EXPECT_EQ(a.compare(b) < 0, !desc) << "desc=" << desc << " i=" << i;
    }
    for (const Value& v : seq) {
      const std::string enc = EncodeKeyValue(v, desc);
      absl::string_view in(enc);
      absl::StatusOr<Value> got = DecodeKeyValue(&in, desc);
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_TRUE(in.empty());
      EXPECT_EQ(CompareValues(*got, v), 0);
      // A decimal that no int or double equals decodes as a decimal.
      if (v.type() == ValueType::kDecimal) {
        bool inexact;
        v.decimal_value().ToDoubleFloor(&inexact);
        if (inexact) {
          EXPECT_EQ(got->type(), ValueType::kDecimal);
        }
      }
    }
  }
}

}  // namespace
}  // namespace ttldb
