// Collection::FindOneAndUpdate / FindOneAndReplace / FindOneAndDelete
// (MongoDB's findAndModify) through the public API, on both backends
// (backend_fixture.h). Expected answers from MongoDB's manual pages
// (reference/method/db.collection.findOneAndUpdate/, findOneAndReplace/,
// findOneAndDelete/) and jstests/core/query/find_and_modify/*.js. The
// embedded engine's own cases (hidden expired documents, the expiry
// listener, the sync-point races) stay in tests/find_and_modify_test.cc.
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/backends/backend_fixture.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

Value V(const char* json) { return *ParseDocument(json); }

std::string J(const absl::StatusOr<std::optional<Value>>& r) {
  if (!r.ok()) return absl::StrCat("error: ", r.status().ToString());
  if (!r->has_value()) return "null";
  return ToJson(**r);
}

class FindAndModifyTest : public BackendTest {
 protected:
  // The manual's grades collection (findOneAndUpdate, findOneAndDelete).
  Collection& Grades() {
    Collection& c = db_->collection("grades");
    for (
        const char* d :
        {R"({"_id": 6305, "name": "A. MacDyver", "assignment": 5, "points": 24})",
         R"({"_id": 6308, "name": "B. Batlock", "assignment": 3, "points": 22})",
         R"({"_id": 6312, "name": "M. Tagnum", "assignment": 5, "points": 30})",
         R"({"_id": 6319, "name": "R. Stiles", "assignment": 2, "points": 12})",
         R"({"_id": 6322, "name": "A. MacDyver", "assignment": 2, "points": 14})",
         R"({"_id": 6234, "name": "R. Stiles", "assignment": 1, "points": 10})"}) {
      EXPECT_TRUE(c.InsertOne(d).ok());
    }
    return c;
  }
  // The manual's scores collection (findOneAndReplace).
  Collection& Scores() {
    Collection& c = db_->collection("scores");
    for (const char* d :
         {R"({"_id": 1521, "team": "Fearful Mallards", "score": 25000})",
          R"({"_id": 2231, "team": "Tactful Mooses", "score": 23500})",
          R"({"_id": 4511, "team": "Aquatic Ponies", "score": 19250})",
          R"({"_id": 5331, "team": "Cuddly Zebras", "score": 15235})",
          R"({"_id": 3412, "team": "Garrulous Bears", "score": 22300})"}) {
      EXPECT_TRUE(c.InsertOne(d).ok());
    }
    return c;
  }
};

// findOneAndUpdate manual, "Sort And Update A Document" and "Project the
// Returned Document": the lowest-points MacDyver, returned before the
// update, then projected.
TEST_P(FindAndModifyTest, UpdateSortAndProjectManual) {
  Collection& c = Grades();
  FindOneAndModifyOptions o;
  o.sort = V(R"({"points": 1})");
  EXPECT_EQ(J(c.FindOneAndUpdate(R"({"name": "A. MacDyver"})",
                                 R"({"$inc": {"points": 5}})", o)),
            R"({"_id":6322,"name":"A. MacDyver","assignment":2,"points":14})");
  o.projection = V(R"({"assignment": 1, "points": 1})");
  EXPECT_EQ(J(c.FindOneAndUpdate(R"({"name": "A. MacDyver"})",
                                 R"({"$inc": {"points": 5}})", o)),
            R"({"_id":6322,"assignment":2,"points":19})");
  EXPECT_EQ(J(c.FindOne(R"({"_id": 6322})")),
            R"({"_id":6322,"name":"A. MacDyver","assignment":2,"points":24})");
}

