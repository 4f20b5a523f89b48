#include "tools/shell/builtins.h"

#include "gtest/gtest.h"

namespace ttldb {
namespace shell {
namespace {

// 2013-07-22T14:00:00Z
constexpr int64_t kJul22 = 1374501600000;
constexpr int64_t kHour = 3600 * 1000;

int64_t JsDate(const char* text, absl::TimeZone zone = absl::UTCTimeZone()) {
  int64_t ms = 0;
  EXPECT_TRUE(ParseJsDate(text, zone, &ms)) << text;
  return ms;
}

BuiltinContext Ctx() {
  BuiltinContext ctx;
  ctx.now_millis = kJul22;
  ctx.new_object_id = [] {
    ObjectId id;
    id.bytes[11] = 7;
    return id;
  };
  ctx.random_bytes = [](size_t n) { return std::string(n, '\xff'); };
  return ctx;
}

Value Call(const char* name, bool is_new, std::vector<Value> args,
           BuiltinContext ctx = Ctx()) {
  absl::StatusOr<Value> v = CallBuiltin(name, is_new, args, ctx);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : Value::Null();
}

std::string Error(const char* name, std::vector<Value> args) {
  absl::StatusOr<Value> v = CallBuiltin(name, true, args, Ctx());
  return v.ok() ? "OK" : std::string(v.status().message());
}

TEST(ParseJsDateTest, TutorialForm) {
  EXPECT_EQ(JsDate("July 22, 2013 14:00:00"), kJul22);
  // Legacy strings are local time: at UTC-4, 14:00 is 18:00Z.
  EXPECT_EQ(JsDate("July 22, 2013 14:00:00", absl::FixedTimeZone(-4 * 3600)),
            kJul22 + 4 * kHour);
}

TEST(ParseJsDateTest, IsoForms) {
  const absl::TimeZone minus4 = absl::FixedTimeZone(-4 * 3600);
  EXPECT_EQ(JsDate("2013-07-22", minus4), kJul22 - 14 * kHour);  // UTC
  EXPECT_EQ(JsDate("2013-07-22T14:00:00", minus4), kJul22 + 4 * kHour);
  EXPECT_EQ(JsDate("2013-07-22T14:00:00Z", minus4), kJul22);
  EXPECT_EQ(JsDate("2013-07-22T14:00:00.123+02:00"), kJul22 - 2 * kHour + 123);
  EXPECT_EQ(JsDate("2013-07-22T14:00Z"), kJul22);
  EXPECT_EQ(JsDate("+002013-07-22T14:00:00Z"), kJul22);
}

TEST(ParseJsDateTest, LegacyForms) {
  EXPECT_EQ(JsDate("Jul 22 2013"), kJul22 - 14 * kHour);
  EXPECT_EQ(JsDate("July 22, 2013"), kJul22 - 14 * kHour);
  EXPECT_EQ(JsDate("22 July 2013 2:00 PM"), kJul22);
  EXPECT_EQ(JsDate("7/22/2013"), kJul22 - 14 * kHour);
  EXPECT_EQ(JsDate("7/22/2013 14:00:00"), kJul22);
  EXPECT_EQ(JsDate("Mon Jul 22 2013 16:00:00 GMT+0200 (CEST)"), kJul22);
  EXPECT_EQ(JsDate("Mon, 22 Jul 2013 14:00:00 GMT"), kJul22);
  EXPECT_EQ(JsDate("July 22, 2013 12:00:00 AM"), kJul22 - 14 * kHour);
}

TEST(ParseJsDateTest, Rejects) {
  int64_t ms = 0;
  EXPECT_FALSE(ParseJsDate("not a date", absl::UTCTimeZone(), &ms));
  EXPECT_FALSE(ParseJsDate("2013-02-30", absl::UTCTimeZone(), &ms));
  EXPECT_FALSE(ParseJsDate("2013-13-01", absl::UTCTimeZone(), &ms));
  EXPECT_FALSE(ParseJsDate("", absl::UTCTimeZone(), &ms));
  EXPECT_FALSE(ParseIsoDateUtc("July 22, 2013", &ms));
}

TEST(CallBuiltinTest, Dates) {
  EXPECT_EQ(Call("Date", true, {}).date_millis(), kJul22);
  EXPECT_EQ(Call("Date", true, {Value::Int64(kJul22)}).date_millis(), kJul22);
  EXPECT_EQ(Call("Date", true, {Value::Double(1.9)}).date_millis(), 1);
  EXPECT_EQ(Call("Date", true, {Value::String("July 22, 2013 14:00:00")})
                .date_millis(),
            kJul22);
  EXPECT_EQ(Call("Date", true,
                 {Value::Int32(2013), Value::Int32(6), Value::Int32(22),
                  Value::Int32(14), Value::Int32(0), Value::Int32(0)})
                .date_millis(),
            kJul22);
  // Month 12 rolls over into the next year, as in JavaScript.
  EXPECT_EQ(Call("Date", true,
                 {Value::Int32(2012), Value::Int32(18), Value::Int32(22),
                  Value::Int32(14)})
                .date_millis(),
            kJul22);
  EXPECT_EQ(Call("Date", false, {}).string_value(),
            "Mon Jul 22 2013 14:00:00 GMT+0000 (UTC)");
  EXPECT_EQ(Call("ISODate", false, {Value::String("2013-07-22T14:00:00")})
                .date_millis(),
            kJul22);
  EXPECT_EQ(Call("ISODate", true, {}).date_millis(), kJul22);
  EXPECT_EQ(Error("Date", {Value::String("garbage")}),
            "Invalid Date: cannot parse \"garbage\"");
  EXPECT_EQ(Error("ISODate", {Value::String("July 22, 2013")}),
            "Invalid ISODate: \"July 22, 2013\"");
}

TEST(CallBuiltinTest, Numbers) {
  Value l = Call("NumberLong", false, {Value::String("9007199254740993")});
  EXPECT_EQ(l.type(), ValueType::kInt64);
  EXPECT_EQ(l.int64_value(), 9007199254740993);
  EXPECT_EQ(Call("NumberLong", false, {Value::Int32(5)}).int64_value(), 5);
  Value i = Call("NumberInt", false, {Value::String("42")});
  EXPECT_EQ(i.type(), ValueType::kInt32);
  EXPECT_EQ(i.int32_value(), 42);
  EXPECT_EQ(Error("NumberLong", {Value::String("12x")}),
            "NumberLong: invalid number string \"12x\"");
  // mongosh: NumberDecimal(s) is Decimal128.fromString(`${s}`).
  Value d = Call("NumberDecimal", false, {Value::String("1.10")});
  ASSERT_EQ(d.type(), ValueType::kDecimal);
  EXPECT_EQ(d.decimal_value().ToString(), "1.10");
  EXPECT_EQ(Call("Decimal128", false, {Value::String("-1E+6144")})
                .decimal_value()
                .ToString(),
            "-1.000000000000000000000000000000000E+6144");
  EXPECT_EQ(Call("NumberDecimal", false, {Value::Double(0.1)})
                .decimal_value()
                .ToString(),
            "0.1");
  EXPECT_EQ(Call("NumberDecimal", false, {}).decimal_value().ToString(), "0");
  EXPECT_EQ(Error("NumberDecimal", {Value::String("1.1x")}),
            "BSONError: \"1.1x\" is not a valid Decimal128 string");
}

TEST(CallBuiltinTest, BsonTypes) {
  Value oid =
      Call("ObjectId", false, {Value::String("65a1b2c3d4e5f60718293a4b")});
  EXPECT_EQ(oid.oid_value().bytes[0], 0x65);
  EXPECT_EQ(oid.oid_value().bytes[11], 0x4b);
  EXPECT_EQ(Call("ObjectId", false, {}).oid_value().bytes[11], 7);
  EXPECT_EQ(Error("ObjectId", {Value::String("zz")}),
            "BSONError: input must be a 24 character hex string, 12 byte "
            "Uint8Array, or an integer");
  Value ts = Call("Timestamp", false, {Value::Int32(1), Value::Int32(2)});
  EXPECT_EQ(ts.timestamp_value().t, 1u);
  EXPECT_EQ(ts.timestamp_value().i, 2u);
  Value ts2 = Call(
      "Timestamp", true,
      {Value::MakeObject({{"t", Value::Int32(3)}, {"i", Value::Int32(4)}})});
  EXPECT_EQ(ts2.timestamp_value().t, 3u);
  EXPECT_EQ(Call("MinKey", false, {}).type(), ValueType::kMinKey);
  EXPECT_EQ(Call("MaxKey", false, {}).type(), ValueType::kMaxKey);
  Value bin = Call("BinData", false, {Value::Int32(0), Value::String("AQI=")});
  EXPECT_EQ(bin.binary_value().subtype, 0);
  EXPECT_EQ(bin.binary_value().data, std::string("\x01\x02", 2));
  Value uuid = Call("UUID", false,
                    {Value::String("01234567-89ab-cdef-0123-456789abcdef")});
  EXPECT_EQ(uuid.binary_value().subtype, 4);
  EXPECT_EQ(uuid.binary_value().data.size(), 16u);
  EXPECT_EQ(static_cast<uint8_t>(uuid.binary_value().data[1]), 0x23);
  Value fresh = Call("UUID", false, {});
  EXPECT_EQ(static_cast<uint8_t>(fresh.binary_value().data[6]), 0x4f);
  EXPECT_EQ(Error("UUID", {Value::String("123")}),
            "UUID: expected 32 hex digits, dashes allowed");
}

TEST(JsDateStringTest, Format) {
  EXPECT_EQ(JsDateString(0, absl::UTCTimeZone()),
            "Thu Jan 01 1970 00:00:00 GMT+0000 (UTC)");
}

}  // namespace
}  // namespace shell
}  // namespace ttldb
