#include "ttldb/json.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "document/compare.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace {

Value MustParse(absl::string_view json) {
  absl::StatusOr<Value> v = ParseValue(json);
  EXPECT_TRUE(v.ok()) << json << ": " << v.status();
  return v.ok() ? *v : Value();
}

std::string Relaxed(absl::string_view json) {
  return ToJson(MustParse(json), JsonFormat::kRelaxed);
}

uint64_t Bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof(b));
  return b;
}

// Exact structural identity: same types everywhere (CompareValues treats
// 1 and 1.0 as equal, so it is not enough) and bit-identical doubles.
void ExpectIdentical(const Value& a, const Value& b) {
  ASSERT_EQ(a.type(), b.type()) << ToJson(a) << " vs " << ToJson(b);
  switch (a.type()) {
    case ValueType::kDouble:
      if (std::isnan(a.double_value())) {
        EXPECT_TRUE(std::isnan(b.double_value()));
      } else {
        EXPECT_EQ(Bits(a.double_value()), Bits(b.double_value()))
            << a.double_value();
      }
      return;
    case ValueType::kDecimal:
      EXPECT_TRUE(a.decimal_value() == b.decimal_value())
          << a.decimal_value().ToString() << " vs "
          << b.decimal_value().ToString();
      return;
    case ValueType::kObject:
      ASSERT_EQ(a.object_fields().size(), b.object_fields().size());
      for (size_t i = 0; i < a.object_fields().size(); ++i) {
        EXPECT_EQ(a.object_fields()[i].first, b.object_fields()[i].first);
        ExpectIdentical(a.object_fields()[i].second,
                        b.object_fields()[i].second);
      }
      return;
    case ValueType::kArray:
      ASSERT_EQ(a.array_items().size(), b.array_items().size());
      for (size_t i = 0; i < a.array_items().size(); ++i) {
        ExpectIdentical(a.array_items()[i], b.array_items()[i]);
      }
      return;
    case ValueType::kBinary:
      EXPECT_EQ(a.binary_value().subtype, b.binary_value().subtype);
      EXPECT_EQ(a.binary_value().data, b.binary_value().data);
      return;
    case ValueType::kRegex:
      EXPECT_EQ(a.regex_value().pattern, b.regex_value().pattern);
      EXPECT_EQ(a.regex_value().options, b.regex_value().options);
      return;
    default:
      EXPECT_EQ(CompareValues(a, b), 0) << ToJson(a) << " vs " << ToJson(b);
  }
}

TEST(JsonParseTest, IntegerWidths) {
  EXPECT_EQ(MustParse("2147483647").type(), ValueType::kInt32);
  EXPECT_EQ(MustParse("-2147483648").type(), ValueType::kInt32);
  Value big = MustParse("2147483648");
  EXPECT_EQ(big.type(), ValueType::kInt64);
  EXPECT_EQ(big.int64_value(), 2147483648);
  EXPECT_EQ(MustParse("-2147483649").type(), ValueType::kInt64);
  EXPECT_EQ(MustParse("9223372036854775807").int64_value(),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(MustParse("-9223372036854775808").int64_value(),
            std::numeric_limits<int64_t>::min());
  Value u = MustParse("9223372036854775808");
  EXPECT_EQ(u.type(), ValueType::kDouble);
  EXPECT_EQ(u.double_value(), 9223372036854775808.0);
  Value huge = MustParse("123456789012345678901234567890");
  EXPECT_EQ(huge.type(), ValueType::kDouble);
  EXPECT_EQ(huge.double_value(), 1.2345678901234568e29);
  Value neg_huge = MustParse("[-123456789012345678901234567890]");
  EXPECT_EQ(neg_huge.array_items()[0].double_value(), -1.2345678901234568e29);
  EXPECT_EQ(MustParse("1.0").type(), ValueType::kDouble);
  EXPECT_EQ(MustParse("1e2").type(), ValueType::kDouble);
  EXPECT_EQ(MustParse("1e2").double_value(), 100.0);
}

TEST(JsonParseTest, KeepsFieldOrderAndScalars) {
  Value v = MustParse(R"({"z":1,"a":"s\n\u00e9","m":[true,false,null]})");
  ASSERT_TRUE(v.is_object());
  ASSERT_EQ(v.object_fields().size(), 3u);
  EXPECT_EQ(v.object_fields()[0].first, "z");
  EXPECT_EQ(v.object_fields()[1].first, "a");
  EXPECT_EQ(v.Get("a")->string_value(), "s\n\xc3\xa9");
  EXPECT_EQ(ToJson(v), R"({"z":1,"a":"s\n)"
                       "\xc3\xa9"
                       R"(","m":[true,false,null]})");
}

