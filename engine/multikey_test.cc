// The per-index multikey flag (proto IndexSpec.multikey): set by the index
// build and by the first write that makes an index multikey, persisted, and
// what it enables (TTL sweep without document reads, range intersection).
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

const absl::Time kStart = kTestStart;

class MultikeyTest : public DbTest {
 protected:
  // The catalog's flag of an index: "absent", "false" or "true".
  std::string Flag(const std::string& coll, const std::string& index) {
    auto state = DatabaseInternal::engine(*db_)->GetState(coll);
    if (state == nullptr) return "no collection";
    const IndexState* idx = state->FindIndex(index);
    if (idx == nullptr) return "no index";
    if (!idx->spec.multikey.has_value()) return "absent";
    return *idx->spec.multikey ? "true" : "false";
  }
  void Insert(Collection& c, const std::string& json) {
    auto r = c.InsertOne(json);
    ASSERT_TRUE(r.ok()) << r.status() << " " << json;
  }
  std::vector<std::string> Ids(Collection& c, const std::string& filter,
                               const std::string& hint) {
    FindOptions options;
    if (!hint.empty()) options.hint = hint;
    options.sort = *ParseValue(R"({"_id": 1})");
    auto cursor = c.Find(filter, options);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    std::vector<std::string> out;
    if (!cursor.ok()) return out;
    while (true) {
      auto doc = (*cursor)->Next();
      EXPECT_TRUE(doc.ok()) << doc.status();
      if (!doc.ok() || !doc->has_value()) break;
      out.push_back(ToJson(*(*doc)->Get("_id")));
    }
    return out;
  }

  // The explain bounds of `field` as JSON.
  static std::string Bounds(const Value& explain, const std::string& field) {
    const Value* plan = explain.Get("queryPlanner");
    if (plan != nullptr) plan = plan->Get("winningPlan");
    if (plan != nullptr) plan = plan->Get("indexBounds");
    if (plan != nullptr) plan = plan->Get(field);
    return plan != nullptr ? ToJson(*plan) : "none";
  }
};

TEST_F(MultikeyTest, BuildSetsFlagFromExistingDocuments) {
  Collection& scalar = db_->collection("scalar");
  Insert(scalar, R"({"_id": 1, "a": 1})");
  ASSERT_TRUE(scalar.CreateIndex(R"({"a": 1})").ok());
  EXPECT_EQ(Flag("scalar", "a_1"), "false");

  Collection& arrays = db_->collection("arrays");
  Insert(arrays, R"({"_id": 1, "a": [1, 2]})");
  ASSERT_TRUE(arrays.CreateIndex(R"({"a": 1})").ok());
  EXPECT_EQ(Flag("arrays", "a_1"), "true");

  // Empty collection: nothing met an array.
  ASSERT_TRUE(db_->collection("empty").CreateIndex(R"({"a.b": 1})").ok());
  EXPECT_EQ(Flag("empty", "a.b_1"), "false");
}

TEST_F(MultikeyTest, WriteSetsFlagAndItPersistsAcrossReopen) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"b": 1})").ok());
  Insert(c, R"({"_id": 1, "a": 1, "b": 1})");
  EXPECT_EQ(Flag("c", "a_1"), "false");
  // An update that makes "a" an array: only a_1 becomes multikey.
  auto u = c.UpdateOne(R"({"_id": 1})", R"({"$set": {"a": [1, 2, 3]}})");
  ASSERT_TRUE(u.ok()) << u.status();
  EXPECT_EQ(Flag("c", "a_1"), "true");
  EXPECT_EQ(Flag("c", "b_1"), "false");
  // Never cleared, even when the array goes away.
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})", R"({"$set": {"a": 5}})").ok());
  EXPECT_EQ(Flag("c", "a_1"), "true");
  // An array under a dotted path counts too.
  ASSERT_TRUE(c.CreateIndex(R"({"x.y": 1})").ok());
  Insert(c, R"({"_id": 2, "x": [{"y": 1}]})");
  EXPECT_EQ(Flag("c", "x.y_1"), "true");
  EXPECT_TRUE(Valid(c));

  ASSERT_TRUE(db_->Close().ok());
  Open();
  Collection& again = db_->collection("c");
  EXPECT_EQ(Flag("c", "a_1"), "true");
  EXPECT_EQ(Flag("c", "b_1"), "false");
  EXPECT_EQ(Flag("c", "x.y_1"), "true");
  EXPECT_TRUE(Valid(again));
}

