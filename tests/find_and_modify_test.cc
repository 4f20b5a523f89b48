// Collection::FindOneAndUpdate / FindOneAndReplace / FindOneAndDelete
// (MongoDB's findAndModify) through the public API, on real databases.
// Expected answers from MongoDB's manual pages
// (reference/method/db.collection.findOneAndUpdate/, findOneAndReplace/,
// findOneAndDelete/) and jstests/core/query/find_and_modify/*.js.
#include <atomic>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "document/json.h"
#include "engine/database.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"

namespace ttldb {
namespace {

Value V(const char* json) { return *ParseDocument(json); }

std::string J(const absl::StatusOr<std::optional<Value>>& r) {
  if (!r.ok()) return absl::StrCat("error: ", r.status().ToString());
  if (!r->has_value()) return "null";
  return ToJson(**r);
}

class FindAndModifyTest : public DbTest {
 protected:
  void TearDown() override { SyncPoint::ClearAll(); }

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
TEST_F(FindAndModifyTest, UpdateSortAndProjectManual) {
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
TEST_F(FindAndModifyTest, UpdateUpsertReturnNewManual) {
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
TEST_F(FindAndModifyTest, UpsertIntoMissingCollection) {
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

TEST_F(FindAndModifyTest, NoMatchWithoutUpsertIsNullAndWritesNothing) {
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
TEST_F(FindAndModifyTest, ReplaceManual) {
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
TEST_F(FindAndModifyTest, DeleteManual) {
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
TEST_F(FindAndModifyTest, DeleteRefusesUpdateOptions) {
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
TEST_F(FindAndModifyTest, ChangingIdFails66) {
  Collection& c = Grades();
  auto r = c.FindOneAndUpdate(R"({"_id": 6305})", R"({"$set": {"_id": 1}})");
  EXPECT_EQ(ErrorCode(r.status()), kImmutableField) << r.status();
  auto r2 = c.FindOneAndReplace(R"({"_id": 6305})", R"({"_id": 2, "a": 1})");
  EXPECT_EQ(ErrorCode(r2.status()), kImmutableField) << r2.status();
  EXPECT_EQ(J(c.FindOne(R"({"_id": 6305})")),
            R"({"_id":6305,"name":"A. MacDyver","assignment":5,"points":24})");
}

// Positional "$" and arrayFilters work as in updateOne.
TEST_F(FindAndModifyTest, PositionalAndArrayFilters) {
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
TEST_F(FindAndModifyTest, BadSortOrProjectionWritesNothing) {
  Collection& c = Grades();
  FindOneAndModifyOptions o;
  o.sort = V(R"({"points": 2})");
  EXPECT_FALSE(c.FindOneAndDelete("{}", o).ok());
  o = {};
  o.projection = V(R"({"a": 1, "b": 0})");
  EXPECT_FALSE(c.FindOneAndDelete("{}", o).ok());
  EXPECT_EQ(*c.CountDocuments(), 6);
}

// With hide_expired (the default), an expired document does not match,
// and an upsert on its _id replaces it (hidden means absent).
TEST_F(FindAndModifyTest, ExpiredDocumentsDoNotMatch) {
  Collection& c = db_->collection("sessions");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 10})").ok());
  ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": 1, "u": "a", "at": )",
                                       DateJson(kTestStart), "}"))
                  .ok());
  clock_.Advance(absl::Seconds(11));
  EXPECT_EQ(J(c.FindOneAndUpdate(R"({"u": "a"})", R"({"$set": {"x": 1}})")),
            "null");
  EXPECT_EQ(J(c.FindOneAndDelete(R"({"u": "a"})")), "null");
  EXPECT_EQ(*c.EstimatedDocumentCount(), 1);  // still stored, hidden
  FindOneAndModifyOptions o;
  o.upsert = true;
  o.return_new = true;
  EXPECT_EQ(
      J(c.FindOneAndUpdate(R"({"_id": 1})", R"({"$set": {"u": "b"}})", o)),
      R"({"_id":1,"u":"b"})");
  EXPECT_EQ(*c.EstimatedDocumentCount(), 1);
  EXPECT_TRUE(Valid(c));
}

// The read and the write are one step: writer A is held between its read
// and its write (sync point FindAndModify:AfterRead) while writer B runs
// the same findOneAndUpdate; B must not read before A has written, so the
// two claim different documents (the job-queue pattern of the manual's
// findAndModify page, "Upsert with Unique Index" / concurrency notes).
TEST_F(FindAndModifyTest, ConcurrentClaimsNeverShareADocument) {
  Collection& c = db_->collection("jobs");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "state": "new"})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "state": "new"})").ok());
  const char* filter = R"({"state": "new"})";
  const char* take = R"({"$set": {"state": "taken"}})";
  std::atomic<int> reads{0};
  std::atomic<bool> b_read_while_a_held{false};
  std::thread b;
  absl::StatusOr<std::optional<Value>> got_b = std::optional<Value>();
  SyncPoint::Set("FindAndModify:AfterRead", [&] {
    if (reads.fetch_add(1) != 0) return;  // B's read
    // A: start B and give it every chance (bounded) to read now.
    b = std::thread([&] { got_b = c.FindOneAndUpdate(filter, take); });
    for (int i = 0; i < 300 && reads.load() < 2; ++i) {
      absl::SleepFor(absl::Milliseconds(1));
    }
    b_read_while_a_held = reads.load() >= 2;
  });
  auto got_a = c.FindOneAndUpdate(filter, take);
  b.join();
  SyncPoint::ClearAll();
  EXPECT_FALSE(b_read_while_a_held.load());
  EXPECT_EQ(J(got_a), R"({"_id":1,"state":"new"})");
  EXPECT_EQ(J(got_b), R"({"_id":2,"state":"new"})");
  EXPECT_EQ(*c.CountDocuments(R"({"state": "taken"})"), 2);
}

// Without sync points: many threads claiming from one queue each get a
// distinct document, and every document is claimed exactly once.
TEST_F(FindAndModifyTest, ManyThreadsClaimDistinctDocuments) {
  Collection& c = db_->collection("jobs");
  constexpr int kDocs = 60, kThreads = 4;
  for (int i = 0; i < kDocs; ++i) {
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "state": "new"})"))
            .ok());
  }
  std::vector<std::vector<int>> claimed(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (true) {
        auto r = c.FindOneAndUpdate(R"({"state": "new"})",
                                    R"({"$set": {"state": "taken"}})");
        if (!r.ok() || !r->has_value()) return;
        claimed[t].push_back(static_cast<int>((*r)->Get("_id")->AsDouble()));
      }
    });
  }
  for (auto& th : threads) th.join();
  std::multiset<int> all;
  for (const auto& v : claimed) all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), static_cast<size_t>(kDocs));
  EXPECT_EQ(std::set<int>(all.begin(), all.end()).size(),
            static_cast<size_t>(kDocs));
}

}  // namespace
}  // namespace ttldb