TEST(JsonParseTest, QueryOperatorsStayPlainObjects) {
  EXPECT_EQ(
      Relaxed(R"({"a":{"$gt":5,"$lt":{"$date":"2020-01-01T00:00:00Z"}}})"),
      R"({"a":{"$gt":5,"$lt":{"$date":"2020-01-01T00:00:00.000Z"}}})");
  EXPECT_EQ(Relaxed(R"({"$type":"date"})"), R"({"$type":"date"})");
  EXPECT_EQ(Relaxed(R"({"$regex":"a"})"), R"({"$regex":"a"})");
  EXPECT_EQ(Relaxed(R"({"$set":{"a":1}})"), R"({"$set":{"a":1}})");
  EXPECT_EQ(Relaxed(R"({})"), R"({})");
}

TEST(JsonWrapperTest, Date) {
  Value v = MustParse(R"({"$date":"2026-11-21T10:00:00Z"})");
  ASSERT_TRUE(v.is_date());
  EXPECT_EQ(v.date_millis(), 1795255200000);
  EXPECT_EQ(MustParse(R"({"$date":"2026-11-21T10:00:00.123Z"})").date_millis(),
            1795255200123);
  EXPECT_EQ(
      MustParse(R"({"$date":"2026-11-21T12:30:00.5+02:30"})").date_millis(),
      1795255200500);
  EXPECT_EQ(MustParse(R"({"$date":{"$numberLong":"-1"}})").date_millis(), -1);
  EXPECT_EQ(MustParse(R"({"$date":1795255200000})").date_millis(),
            1795255200000);
  EXPECT_EQ(MustParse(R"({"$date":-5})").date_millis(), -5);
}