TEST_F(MultikeyTest, FailedWriteDoesNotSetFlag) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})", R"({"unique": true})").ok());
  Insert(c, R"({"_id": 1, "a": 7})");
  // Duplicate key on the unique index: refused before anything is written.
  auto r = c.InsertOne(R"({"_id": 2, "a": [7, 8]})");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(Flag("c", "a_1"), "false");
}

TEST_F(MultikeyTest, SweepOfIndexThatBecameMultikeyDeletesEveryEntry) {
  Collection& c = db_->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  // Plain documents first: the index is known non-multikey.
  for (int i = 0; i < 50; ++i) {
    Insert(c, absl::StrCat(R"({"_id": )", i, R"(, "at": )",
                           DateJson(kStart - absl::Hours(1)), "}"));
  }
  EXPECT_EQ(Flag("s", "at_1"), "false");
  // Then arrays of dates: several entries per document.
  for (int i = 50; i < 80; ++i) {
    Insert(c, absl::StrCat(R"({"_id": )", i, R"(, "at": [)",
                           DateJson(kStart - absl::Hours(3)), ", ",
                           DateJson(kStart - absl::Hours(2)), ", ",
                           DateJson(kStart + absl::Hours(5)), "]}"));
  }
  EXPECT_EQ(Flag("s", "at_1"), "true");
  // One array whose earliest date is still live: kept.
  Insert(c, absl::StrCat(R"({"_id": 100, "at": [)",
                         DateJson(kStart + absl::Hours(1)), ", ",
                         DateJson(kStart + absl::Hours(2)), "]}"));
  DatabaseInternal::RunTtlPass(*db_, kStart);
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 1);
  EXPECT_TRUE(Valid(c));
  auto left = c.FindOne("{}");
  ASSERT_TRUE(left.ok() && left->has_value());
  EXPECT_EQ(ToJson(*(*left)->Get("_id")), "100");
}

TEST_F(MultikeyTest, NonMultikeySweepDeletesWithoutReading) {
  Collection& c = db_->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  for (int i = 0; i < 600; ++i) {  // more than one chunk
    const absl::Time at = kStart - absl::Minutes(i % 2 == 0 ? 120 : 0);
    Insert(c, absl::StrCat(R"({"_id": )", i, R"(, "at": )", DateJson(at),
                           R"(, "note": "x[1]"})"));  // '[' in a string
  }
  EXPECT_EQ(Flag("s", "at_1"), "false");
  TtlPassStats stats = DatabaseInternal::RunTtlPass(*db_, kStart);
  EXPECT_EQ(stats.deleted_documents, 300);
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 300);
  EXPECT_TRUE(Valid(c));
  // A touched document is not swept.
  clock_.Advance(absl::Seconds(30));  // not yet expired: touchable
  auto touched = c.Touch(R"({"_id": 1})", "at");
  ASSERT_TRUE(touched.ok()) << touched.status();
  EXPECT_EQ(touched->modified_count, 1);
  clock_.Advance(absl::Seconds(50));  // the others expired 20 s ago
  DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 1);
  EXPECT_TRUE(Valid(c));
}

