#include "tools/shell/value_format.h"

#include <cmath>

#include "gtest/gtest.h"

namespace ttldb {
namespace shell {
namespace {

ObjectId Oid(const char* hex) {
  ObjectId id;
  for (int i = 0; i < 12; ++i) {
    id.bytes[i] = static_cast<uint8_t>(
        std::stoi(std::string(hex + 2 * i, 2), nullptr, 16));
  }
  return id;
}

Value Obj(Value::Object fields) { return Value::MakeObject(std::move(fields)); }

// 2026-11-21T10:00:00Z
constexpr int64_t kNov21 = 1795255200000;

TEST(FormatJsNumberTest, LikeJavaScript) {
  EXPECT_EQ(FormatJsNumber(1.0), "1");
  EXPECT_EQ(FormatJsNumber(1.5), "1.5");
  EXPECT_EQ(FormatJsNumber(0.1), "0.1");
  EXPECT_EQ(FormatJsNumber(-2.25), "-2.25");
  EXPECT_EQ(FormatJsNumber(123456789012.0), "123456789012");
  EXPECT_EQ(FormatJsNumber(1e20), "100000000000000000000");
  EXPECT_EQ(FormatJsNumber(1e21), "1e+21");
  EXPECT_EQ(FormatJsNumber(1.5e300), "1.5e+300");
  EXPECT_EQ(FormatJsNumber(0.000001), "0.000001");
  EXPECT_EQ(FormatJsNumber(1.5e-7), "1.5e-7");
  EXPECT_EQ(FormatJsNumber(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(FormatJsNumber(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(FormatJsNumber(std::nan("")), "NaN");
  EXPECT_EQ(FormatJsNumber(INFINITY), "Infinity");
  EXPECT_EQ(FormatJsNumber(-INFINITY), "-Infinity");
  EXPECT_EQ(FormatJsNumber(-0.0), "-0");
  EXPECT_EQ(FormatJsNumber(0.0), "0");
}

TEST(QuoteJsStringTest, PicksQuotesLikeUtilInspect) {
  EXPECT_EQ(QuoteJsString("abc"), "'abc'");
  EXPECT_EQ(QuoteJsString("it's"), "\"it's\"");
  EXPECT_EQ(QuoteJsString("it's \"x\""), "`it's \"x\"`");
  EXPECT_EQ(QuoteJsString("it's \"x\" `y`"), "'it\\'s \"x\" `y`'");
  EXPECT_EQ(QuoteJsString("a\nb\tc\\d"), "'a\\nb\\tc\\\\d'");
  EXPECT_EQ(QuoteJsString(std::string("\x01\x7f", 2)), "'\\x01\\x7F'");
  EXPECT_EQ(QuoteJsString("caf\xC3\xA9"), "'caf\xC3\xA9'");
}

TEST(FormatValueTest, Scalars) {
  EXPECT_EQ(FormatValue(Value::Int32(1)), "1");
  EXPECT_EQ(FormatValue(Value::Int64(123)), "Long('123')");
  EXPECT_EQ(FormatValue(Value::Double(1.0)), "1");
  EXPECT_EQ(FormatValue(Value::Double(1.5)), "1.5");
  EXPECT_EQ(FormatValue(Value::String("x")), "'x'");
  EXPECT_EQ(FormatValue(Value::Bool(true)), "true");
  EXPECT_EQ(FormatValue(Value::Null()), "null");
  EXPECT_EQ(FormatValue(Value::Date(kNov21)),
            "ISODate('2026-11-21T10:00:00.000Z')");
  EXPECT_EQ(FormatValue(Value::Oid(Oid("65a1b2c3d4e5f60718293a4b"))),
            "ObjectId('65a1b2c3d4e5f60718293a4b')");
  EXPECT_EQ(FormatValue(Value::Ts({5, 7})), "Timestamp({ t: 5, i: 7 })");
  EXPECT_EQ(FormatValue(Value::Re({"^a.c", "im"})), "/^a.c/im");
  EXPECT_EQ(FormatValue(Value::MinKey()), "MinKey()");
  EXPECT_EQ(FormatValue(Value::MaxKey()), "MaxKey()");
  EXPECT_EQ(FormatValue(Value::Bin({0, std::string("\x01\x02", 2)})),
            "Binary.createFromBase64('AQI=', 0)");
  EXPECT_EQ(FormatValue(Value::Bin(
                {4, std::string("\x01\x23\x45\x67\x89\xab\xcd\xef\x01\x23"
                                "\x45\x67\x89\xab\xcd\xef",
                                16)})),
            "UUID('01234567-89ab-cdef-0123-456789abcdef')");
}

TEST(FormatValueTest, Dates) {
  EXPECT_EQ(FormatIsoDateJs(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatIsoDateJs(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatIsoDateJs(253402300800000), "+010000-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatIsoDateJs(-62198755200000), "-000001-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatIsoDateJs(8640000000000001), "Invalid Date");
}

TEST(FormatValueTest, ShortDocumentsStayOnOneLine) {
  // As mongosh prints insertOne's reply: 81 > 80 columns, so it breaks.
  EXPECT_EQ(FormatValue(Obj(
                {{"acknowledged", Value::Bool(true)},
                 {"insertedId", Value::Oid(Oid("65a1b2c3d4e5f60718293a4b"))}})),
            "{\n  acknowledged: true,\n  insertedId: "
            "ObjectId('65a1b2c3d4e5f60718293a4b')\n}");
  EXPECT_EQ(FormatValue(Obj({{"a", Value::Int32(1)},
                             {"a.b", Value::Int32(2)},
                             {"$set", Value::Int32(3)},
                             {"_x9", Value::Int32(4)},
                             {"9a", Value::Int32(5)},
                             {"", Value::Int32(6)}})),
            "{ a: 1, 'a.b': 2, '$set': 3, _x9: 4, '9a': 5, '': 6 }");
  EXPECT_EQ(FormatValue(Obj({})), "{}");
  EXPECT_EQ(FormatValue(Value::MakeArray()), "[]");
  EXPECT_EQ(FormatValue(Value::MakeArray(
                {Value::Int32(1), Value::String("a"), Obj({})})),
            "[ 1, 'a', {} ]");
  EXPECT_EQ(FormatValue(Obj({{"a", Obj({{"b", Obj({{"c", Obj({})}})}})}})),
            "{ a: { b: { c: {} } } }");
}

TEST(FormatValueTest, DeepNestingBreaks) {
  EXPECT_EQ(
      FormatValue(Obj(
          {{"a", Obj({{"b", Obj({{"c", Obj({{"d", Value::Int32(1)}})}})}})}})),
      "{\n  a: { b: { c: { d: 1 } } }\n}");
}

TEST(FormatValueTest, LongDocumentsBreak) {
  Value doc = Obj({{"_id", Value::Oid(Oid("65a1b2c3d4e5f60718293a4b"))},
                   {"pageID", Value::Int32(100)},
                   {"accessTime", Value::Date(kNov21)}});
  EXPECT_EQ(FormatValue(doc),
            "{\n"
            "  _id: ObjectId('65a1b2c3d4e5f60718293a4b'),\n"
            "  pageID: 100,\n"
            "  accessTime: ISODate('2026-11-21T10:00:00.000Z')\n"
            "}");
  EXPECT_EQ(FormatValue(Value::MakeArray({doc})),
            "[\n"
            "  {\n"
            "    _id: ObjectId('65a1b2c3d4e5f60718293a4b'),\n"
            "    pageID: 100,\n"
            "    accessTime: ISODate('2026-11-21T10:00:00.000Z')\n"
            "  }\n"
            "]");
}

TEST(FormatValueTest, ArraysOfManyShortItemsAreGrouped) {
  Value::Array seven, ten;
  for (int i = 1; i <= 7; ++i) seven.push_back(Value::Int32(i));
  for (int i = 1; i <= 10; ++i) ten.push_back(Value::Int32(i));
  EXPECT_EQ(FormatValue(Value::MakeArray(seven)),
            "[\n  1, 2, 3, 4,\n  5, 6, 7\n]");
  EXPECT_EQ(FormatValue(Value::MakeArray(ten)),
            "[\n  1, 2, 3, 4,  5,\n  6, 7, 8, 9, 10\n]");
  Value::Array six;
  for (int i = 1; i <= 6; ++i) six.push_back(Value::Int32(i));
  EXPECT_EQ(FormatValue(Value::MakeArray(six)), "[ 1, 2, 3, 4, 5, 6 ]");
}

TEST(FormatValueTest, DepthAndLengthLimits) {
  Value v = Value::Int32(1);
  for (int i = 0; i < 9; ++i) v = Obj({{"a", v}});
  FormatOptions shallow;
  shallow.depth = 1;
  EXPECT_EQ(
      FormatValue(Obj({{"x", Obj({{"y", Obj({{"z", Value::Int32(1)}})}})}}),
                  shallow),
      "{ x: { y: [Object] } }");
  Value::Array many(102, Value::Int32(0));
  FormatOptions opts;
  std::string s = FormatValue(Value::MakeArray(many), opts);
  EXPECT_NE(s.find("... 2 more items"), std::string::npos) << s;
}

TEST(FormatJsonTest, RelaxedExtendedJson) {
  EXPECT_EQ(
      FormatJson(Obj({{"a", Value::Int32(1)}, {"d", Value::Date(kNov21)}})),
      R"({"a":1,"d":{"$date":"2026-11-21T10:00:00.000Z"}})");
}

TEST(Base64Test, Encode) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
}

}  // namespace
}  // namespace shell
}  // namespace ttldb