TEST(JsonWrapperTest, Numbers) {
  Value l = MustParse(R"({"$numberLong":"5"})");
  EXPECT_EQ(l.type(), ValueType::kInt64);
  EXPECT_EQ(l.int64_value(), 5);
  Value i = MustParse(R"({"$numberInt":"-7"})");
  EXPECT_EQ(i.type(), ValueType::kInt32);
  EXPECT_EQ(i.int32_value(), -7);
  EXPECT_TRUE(
      std::isnan(MustParse(R"({"$numberDouble":"NaN"})").double_value()));
  EXPECT_EQ(MustParse(R"({"$numberDouble":"Infinity"})").double_value(),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(MustParse(R"({"$numberDouble":"-Infinity"})").double_value(),
            -std::numeric_limits<double>::infinity());
  Value d = MustParse(R"({"$numberDouble":"1"})");
  EXPECT_EQ(d.type(), ValueType::kDouble);
  EXPECT_EQ(d.double_value(), 1.0);
  EXPECT_EQ(MustParse(R"({"$numberDouble":"-1.5e-3"})").double_value(),
            -1.5e-3);
}

TEST(JsonWrapperTest, OidTimestampRegexKeys) {
  Value oid = MustParse(R"({"$oid":"507f1f77bcf86cd799439011"})");
  ASSERT_EQ(oid.type(), ValueType::kObjectId);
  EXPECT_EQ(oid.oid_value().ToHex(), "507f1f77bcf86cd799439011");

  Value ts = MustParse(R"({"$timestamp":{"t":4294967295,"i":3}})");
  ASSERT_EQ(ts.type(), ValueType::kTimestamp);
  EXPECT_EQ(ts.timestamp_value().t, 4294967295u);
  EXPECT_EQ(ts.timestamp_value().i, 3u);

  Value re =
      MustParse(R"({"$regularExpression":{"pattern":"^a.c$","options":"mi"}})");
  ASSERT_EQ(re.type(), ValueType::kRegex);
  EXPECT_EQ(re.regex_value().pattern, "^a.c$");
  EXPECT_EQ(re.regex_value().options, "im");  // sorted
  Value legacy = MustParse(R"({"$options":"x","$regex":"b+"})");
  ASSERT_EQ(legacy.type(), ValueType::kRegex);
  EXPECT_EQ(legacy.regex_value().pattern, "b+");
  EXPECT_EQ(legacy.regex_value().options, "x");

  EXPECT_EQ(MustParse(R"({"$minKey":1})").type(), ValueType::kMinKey);
  EXPECT_EQ(MustParse(R"({"$maxKey":1})").type(), ValueType::kMaxKey);
}

TEST(JsonWrapperTest, Binary) {
  Value b = MustParse(R"({"$binary":{"base64":"AAECAw==","subType":"80"}})");
  ASSERT_EQ(b.type(), ValueType::kBinary);
  EXPECT_EQ(b.binary_value().subtype, 0x80);
  EXPECT_EQ(b.binary_value().data, std::string("\x00\x01\x02\x03", 4));
  Value legacy = MustParse(R"({"$binary":"aGk=","$type":"4"})");
  ASSERT_EQ(legacy.type(), ValueType::kBinary);
  EXPECT_EQ(legacy.binary_value().subtype, 4);
  EXPECT_EQ(legacy.binary_value().data, "hi");
  Value legacy2 = MustParse(R"({"$type":"00","$binary":""})");
  ASSERT_EQ(legacy2.type(), ValueType::kBinary);
  EXPECT_EQ(legacy2.binary_value().data, "");
  EXPECT_EQ(ToJson(legacy), R"({"$binary":{"base64":"aGk=","subType":"04"}})");
}

TEST(JsonWriteTest, RelaxedExactStrings) {
  EXPECT_EQ(ToJson(Value::Double(1.0)), "1.0");
  EXPECT_EQ(ToJson(Value::Double(1.5)), "1.5");
  EXPECT_EQ(ToJson(Value::Double(-0.0)), "-0.0");
  EXPECT_EQ(ToJson(Value::Double(1.5e300)), "1.5e+300");
  EXPECT_EQ(ToJson(Value::Double(1e21)), "1e+21");
  EXPECT_EQ(ToJson(Value::Double(0.1)), "0.1");
  EXPECT_EQ(ToJson(Value::Double(5e-324)), "5e-324");
  EXPECT_EQ(ToJson(Value::Double(std::nan(""))), R"({"$numberDouble":"NaN"})");
  EXPECT_EQ(ToJson(Value::Double(-INFINITY)),
            R"({"$numberDouble":"-Infinity"})");
  EXPECT_EQ(ToJson(Value::Int32(-3)), "-3");
  EXPECT_EQ(ToJson(Value::Int64(std::numeric_limits<int64_t>::min())),
            "-9223372036854775808");
  EXPECT_EQ(ToJson(Value::Date(1795255200000)),
            R"({"$date":"2026-11-21T10:00:00.000Z"})");
  EXPECT_EQ(ToJson(Value::Date(-1)), R"({"$date":{"$numberLong":"-1"}})");
  EXPECT_EQ(ToJson(Value::Date(253402300799999)),
            R"({"$date":"9999-12-31T23:59:59.999Z"})");
  EXPECT_EQ(ToJson(Value::Date(253402300800000)),
            R"({"$date":{"$numberLong":"253402300800000"}})");
  EXPECT_EQ(
      ToJson(Value::String(std::string("q\"b\\c\x01\x1f\t\xe2\x82\xac", 11))),
      R"("q\"b\\c\u0001\u001f\t)"
      "\xe2\x82\xac\"");
  EXPECT_EQ(ToJson(Value::Ts({1, 2})), R"({"$timestamp":{"t":1,"i":2}})");
  EXPECT_EQ(ToJson(Value::Re({"a\"b", "i"})),
            R"({"$regularExpression":{"pattern":"a\"b","options":"i"}})");
  EXPECT_EQ(ToJson(Value::MinKey()), R"({"$minKey":1})");
  EXPECT_EQ(ToJson(Value::MaxKey()), R"({"$maxKey":1})");
  EXPECT_EQ(ToJson(Value::Null()), "null");
  EXPECT_EQ(ToJson(Value::MakeArray()), "[]");
}

