#include "document/path.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

Value Doc(absl::string_view json) {
  absl::StatusOr<Value> v = ParseDocument(json);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : Value::MakeObject();
}

// The values CollectPathValues reaches, as relaxed JSON, joined by ' '.
std::string Collect(const Value& doc, absl::string_view path,
                    bool* traversed = nullptr) {
  std::vector<const Value*> out;
  CollectPathValues(doc, path, &out, traversed);
  std::string s;
  for (const Value* v : out) {
    if (!s.empty()) s += " ";
    s += ToJson(*v);
  }
  return s;
}

TEST(SplitPathTest, Splits) {
  EXPECT_EQ(SplitPath("a.b.c"),
            (std::vector<absl::string_view>{"a", "b", "c"}));
  EXPECT_EQ(SplitPath("a"), (std::vector<absl::string_view>{"a"}));
}

TEST(GetPathTest, ExactLookup) {
  Value d = Doc(R"({"a":{"b":{"c":1}},"x":[5,{"y":6}],"n":null})");
  ASSERT_NE(GetPath(d, "a.b.c"), nullptr);
  EXPECT_EQ(GetPath(d, "a.b.c")->int32_value(), 1);
  EXPECT_EQ(ToJson(*GetPath(d, "a.b")), R"({"c":1})");
  EXPECT_EQ(GetPath(d, "x.0")->int32_value(), 5);
  EXPECT_EQ(GetPath(d, "x.1.y")->int32_value(), 6);
  EXPECT_TRUE(GetPath(d, "n")->is_null());
  EXPECT_EQ(GetPath(d, "x.2"), nullptr);
  EXPECT_EQ(GetPath(d, "x.y"), nullptr);  // no traversal
  EXPECT_EQ(GetPath(d, "x.01"), nullptr);
  EXPECT_EQ(GetPath(d, "a.c"), nullptr);
  EXPECT_EQ(GetPath(d, "a.b.c.d"), nullptr);
  EXPECT_EQ(GetPath(d, "missing"), nullptr);
}

TEST(CollectPathValuesTest, MongoTraversal) {
  Value d = Doc(R"({"a":[{"b":1},{"b":[2,3]},{"c":4},7]})");
  bool traversed = false;
  EXPECT_EQ(Collect(d, "a.b", &traversed), "1 [2,3]");
  EXPECT_TRUE(traversed);
  traversed = false;
  EXPECT_EQ(Collect(d, "a", &traversed), R"([{"b":1},{"b":[2,3]},{"c":4},7])");
  EXPECT_FALSE(traversed);
  EXPECT_EQ(Collect(d, "a.c"), "4");
  EXPECT_EQ(Collect(d, "a.z"), "");
  EXPECT_EQ(Collect(d, "a.1.b"), "[2,3]");
  EXPECT_EQ(Collect(d, "a.3"), "7");
}

TEST(CollectPathValuesTest, NumericComponents) {
  EXPECT_EQ(Collect(Doc(R"({"a":[5,6]})"), "a.0"), "5");
  EXPECT_EQ(Collect(Doc(R"({"a":[5,6]})"), "a.2"), "");
  // A numeric component indexes the array and also names fields of its
  // documents.
  EXPECT_EQ(Collect(Doc(R"({"a":[{"0":"x"},{"0":"y"}]})"), "a.0"),
            R"({"0":"x"} "x" "y")");
  EXPECT_EQ(Collect(Doc(R"({"a":{"0":1}})"), "a.0"), "1");
}

TEST(CollectPathValuesTest, NestedArraysAndScalars) {
  Value d = Doc(R"({"a":[[{"b":1}]],"s":"str","o":{"b":[{"c":1},{"c":2}]}})");
  EXPECT_EQ(Collect(d, "a.b"), "");  // arrays in arrays are not traversed
  EXPECT_EQ(Collect(d, "a.0.0.b"), "1");
  EXPECT_EQ(Collect(d, "s.x"), "");
  EXPECT_EQ(Collect(d, "o.b.c"), "1 2");
}

}  // namespace
}  // namespace ttldb
