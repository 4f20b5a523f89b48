// Positional and array operators through the public API, on real LevelDB
// directories: the positional projection "a.$" (review T4), projection
// $slice and $elemMatch, and the positional update operators $, $[] and
// $[<identifier>] with arrayFilters. Each expectation cites the MongoDB
// file it is taken from.
#include <string>
#include <vector>

#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class PositionalTest : public DbTest {
 protected:
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

// exec/projection_executor_utils.cpp: the query matched the whole array,
// not an element, so there is no position (51246); the find command wraps
// executor errors.
TEST_F(PositionalTest, PositionalProjectionWithoutAPositionFails) {
  ASSERT_TRUE(c().InsertOne(R"({"_id": 1, "a": [1, 2]})").ok());
  EXPECT_EQ(Find(R"({"a": [1, 2]})", R"({"a.$": 1})"),
            "error 51246: Executor error during find command :: caused by "
            ":: positional operator '.$' couldn't find a matching element in "
            "the array");
  FindOptions sorted;
  sorted.projection = *ParseDocument(R"({"a.$": 1})");
  sorted.sort = *ParseDocument(R"({"_id": -1})");
  auto cursor = c().Find(R"({"a": [1, 2]})", sorted);
  absl::Status s =
      cursor.ok() ? (*cursor)->ToVector().status() : cursor.status();
  EXPECT_EQ(ErrorCode(s), 51246);
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

// The C++ API: UpdateOptions::array_filters, and "$" from the filter's
// match (jstests/core/write/update/update_arrayFilters.js, updatel.js).
TEST_F(PositionalTest, PositionalUpdates) {
  ASSERT_TRUE(c().InsertMany({R"({"_id": 1, "a": [{"b": 1, "n": 0},
                                 {"b": 2, "n": 0}], "g": [5, 7, 9]})",
                              R"({"_id": 2, "a": [{"b": 2, "n": 0}],
                                 "g": [1, 8]})"})
                  .ok());
  UpdateOptions none;
  auto r = c().UpdateOne(R"({"_id": 1, "a.b": 2})", R"({"$inc": {"a.$.n": 5}})",
                         none);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->modified_count, 1);
  UpdateOptions filters;
  filters.array_filters = {*ParseDocument(R"({"x": {"$gte": 7}})")};
  r = c().UpdateMany("{}", R"({"$set": {"g.$[x]": 0}})", filters);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->modified_count, 2);
  r = c().UpdateMany("{}", R"({"$inc": {"a.$[].n": 1}})", none);
  ASSERT_TRUE(r.ok()) << r.status();
  FindOptions all;
  auto cursor = c().Find("{}", all);
  ASSERT_TRUE(cursor.ok());
  auto docs = (*cursor)->ToVector();
  ASSERT_TRUE(docs.ok());
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ(ToJson((*docs)[0]),
            R"({"_id":1,"a":[{"b":1,"n":1},{"b":2,"n":6}],"g":[5,0,0]})");
  EXPECT_EQ(ToJson((*docs)[1]), R"({"_id":2,"a":[{"b":2,"n":1}],"g":[1,0]})");

  // Misuse is an error and changes nothing.
  r = c().UpdateOne(R"({"_id": 1})", R"({"$set": {"a.$.n": 0}})", none);
  EXPECT_EQ(Error(r.status()),
            "error 2: The positional operator did not find the match needed "
            "from the query.");
  r = c().UpdateOne("{}", R"({"$set": {"g.$[y]": 0}})", filters);
  EXPECT_EQ(Error(r.status()),
            "error 2: No array filter found for identifier 'y' in path "
            "'g.$[y]'");
  r = c().UpdateOne("{}", R"({"$set": {"g": 0}})", filters);
  EXPECT_EQ(ErrorCode(r.status()), kFailedToParse);
  UpdateOptions upsert;
  upsert.upsert = true;
  r = c().UpdateOne(R"({"_id": 3})", R"({"$set": {"a.$": 1}})", upsert);
  EXPECT_EQ(Error(r.status()),
            "error 2: The positional operator did not find the match needed "
            "from the query.");
  cursor = c().Find("{}", all);
  ASSERT_TRUE(cursor.ok());
  docs = (*cursor)->ToVector();
  ASSERT_TRUE(docs.ok());
  EXPECT_EQ(docs->size(), 2u);
  EXPECT_EQ(ToJson((*docs)[0]),
            R"({"_id":1,"a":[{"b":1,"n":1},{"b":2,"n":6}],"g":[5,0,0]})");
}

}  // namespace
}  // namespace ttldb