// findOneAndUpdate manual, "Update Document with Upsert" with
// returnNewDocument: true: the inserted document.
TEST_P(FindAndModifyTest, UpdateUpsertReturnNewManual) {
  Collection& c = Grades();
  FindOneAndModifyOptions o;
  o.sort = V(R"({"points": 1})");
  o.upsert = true;
  o.return_new = true;
  auto r = c.FindOneAndUpdate(
      R"({"name": "A.B. Abracadabra"})",
      R"({"$set": {"name": "A.B. Abracadabra", "assignment": 5},
          "$inc": {"points": 5}})",
      o);
  ASSERT_TRUE(r.ok() && r->has_value()) << J(r);
  Value doc = **r;
  ASSERT_TRUE(doc.Get("_id") != nullptr &&
              doc.Get("_id")->type() == ValueType::kObjectId);
  doc.mutable_object_fields().erase(doc.mutable_object_fields().begin());
  EXPECT_EQ(ToJson(doc),
            R"({"name":"A.B. Abracadabra","assignment":5,"points":5})");
  EXPECT_EQ(*c.CountDocuments(), 7);
}

// jstests/core/query/find_and_modify/find_and_modify_upsert_non_existent.js
// (upsert into an empty collection, new: true); with returnDocument
// "before" an upsert returns null (findAndModify's value: null).
TEST_P(FindAndModifyTest, UpsertIntoMissingCollection) {
  Collection& c = db_->collection("t");
  FindOneAndModifyOptions o;
  o.upsert = true;
  o.return_new = true;
  o.projection = V(R"({"_id": 0})");
  EXPECT_EQ(J(c.FindOneAndUpdate(R"({"f": 1})", R"({"$set": {"f": 2}})", o)),
            R"({"f":2})");
  o.return_new = false;
  EXPECT_EQ(J(c.FindOneAndUpdate(R"({"g": 1})", R"({"$set": {"h": 2}})", o)),
            "null");
  EXPECT_EQ(*c.CountDocuments(), 2);
  EXPECT_EQ(*c.CountDocuments(R"({"g": 1, "h": 2})"), 1);
}

TEST_P(FindAndModifyTest, NoMatchWithoutUpsertIsNullAndWritesNothing) {
  Collection& c = Grades();
  EXPECT_EQ(
      J(c.FindOneAndUpdate(R"({"name": "nobody"})", R"({"$set": {"x": 1}})")),
      "null");
  EXPECT_EQ(J(c.FindOneAndDelete(R"({"name": "nobody"})")), "null");
  EXPECT_EQ(*c.CountDocuments(), 6);
  EXPECT_EQ(*c.CountDocuments(R"({"x": 1})"), 0);
}

// findOneAndReplace manual: "Replace A Document", "Sort and Replace A
// Document", "Project the Returned Document", "Replace Document with
// Upsert" (returnDocument: "after").
TEST_P(FindAndModifyTest, ReplaceManual) {
  Collection& c = Scores();
  const char* badgers = R"({"team": "Observant Badgers", "score": 20000})";
  EXPECT_EQ(J(c.FindOneAndReplace(R"({"score": {"$lt": 20000}})", badgers)),
            R"({"_id":4511,"team":"Aquatic Ponies","score":19250})");
  EXPECT_EQ(J(c.FindOne(R"({"_id": 4511})")),
            R"({"_id":4511,"team":"Observant Badgers","score":20000})");
  FindOneAndModifyOptions o;
  o.sort = V(R"({"score": 1})");
  o.projection = V(R"({"_id": 0, "team": 1})");
  EXPECT_EQ(J(c.FindOneAndReplace(
                R"({"score": {"$lt": 22250}})",
                R"({"team": "Therapeutic Hamsters", "score": 22250})", o)),
            R"({"team":"Cuddly Zebras"})");
  FindOneAndModifyOptions up;
  up.upsert = true;
  up.return_new = true;
  EXPECT_EQ(
      J(c.FindOneAndReplace(
          R"({"team": "Fortified Lobsters"})",
          R"({"_id": 6019, "team": "Fortified Lobsters", "score": 32000})",
          up)),
      R"({"_id":6019,"team":"Fortified Lobsters","score":32000})");
  // Operators are not a replacement.
  auto bad = c.FindOneAndReplace("{}", R"({"$set": {"a": 1}})");
  EXPECT_EQ(ErrorCode(bad.status()), kFailedToParse);
}