TEST(JsonWriteTest, CanonicalAndStorageExactStrings) {
  Value v = MustParse(
      R"({"i":1,"l":{"$numberLong":"2"},"d":1.0,"t":{"$date":"1970-01-01T00:00:00.001Z"}})");
  EXPECT_EQ(
      ToJson(v, JsonFormat::kCanonical),
      R"({"i":{"$numberInt":"1"},"l":{"$numberLong":"2"},)"
      R"("d":{"$numberDouble":"1.0"},"t":{"$date":{"$numberLong":"1"}}})");
  EXPECT_EQ(ToJson(v, JsonFormat::kStorage),
            R"({"i":1,"l":{"$numberLong":"2"},"d":1.0,)"
            R"("t":{"$date":{"$numberLong":"1"}}})");
  EXPECT_EQ(
      ToJson(v, JsonFormat::kRelaxed),
      R"({"i":1,"l":2,"d":1.0,"t":{"$date":"1970-01-01T00:00:00.001Z"}})");
}

TEST(JsonRoundTripTest, EveryTypeInEveryFormat) {
  ObjectId oid;
  ASSERT_TRUE(ObjectId::FromHex("507f1f77bcf86cd799439011", &oid));
  Value::Array items = {
      Value::MinKey(),
      Value::MaxKey(),
      Value::Null(),
      Value::Bool(true),
      Value::Bool(false),
      Value::Int32(0),
      Value::Int32(std::numeric_limits<int32_t>::min()),
      Value::Int32(std::numeric_limits<int32_t>::max()),
      Value::Int64(0),
      Value::Int64(-1),
      Value::Int64(std::numeric_limits<int64_t>::min()),
      Value::Int64(std::numeric_limits<int64_t>::max()),
      Value::Double(0.0),
      Value::Double(-0.0),
      Value::Double(1.0),
      Value::Double(-2.0),
      Value::Double(0.1),
      Value::Double(1e308),
      Value::Double(std::numeric_limits<double>::max()),
      Value::Double(std::numeric_limits<double>::min()),
      Value::Double(std::numeric_limits<double>::denorm_min()),
      Value::Double(2.2250738585072009e-308),  // largest denormal
      Value::Double(9007199254740993.0),
      Value::Double(1.0 / 3),
      Value::Double(std::numeric_limits<double>::infinity()),
      Value::Double(-std::numeric_limits<double>::infinity()),
      Value::Double(std::numeric_limits<double>::quiet_NaN()),
      Value::Decimal(*Decimal128::FromString("1.50")),
      Value::Decimal(*Decimal128::FromString("-0")),
      Value::Decimal(*Decimal128::FromString("-0.000")),
      Value::Decimal(*Decimal128::FromString("NaN")),
      Value::Decimal(*Decimal128::FromString("-Infinity")),
      Value::Decimal(*Decimal128::FromString("1E+6144")),
      Value::Decimal(*Decimal128::FromString("-1E-6176")),
      Value::Decimal(
          *Decimal128::FromString("1234567890123456789012345678901234")),
      Value::String(""),
      Value::String(std::string("nul\0in\x7f\xc3\xa9\n\"\\", 13)),
      Value::MakeObject({{"a", Value::Int32(1)}, {"", Value::Null()}}),
      Value::MakeArray({Value::MakeArray(), Value::MakeObject()}),
      Value::Bin({0, std::string("\x00\xff", 2)}),
      Value::Bin({0x80, ""}),
      Value::Oid(oid),
      Value::Date(0),
      Value::Date(-62135596800000),  // 0001-01-01
      Value::Date(-1),               // before 1970
      Value::Date(2147483648000),    // after 2038
      Value::Date(253402300800000),  // 10000-01-01
      Value::Date(std::numeric_limits<int64_t>::min()),
      Value::Date(std::numeric_limits<int64_t>::max()),
      Value::Ts({0, 0}),
      Value::Ts({4294967295u, 4294967295u}),
      Value::Re({"^a\\.b$", "imsx"}),
      Value::Re({"", ""}),
  };
  Value doc = Value::MakeObject({{"items", Value::MakeArray(items)}});
  for (JsonFormat f :
       {JsonFormat::kStorage, JsonFormat::kCanonical, JsonFormat::kRelaxed}) {
    std::string json = ToJson(doc, f);
    absl::StatusOr<Value> back = ParseDocument(json);
    ASSERT_TRUE(back.ok()) << json << ": " << back.status();
    if (f == JsonFormat::kRelaxed) {
      // Relaxed loses int64-vs-int32 for small values, nothing else.
      EXPECT_EQ(CompareValues(doc, *back), 0) << json;
    } else {
      ExpectIdentical(doc, *back);
    }
    EXPECT_EQ(ToJson(*back, f), json);
  }
}

