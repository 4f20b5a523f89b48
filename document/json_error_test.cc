#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

std::string ErrorOf(absl::string_view json, const ParseOptions& options = {}) {
  absl::StatusOr<Value> v = ParseDocument(json, options);
  if (v.ok()) return "OK";
  EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(v.status().message());
}

std::string Nested(int depth) {
  // depth objects: {"a":{"a":...{}...}}
  std::string s;
  for (int i = 1; i < depth; ++i) s += "{\"a\":";
  s += "{}";
  for (int i = 1; i < depth; ++i) s += "}";
  return s;
}

TEST(JsonErrorTest, MalformedAndTruncatedNameTheOffset) {
  EXPECT_EQ(ErrorOf("{\"a\":1,}"),
            "invalid JSON at byte offset 7: expected a string key");
  EXPECT_EQ(ErrorOf("{\"a\":"),
            "invalid JSON at byte offset 5: expected a value, found the end "
            "of the input");
  EXPECT_EQ(ErrorOf("{\"a\":\"abc"),
            "invalid JSON at byte offset 5: unterminated string");
  EXPECT_EQ(ErrorOf("{\"a\":tru}"),
            "invalid JSON at byte offset 5: expected a value");
  EXPECT_EQ(ErrorOf("{\"a\":1 \"b\":2}"),
            "invalid JSON at byte offset 7: expected ',' or '}'");
  EXPECT_EQ(ErrorOf("{\"a\":[1 2]}"),
            "invalid JSON at byte offset 8: expected ',' or ']'");
  EXPECT_EQ(ErrorOf("{\"a\" 1}"),
            "invalid JSON at byte offset 5: expected ':'");
  EXPECT_EQ(ErrorOf("{\"a\":01}"),
            "invalid JSON at byte offset 6: expected ',' or '}'");
  EXPECT_EQ(ErrorOf("{\"a\":-}"),
            "invalid JSON at byte offset 6: invalid number");
  EXPECT_EQ(ErrorOf("{\"a\":\"\\q\"}"),
            "invalid JSON at byte offset 6: invalid escape sequence");
  EXPECT_EQ(ErrorOf("{\"a\":\"\x01\"}"),
            "invalid JSON at byte offset 6: control character in a string "
            "(escape it)");
  EXPECT_EQ(ErrorOf("{} {}"),
            "invalid JSON at byte offset 3: unexpected content after the JSON "
            "value");
  EXPECT_EQ(ErrorOf("{\"a\":1e400}"),
            "invalid JSON: a number is out of the range of a double");
  EXPECT_EQ(ErrorOf(""), "invalid JSON: the input is empty");
}

TEST(JsonErrorTest, InvalidUtf8NamesTheOffset) {
  EXPECT_EQ(ErrorOf("{\"ab\":\"\xff\"}"), "invalid UTF-8 at byte offset 7");
  EXPECT_EQ(ErrorOf("{\"\xc3\xa9\":\"\xc3\"}"),
            "invalid UTF-8 at byte offset 7");
  // Overlong encoding of '/' and a UTF-16 surrogate.
  EXPECT_EQ(ErrorOf("{\"a\":\"\xc0\xaf\"}"), "invalid UTF-8 at byte offset 6");
  EXPECT_EQ(ErrorOf("{\"a\":\"\xed\xa0\x80\"}"),
            "invalid UTF-8 at byte offset 6");
}

TEST(JsonErrorTest, NestingDepth) {
  EXPECT_EQ(ErrorOf(Nested(100)), "OK");
  std::string msg = ErrorOf(Nested(101));
  EXPECT_EQ(msg.rfind("document nesting is deeper than the maximum of 100", 0),
            0u)
      << msg;
  // Arrays count too; the top-level object is depth 1.
  std::string arrays =
      "{\"a\":" + std::string(99, '[') + std::string(99, ']') + "}";
  EXPECT_EQ(ErrorOf(arrays), "OK");
  arrays = "{\"a\":" + std::string(100, '[') + std::string(100, ']') + "}";
  EXPECT_NE(ErrorOf(arrays).find("deeper than the maximum of 100"),
            std::string::npos);
  // Wrappers become scalars and do not count.
  std::string with_date = Nested(99);
  with_date.replace(with_date.find("{}"), 2,
                    "{\"d\":{\"$date\":{\"$numberLong\":\"1\"}}}");
  EXPECT_EQ(ErrorOf(with_date), "OK");
  // Far beyond simdjson's own limit.
  EXPECT_NE(ErrorOf(Nested(5000)).find("deeper than the maximum of 100"),
            std::string::npos);
  ParseOptions shallow;
  shallow.max_depth = 2;
  EXPECT_EQ(ErrorOf(R"({"a":{"b":1}})", shallow), "OK");
  EXPECT_EQ(
      ErrorOf(R"({"a":{"b":[1]}})", shallow),
      "document nesting is deeper than the maximum of 2 (at field 'a.b')");
}

TEST(JsonErrorTest, SizeLimit) {
  ParseOptions small;
  small.max_bytes = 10;
  EXPECT_EQ(ErrorOf(R"({"a":"12"})", small), "OK");  // exactly 10 bytes
  EXPECT_EQ(ErrorOf(R"({"a":"123"})", small),
            "document is 11 bytes, over the maximum of 10 bytes");
}

TEST(JsonErrorTest, TopLevelMustBeAnObject) {
  EXPECT_EQ(ErrorOf("[1,2]"), "a document must be a JSON object, not array");
  EXPECT_EQ(ErrorOf("5"), "a document must be a JSON object, not int");
  EXPECT_EQ(ErrorOf(R"({"$date":1})"),
            "a document must be a JSON object, not date");
  EXPECT_TRUE(ParseValue("[1,2]").ok());
  EXPECT_TRUE(ParseValue("\"s\"").ok());
}