// findOneAndDelete manual: "Delete A Document", "Sort And Delete A
// Document", "Projecting the Deleted Document".
TEST_P(FindAndModifyTest, DeleteManual) {
  Collection& c = Grades();
  EXPECT_EQ(J(c.FindOneAndDelete(R"({"name": "M. Tagnum"})")),
            R"({"_id":6312,"name":"M. Tagnum","assignment":5,"points":30})");
  FindOneAndModifyOptions o;
  o.sort = V(R"({"points": 1})");
  o.projection = V(R"({"assignment": 1})");
  EXPECT_EQ(J(c.FindOneAndDelete(R"({"name": "A. MacDyver"})", o)),
            R"({"_id":6322,"assignment":2})");
  EXPECT_EQ(*c.CountDocuments(), 4);
  EXPECT_EQ(J(c.FindOne(R"({"_id": 6322})")), "null");
  EXPECT_TRUE(Valid(c));
}

// findAndModify's request validation (the command's messages,
// FailedToParse); nothing is deleted.
TEST_P(FindAndModifyTest, DeleteRefusesUpdateOptions) {
  Collection& c = Grades();
  FindOneAndModifyOptions o;
  o.return_new = true;
  auto r = c.FindOneAndDelete("{}", o);
  EXPECT_EQ(ErrorCode(r.status()), kFailedToParse);
  EXPECT_EQ(r.status().message(),
            "Cannot specify both new=true and remove=true; 'remove' always "
            "returns the deleted document");
  o = {};
  o.upsert = true;
  EXPECT_EQ(c.FindOneAndDelete("{}", o).status().message(),
            "Cannot specify both upsert=true and remove=true");
  o = {};
  o.array_filters.push_back(V(R"({"i": 1})"));
  EXPECT_EQ(c.FindOneAndDelete("{}", o).status().message(),
            "Cannot specify arrayFilters and remove=true");
  EXPECT_EQ(*c.CountDocuments(), 6);
}

// An update that changes _id: 66 ImmutableField, the document unchanged
// (jstests/core/write/update/update_replace_id.js... and find_and_modify
// shares the update driver's check).
TEST_P(FindAndModifyTest, ChangingIdFails66) {
  Collection& c = Grades();
  auto r = c.FindOneAndUpdate(R"({"_id": 6305})", R"({"$set": {"_id": 1}})");
  EXPECT_EQ(ErrorCode(r.status()), kImmutableField) << r.status();
  auto r2 = c.FindOneAndReplace(R"({"_id": 6305})", R"({"_id": 2, "a": 1})");
  EXPECT_EQ(ErrorCode(r2.status()), kImmutableField) << r2.status();
  EXPECT_EQ(J(c.FindOne(R"({"_id": 6305})")),
            R"({"_id":6305,"name":"A. MacDyver","assignment":5,"points":24})");
}

// Positional "$" and arrayFilters work as in updateOne.
TEST_P(FindAndModifyTest, PositionalAndArrayFilters) {
  Collection& c = db_->collection("a");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "g": [80, 95, 90]})").ok());
  FindOneAndModifyOptions o;
  o.return_new = true;
  EXPECT_EQ(J(c.FindOneAndUpdate(R"({"g": 95})", R"({"$set": {"g.$": 0}})", o)),
            R"({"_id":1,"g":[80,0,90]})");
  o.array_filters.push_back(V(R"({"e": {"$gte": 85}})"));
  EXPECT_EQ(J(c.FindOneAndUpdate("{}", R"({"$set": {"g.$[e]": 100}})", o)),
            R"({"_id":1,"g":[80,0,100]})");
}

// Bad sort or projection: an error, nothing written.
TEST_P(FindAndModifyTest, BadSortOrProjectionWritesNothing) {
  Collection& c = Grades();
  FindOneAndModifyOptions o;
  o.sort = V(R"({"points": 2})");
  EXPECT_FALSE(c.FindOneAndDelete("{}", o).ok());
  o = {};
  o.projection = V(R"({"a": 1, "b": 0})");
  EXPECT_FALSE(c.FindOneAndDelete("{}", o).ok());
  EXPECT_EQ(*c.CountDocuments(), 6);
}

INSTANTIATE_TEST_SUITE_P(Backends, FindAndModifyTest,
                         ::testing::Values(Backend::kEmbedded,
                                           Backend::kRemote),
                         BackendName);

}  // namespace
}  // namespace ttldb
