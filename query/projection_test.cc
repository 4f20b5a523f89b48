#include "query/projection.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/json.h"
#include "gtest/gtest.h"
#include "query/test_doc.h"

namespace ttldb {
namespace {

std::string Project(const std::string& spec, const std::string& doc) {
  auto p = Projection::Parse(Doc(spec));
  if (!p.ok()) {
    return absl::StrCat("error ", ErrorCode(p.status()), ": ",
                        p.status().message());
  }
  return ToJson(p->Apply(Doc(doc)));
}

const char kDoc[] =
    R"({"_id": 1, "a": 1, "b": {"c": 2, "d": 3}, "e": [{"c": 4, "d": 5}, 6, [{"c": 7}]]})";

TEST(ProjectionTest, Inclusion) {
  EXPECT_EQ(Project(R"({"a": 1})", kDoc), R"({"_id":1,"a":1})");
  EXPECT_EQ(Project(R"({"a": true, "_id": 0})", kDoc), R"({"a":1})");
  EXPECT_EQ(Project(R"({"b.c": 1})", kDoc), R"({"_id":1,"b":{"c":2}})");
  EXPECT_EQ(Project(R"({"e.c": 1})", kDoc),
            R"({"_id":1,"e":[{"c":4},[{"c":7}]]})");
  EXPECT_EQ(Project(R"({"b.x": 1})", kDoc), R"({"_id":1,"b":{}})");
  EXPECT_EQ(Project(R"({"a.x": 1})", kDoc), R"({"_id":1})");
  EXPECT_EQ(Project(R"({"missing": 1})", kDoc), R"({"_id":1})");
  // Document order, not projection order.
  EXPECT_EQ(Project(R"({"b": 1, "a": 1})", kDoc),
            R"({"_id":1,"a":1,"b":{"c":2,"d":3}})");
  EXPECT_EQ(Project(R"({"_id": 1})", kDoc), R"({"_id":1})");
}

TEST(ProjectionTest, Exclusion) {
  EXPECT_EQ(Project(R"({"a": 0})", kDoc),
            R"({"_id":1,"b":{"c":2,"d":3},"e":[{"c":4,"d":5},6,[{"c":7}]]})");
  EXPECT_EQ(Project(R"({"b.c": 0, "e": false})", kDoc),
            R"({"_id":1,"a":1,"b":{"d":3}})");
  EXPECT_EQ(Project(R"({"e.c": 0, "b": 0, "a": 0})", kDoc),
            R"({"_id":1,"e":[{"d":5},6,[{}]]})");
  EXPECT_EQ(Project(R"({"_id": 0})", R"({"_id": 1, "a": 1})"), R"({"a":1})");
  EXPECT_EQ(Project(R"({"_id": 0, "a": 0})", R"({"_id": 1, "a": 1, "b": 2})"),
            R"({"b":2})");
  EXPECT_EQ(Project("{}", kDoc), ToJson(Doc(kDoc)));
}

TEST(ProjectionTest, Errors) {
  EXPECT_EQ(Project(R"({"a": 1, "b": 0})", kDoc),
            "error 31254: Cannot do exclusion on field b in inclusion "
            "projection");
  EXPECT_EQ(Project(R"({"a": 0, "b": 1})", kDoc),
            "error 31253: Cannot do inclusion on field b in exclusion "
            "projection");
  EXPECT_EQ(Project(R"({"a": 1, "a.b": 1})", kDoc),
            "error 31250: Path collision at a.b remaining portion b");
  EXPECT_EQ(Project(R"({"a.b": 1, "a": 1})", kDoc),
            "error 31250: Path collision at a");
  EXPECT_EQ(
      ErrorCode(Projection::Parse(Doc(R"({"a": {"$slice": 1}})")).status()),
      kBadValue);
}

}  // namespace
}  // namespace ttldb