// A $numberDecimal string must be exact in the Decimal128 grammar (the BSON
// Decimal128 specification; the shell's Decimal128.fromString refuses the
// same strings).
TEST(JsonErrorTest, BadNumberDecimalNamesTheField) {
  EXPECT_EQ(ErrorOf(R"({"x":{"y":{"$numberDecimal":"1.5x"}}})"),
            "invalid $numberDecimal: \"1.5x\" is not a valid Decimal128 "
            "string (at field 'x.y')");
  EXPECT_EQ(
      ErrorOf(R"({"x":[0,{"$numberDecimal":"1E-6177"}]})"),
      "invalid $numberDecimal: \"1E-6177\" is not a valid Decimal128 string: "
      "it cannot be represented exactly (at most 34 significant digits, "
      "exponent -6176..6111) (at field 'x.1')");
  EXPECT_EQ(ErrorOf(R"({"x":{"$numberDecimal":1.5}})"),
            "invalid $numberDecimal: expected a string of a decimal number "
            "(at field 'x')");
}

TEST(JsonErrorTest, BadWrappersNameTheField) {
  EXPECT_EQ(
      ErrorOf(R"({"a":{"b":{"$oid":5}}})"),
      "invalid $oid: expected a string of 24 hex digits (at field 'a.b')");
  EXPECT_EQ(ErrorOf(R"({"a":{"$oid":"xyz"}})"),
            "invalid $oid: expected a string of 24 hex digits (at field 'a')");
  EXPECT_EQ(ErrorOf(R"({"d":{"$date":"garbage"}})"),
            "invalid $date: 'garbage' is not an ISO-8601 date such as "
            "2026-11-21T10:00:00Z (at field 'd')");
  const char* bad[] = {
      R"({"d":{"$date":"2026-02-30T00:00:00Z"}})",
      R"({"d":{"$date":"2026-01-01T00:00:00"}})",
      R"({"d":{"$date":"2026-01-01T24:00:00Z"}})",
      R"({"d":{"$date":{"$numberLong":5}}})",
      R"({"d":{"$date":1.5}})",
      R"({"d":{"$date":true}})",
      R"({"d":{"$numberLong":"1.0"}})",
      R"({"d":{"$numberLong":"9223372036854775808"}})",
      R"({"d":{"$numberLong":5}})",
      R"({"d":{"$numberInt":"2147483648"}})",
      R"({"d":{"$numberInt":" 1"}})",
      R"({"d":{"$numberDouble":"nan"}})",
      R"({"d":{"$numberDouble":"1x"}})",
      R"({"d":{"$numberDouble":1.0}})",
      R"({"d":{"$timestamp":{"t":1}}})",
      R"({"d":{"$timestamp":{"t":-1,"i":0}}})",
      R"({"d":{"$timestamp":{"t":4294967296,"i":0}}})",
      R"({"d":{"$regularExpression":{"pattern":"a"}}})",
      R"({"d":{"$regularExpression":"a"}})",
      R"({"d":{"$minKey":0}})",
      R"({"d":{"$maxKey":"1"}})",
      R"({"d":{"$binary":{"base64":"!!","subType":"00"}}})",
      R"({"d":{"$binary":{"base64":"","subType":"100"}}})",
      R"({"d":{"$binary":{"base64":""}}})",
      R"({"d":{"$binary":"AA==","$type":"zz"}})",
      R"({"d":{"$oid":"507f1f77bcf86cd799439011","x":1}})",
  };
  for (const char* json : bad) {
    std::string msg = ErrorOf(json);
    EXPECT_NE(msg.find("(at field 'd')"), std::string::npos)
        << json << " -> " << msg;
  }
  EXPECT_EQ(ErrorOf(R"({"d":{"$oid":"507f1f77bcf86cd799439011","x":1}})"),
            "extended JSON $oid must be the only field of its object "
            "(at field 'd')");
}

TEST(JsonErrorTest, TopLevelWrapperErrorSaysTopLevel) {
  absl::StatusOr<Value> v = ParseValue(R"({"$oid":1})");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(),
            "invalid $oid: expected a string of 24 hex digits (at top level)");
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

// Every proper prefix of a document is rejected with a located error; none
// crashes (run under ASan in CI).
TEST(JsonErrorTest, EveryTruncationIsRejected) {
  const std::string doc =
      R"({"a":[1,-2.5e3,"s\u00e9\n",{"$date":"2026-11-21T10:00:00Z"}],)"
      R"("b":{"$oid":"507f1f77bcf86cd799439011"},"c":true,"d":null})";
  ASSERT_TRUE(ParseDocument(doc).ok());
  for (size_t n = 0; n < doc.size(); ++n) {
    absl::StatusOr<Value> v = ParseDocument(doc.substr(0, n));
    ASSERT_FALSE(v.ok()) << n;
    EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

// Each thread has its own parser; the first input a thread sees may be
// empty or whitespace.
TEST(JsonErrorTest, EmptyInputOnAFreshThread) {
  std::string a, b;
  std::thread t([&] {
    a = std::string(ParseDocument("").status().message());
    b = std::string(ParseDocument("  ").status().message());
  });
  t.join();
  EXPECT_EQ(a, "invalid JSON: the input is empty");
  EXPECT_EQ(b, "invalid JSON: the input is empty");
}

}  // namespace
}  // namespace ttldb