TEST_F(MultikeyTest, RangeIntersectionMatchesCollectionScan) {
  Collection& c = db_->collection("r");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"d": -1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"g": 1, "a": 1})").ok());
  for (int i = 0; i < 60; ++i) {
    std::string a = i % 7 == 0    ? absl::StrCat("\"s", i, "\"")
                    : i % 11 == 0 ? "null"
                                  : absl::StrCat(i % 20, ".5");
    Insert(c, absl::StrCat(R"({"_id": )", i, R"(, "a": )", a, R"(, "d": )",
                           i % 13, R"(, "g": )", i % 3, "}"));
  }
  EXPECT_EQ(Flag("r", "a_1"), "false");
  const std::vector<std::string> filters = {
      R"({"a": {"$gt": 1, "$lt": 5}})",
      R"({"a": {"$gte": 2.5, "$lte": 7.5}})",
      R"({"$and": [{"a": {"$gt": 3}}, {"a": {"$gt": 10, "$lt": 15}}]})",
      R"({"a": {"$gt": 10, "$lt": 3}})",
      R"({"a": {"$gt": 1, "$lt": "s9"}})",
      R"({"a": {"$gte": "s", "$lt": "s3"}})",
      R"({"d": {"$gt": 2, "$lte": 9}})",
      R"({"d": {"$gte": 4, "$lt": 5}})",
      R"({"g": 1, "a": {"$gt": 2, "$lt": 12}})",
      R"({"$and": [{"a": {"$gt": 4}}, {"a": {"$lt": 9}}]})",
  };
  for (const std::string& f : filters) {
    // The collection scan is the reference.
    std::vector<std::string> scan;
    {
      auto all = Ids(c, "{}", "");
      for (const std::string& id : all) {
        auto one = c.FindOne(
            absl::StrCat(R"({"$and": [{"_id": )", id, "}, ", f, "]}"));
        ASSERT_TRUE(one.ok()) << one.status() << " " << f << " " << id;
        if (one->has_value()) scan.push_back(id);
      }
    }
    EXPECT_EQ(Ids(c, f, ""), scan) << f;
  }
  // Explain: one tight range.
  auto explain = c.Explain(R"({"a": {"$gt": 1, "$lt": 5}})");
  ASSERT_TRUE(explain.ok()) << explain.status();
  EXPECT_EQ(Bounds(*explain, "a"), R"x(["(1, 5)"])x") << ToJson(*explain);
  // 1.5 .. 4.5 (ids 1..4, 21..24, 41..44 less strings and nulls): every key
  // examined is returned.
  const Value* stats = explain->Get("executionStats");
  ASSERT_NE(stats, nullptr);
  EXPECT_GT(stats->Get("nReturned")->int64_value(), 0);
  EXPECT_EQ(stats->Get("totalKeysExamined")->int64_value(),
            stats->Get("nReturned")->int64_value())
      << ToJson(*explain);
  // The descending index d_-1 lists its bounds in key order, high to low
  // (MongoDB's IndexBoundsBuilder::alignBounds, index_bounds_builder.cpp).
  auto desc = c.Explain(R"({"d": {"$gt": 2, "$lte": 9}})");
  ASSERT_TRUE(desc.ok());
  EXPECT_EQ(Bounds(*desc, "d"), R"x(["[9, 2)"])x") << ToJson(*desc);
}

TEST_F(MultikeyTest, MultikeyIndexKeepsFirstRangeOnly) {
  Collection& c = db_->collection("m");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})").ok());
  Insert(c, R"({"_id": 1, "a": [0, 10]})");  // matches $gt 1 and $lt 5
  Insert(c, R"({"_id": 2, "a": 3})");
  Insert(c, R"({"_id": 3, "a": 20})");
  EXPECT_EQ(Flag("m", "a_1"), "true");
  EXPECT_EQ(Ids(c, R"({"a": {"$gt": 1, "$lt": 5}})", ""),
            (std::vector<std::string>{"1", "2"}));
  auto explain = c.Explain(R"({"a": {"$gt": 1, "$lt": 5}})");
  ASSERT_TRUE(explain.ok());
  EXPECT_EQ(Bounds(*explain, "a"), R"x(["(1, int max]"])x") << ToJson(*explain);
}

TEST_F(MultikeyTest, BecomingMultikeyAfterIntersectionStaysCorrect) {
  Collection& c = db_->collection("m");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})").ok());
  Insert(c, R"({"_id": 1, "a": 3})");
  EXPECT_EQ(Ids(c, R"({"a": {"$gt": 1, "$lt": 5}})", ""),
            (std::vector<std::string>{"1"}));
  Insert(c, R"({"_id": 2, "a": [0, 10]})");
  EXPECT_EQ(Ids(c, R"({"a": {"$gt": 1, "$lt": 5}})", ""),
            (std::vector<std::string>{"1", "2"}));
}

}  // namespace
}  // namespace ttldb
