#include "query/top_level_fields.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "query/test_doc.h"

namespace ttldb {
namespace {

// The names, sorted, or "all".
std::string Names(const TopLevelFields& f) {
  if (f.all()) return "all";
  std::vector<std::string> n = f.names();
  std::sort(n.begin(), n.end());
  std::string out;
  for (const std::string& s : n) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::string OfFilter(const std::string& json) {
  TopLevelFields f;
  f.AddFilter(Doc(json));
  return Names(f);
}

std::string OfExpression(const std::string& json) {
  TopLevelFields f;
  f.AddExpression(Doc(R"({"e": )" + json + "}").object_fields()[0].second);
  return Names(f);
}

TEST(TopLevelFieldsTest, Filters) {
  EXPECT_EQ(OfFilter("{}"), "");
  EXPECT_EQ(OfFilter(R"({"a.b.c": 1, "d": {"$elemMatch": {"x": 1}}})"), "a,d");
  EXPECT_EQ(OfFilter(R"({"$or": [{"a": 1}, {"$and": [{"b": 2}]}],
                         "$nor": [{"c": 3}], "$comment": "x"})"),
            "a,b,c");
  EXPECT_EQ(OfFilter(R"({"$expr": {"$gt": ["$a.x", "$$NOW"]}})"), "a");
  EXPECT_EQ(OfFilter(R"({"$where": "this.a > 1"})"), "all");
  EXPECT_EQ(OfFilter(R"({"$jsonSchema": {"required": ["a"]}})"), "all");
}

TEST(TopLevelFieldsTest, Expressions) {
  EXPECT_EQ(OfExpression(R"("$a.b")"), "a");
  EXPECT_EQ(OfExpression(R"("literal")"), "");
  EXPECT_EQ(OfExpression(R"({"$add": ["$x", {"$multiply": ["$y", 2]}]})"),
            "x,y");
  EXPECT_EQ(OfExpression(R"({"$literal": "$notAField"})"), "");
  EXPECT_EQ(OfExpression(R"("$$ROOT")"), "all");
  EXPECT_EQ(OfExpression(R"("$$CURRENT.k")"), "k");
  EXPECT_EQ(OfExpression(R"({"$let": {"vars": {"v": "$a"}, "in": "$$v.b"}})"),
            "a");
  EXPECT_EQ(OfExpression(R"({"$map": {"input": "$arr", "in": "$$this.x"}})"),
            "arr");
  EXPECT_EQ(OfExpression(R"({"$getField": "a"})"), "all");
  EXPECT_EQ(OfExpression(R"({"o": "$p", "q": ["$r"]})"), "p,r");
}

TEST(TopLevelFieldsTest, AccumulatorsAndKeyPatterns) {
  TopLevelFields f;
  f.AddAccumulator(Doc(R"({"$top": {"output": "$a", "sortBy": {"b.c": -1}}})"));
  f.AddAccumulator(Doc(R"({"$sum": 1})"));
  f.AddKeyPattern(Doc(R"({"d": 1, "$natural": 1})"));
  EXPECT_EQ(Names(f), "a,b,d");
  f.AddKeyPattern(Doc(R"({"s": {"$meta": "textScore"}})"));
  EXPECT_EQ(Names(f), "all");
  EXPECT_TRUE(f.Contains("anything"));
}

TEST(TopLevelFieldsTest, ContainsWithManyNames) {
  TopLevelFields f;
  for (int i = 0; i < 20; ++i) f.AddPath("f" + std::to_string(i) + ".x");
  EXPECT_TRUE(f.Contains("f0"));
  EXPECT_TRUE(f.Contains("f19"));
  EXPECT_FALSE(f.Contains("f20"));
  EXPECT_FALSE(f.Contains("f1.x"));
  EXPECT_EQ(f.names().size(), 20u);
}

}  // namespace
}  // namespace ttldb
