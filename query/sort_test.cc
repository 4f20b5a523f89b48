#include "query/sort.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/status.h"
#include "document/json.h"
#include "gtest/gtest.h"
#include "query/test_doc.h"

namespace ttldb {
namespace {

// Sorts the documents with `spec` and returns their "_id"s in order.
std::string SortIds(const std::string& spec, std::vector<std::string> docs) {
  auto s = SortSpec::Parse(Doc(spec));
  EXPECT_TRUE(s.ok()) << s.status();
  std::vector<Value> values;
  for (const auto& d : docs) values.push_back(Doc(d));
  std::stable_sort(
      values.begin(), values.end(),
      [&](const Value& a, const Value& b) { return s->Compare(a, b) < 0; });
  std::string out;
  for (const Value& v : values) {
    if (!out.empty()) out += ",";
    out += ToJson(*v.Get("_id"));
  }
  return out;
}

TEST(SortTest, Parse) {
  auto s = SortSpec::Parse(Doc(R"({"a": 1, "b.c": -1})"));
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->fields().size(), 2u);
  EXPECT_EQ(s->fields()[0].first, "a");
  EXPECT_EQ(s->fields()[0].second, 1);
  EXPECT_EQ(s->fields()[1].first, "b.c");
  EXPECT_EQ(s->fields()[1].second, -1);
  for (const char* bad : {R"({"a": 2})", R"({"a": "x"})", R"({"a": 0})"}) {
    auto e = SortSpec::Parse(Doc(bad));
    EXPECT_EQ(ErrorCode(e.status()), 15975) << bad;
    EXPECT_EQ(e.status().message(),
              "$sort key ordering must be 1 (for ascending) or -1 (for "
              "descending)");
  }
}

TEST(SortTest, ScalarsAndTypes) {
  const std::vector<std::string> docs = {
      R"({"_id": 1, "a": "x"})", R"({"_id": 2, "a": 3})",
      R"({"_id": 3})",           R"({"_id": 4, "a": null})",
      R"({"_id": 5, "a": 1.5})", R"({"_id": 6, "a": {"b": 1}})",
      R"({"_id": 7, "a": true})"};
  EXPECT_EQ(SortIds(R"({"a": 1})", docs), "3,4,5,2,1,6,7");
  EXPECT_EQ(SortIds(R"({"a": -1})", docs), "7,6,1,2,5,3,4");
}

TEST(SortTest, Arrays) {
  const std::vector<std::string> docs = {
      R"({"_id": 1, "a": [1, 10]})", R"({"_id": 2, "a": 5})",
      R"({"_id": 3, "a": [3, 4]})", R"({"_id": 4, "a": []})",
      R"({"_id": 5, "a": null})"};
  // Ascending by smallest element; the empty array below null.
  EXPECT_EQ(SortIds(R"({"a": 1})", docs), "4,5,1,3,2");
  // Descending by largest element.
  EXPECT_EQ(SortIds(R"({"a": -1})", docs), "1,2,3,5,4");
}

TEST(SortTest, DottedAndCompound) {
  const std::vector<std::string> docs = {
      R"({"_id": 1, "a": [{"b": 3}, {"b": 1}], "c": 1})",
      R"({"_id": 2, "a": {"b": 2}, "c": 1})",
      R"({"_id": 3, "a": {"b": 2}, "c": 0})"};
  EXPECT_EQ(SortIds(R"({"a.b": 1})", docs), "1,2,3");
  EXPECT_EQ(SortIds(R"({"a.b": -1})", docs), "1,2,3");
  EXPECT_EQ(SortIds(R"({"a.b": 1, "c": 1})", docs), "1,3,2");
  EXPECT_EQ(SortIds(R"({"c": -1, "a.b": -1})", docs), "1,2,3");
  EXPECT_EQ(SortIds("{}", docs), "1,2,3");
}

}  // namespace
}  // namespace ttldb
