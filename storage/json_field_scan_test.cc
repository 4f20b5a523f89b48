#include "storage/json_field_scan.h"

#include "gtest/gtest.h"

namespace ttldb {
namespace {

FieldScan Scan(absl::string_view json, absl::string_view name,
               std::string* out) {
  absl::string_view v;
  FieldScan r = FindTopLevelField(json, name, &v);
  *out = std::string(v);
  return r;
}

TEST(JsonFieldScanTest, FindsTheValueTextOfATopLevelField) {
  const std::string doc =
      R"({"_id":"k1","accessTime":{"$date":{"$numberLong":"5"}},)"
      R"("s":"a,\"}]","arr":[1,{"x":"]"},[]],"n":-1.5e3,"t":true,"z":null})";
  std::string v;
  EXPECT_EQ(Scan(doc, "accessTime", &v), FieldScan::kFound);
  EXPECT_EQ(v, R"({"$date":{"$numberLong":"5"}})");
  EXPECT_EQ(Scan(doc, "_id", &v), FieldScan::kFound);
  EXPECT_EQ(v, R"("k1")");
  EXPECT_EQ(Scan(doc, "s", &v), FieldScan::kFound);
  EXPECT_EQ(v, R"("a,\"}]")");
  EXPECT_EQ(Scan(doc, "arr", &v), FieldScan::kFound);
  EXPECT_EQ(v, R"([1,{"x":"]"},[]])");
  EXPECT_EQ(Scan(doc, "n", &v), FieldScan::kFound);
  EXPECT_EQ(v, "-1.5e3");
  EXPECT_EQ(Scan(doc, "z", &v), FieldScan::kFound);
  EXPECT_EQ(v, "null");
  EXPECT_EQ(Scan(doc, "missing", &v), FieldScan::kAbsent);
  // Not a top-level field: "x" is nested.
  EXPECT_EQ(Scan(doc, "x", &v), FieldScan::kAbsent);
}

TEST(JsonFieldScanTest, TheFirstOfDuplicateKeys) {
  std::string v;
  EXPECT_EQ(Scan(R"({"a":1,"a":2})", "a", &v), FieldScan::kFound);
  EXPECT_EQ(v, "1");
}

TEST(JsonFieldScanTest, WhitespaceAndEmptyObject) {
  std::string v;
  EXPECT_EQ(Scan(" { \"a\" : [ 1 , 2 ] , \"b\" : 3 } ", "b", &v),
            FieldScan::kFound);
  EXPECT_EQ(v, "3");
  EXPECT_EQ(Scan("{}", "a", &v), FieldScan::kAbsent);
  EXPECT_EQ(Scan(" { } ", "a", &v), FieldScan::kAbsent);
}

TEST(JsonFieldScanTest, UnsureOfWhatItCannotReadWithCertainty) {
  std::string v;
  // A key with an escape: the caller parses.
  EXPECT_EQ(Scan(R"({"a\u0062":1,"ab":2})", "ab", &v), FieldScan::kUnsure);
  for (const char* bad :
       {"", "[]", "{", R"({"a")", R"({"a":)", R"({"a":1)", R"({"a":1,})",
        R"({"a":[1,2})", R"({"a":{"b":1]})", R"({"a":"x)", R"({"a":1} x)",
        R"({"a" 1})", R"({a:1})", R"({"a":1 "b":2})"}) {
    EXPECT_EQ(Scan(bad, "zz", &v), FieldScan::kUnsure) << bad;
  }
  // Deeper than the scan tracks (stored documents nest at most 100).
  std::string deep =
      R"({"a":)" + std::string(200, '[') + std::string(200, ']') + R"(,"b":1})";
  EXPECT_EQ(Scan(deep, "b", &v), FieldScan::kUnsure);
}

}  // namespace
}  // namespace ttldb