// Relaxed and canonical Extended JSON v2 both write {"$numberDecimal": s}
// with the specification's string (bson-corpus decimal128-1.json).
TEST(JsonWriteTest, DecimalIsAlwaysWrapped) {
  Value v = MustParse(R"({"$numberDecimal":"-100E-10"})");
  ASSERT_EQ(v.type(), ValueType::kDecimal);
  for (JsonFormat f : {JsonFormat::kRelaxed, JsonFormat::kCanonical,
                       JsonFormat::kExport, JsonFormat::kStorage}) {
    EXPECT_EQ(ToJson(v, f), R"({"$numberDecimal":"-1.00E-8"})");
  }
}

TEST(JsonRoundTripTest, StorageKeepsNumericTypes) {
  Value v = Value::MakeObject({{"a", Value::Int64(1)},
                               {"b", Value::Double(2)},
                               {"c", Value::Int32(3)}});
  std::string json = ToJson(v, JsonFormat::kStorage);
  EXPECT_EQ(json, R"({"a":{"$numberLong":"1"},"b":2.0,"c":3})");
  absl::StatusOr<Value> back = ParseDocument(json);
  ASSERT_TRUE(back.ok());
  ExpectIdentical(v, *back);
}

TEST(JsonParseTest, WhitespaceIsIgnored) {
  EXPECT_EQ(Relaxed(" { \"a\" : [ 1 , 2 ] }\n"), R"({"a":[1,2]})");
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

TEST(JsonExportTest, RelaxedButInt64KeepsItsType) {
  Value doc = Value::MakeObject(
      {Field("a", Value::Int64(5)), Field("b", Value::Int32(5)),
       Field("d", Value::Date(0)), Field("x", Value::Double(1.5))});
  EXPECT_EQ(
      ToJson(doc, JsonFormat::kExport),
      R"({"a":{"$numberLong":"5"},"b":5,"d":{"$date":"1970-01-01T00:00:00.000Z"},"x":1.5})");
  auto back = ParseDocument(ToJson(doc, JsonFormat::kExport));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->Get("a")->type(), ValueType::kInt64);
}

}  // namespace
}  // namespace ttldb
