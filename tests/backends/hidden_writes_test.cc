// "Hidden means absent, for writes too" (Options::hide_expired, the
// default), on both backends (backend_fixture.h): a write whose _id or
// unique key collides with a document a TTL index has expired, but that no
// TTL pass has deleted yet, removes that document and succeeds instead of
// failing with 11000; a collision with a live document is still 11000. The
// embedded engine removes the holder in the write's own batch
// (tests/hidden_writes_test.cc has its metrics and listener); the remote
// backend, whose server shows the holder until its pass as MongoDB does,
// deletes it with a filter that requires it expired and writes again
// (remote/mongo_collection.h, RemoveExpiredHolder).
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

class HiddenWritesTest : public BackendTest {
 protected:
  // A session store: TTL on `seen` (60 s), unique `user`. Sessions 1 ada,
  // 2 bob, 4 dee and 5 eve are expired (seen 120 s ago), 3 cy is live.
  Collection& Sessions() {
    Collection& c = coll();
    EXPECT_TRUE(
        c.CreateIndex(R"({"seen": 1})", R"({"expireAfterSeconds": 60})").ok());
    EXPECT_TRUE(c.CreateIndex(R"({"user": 1})", R"({"unique": true})").ok());
    const absl::Time old = clock_.WallNow() - absl::Seconds(120);
    for (auto [id, user] : std::vector<std::pair<int, const char*>>{
             {1, "ada"}, {2, "bob"}, {4, "dee"}, {5, "eve"}}) {
      EXPECT_TRUE(c.InsertOne(Doc(id, user, old)).ok());
    }
    EXPECT_TRUE(c.InsertOne(Doc(3, "cy", clock_.WallNow())).ok());
    EXPECT_EQ(*c.CountDocuments(), 1);
    EXPECT_EQ(*c.EstimatedDocumentCount(), 5);
    return c;
  }
  std::string Doc(int id, const char* user, absl::Time seen) {
    return absl::StrCat(R"({"_id": )", id, R"(, "user": ")", user,
                        R"(", "seen": )", DateJson(seen), "}");
  }
  std::string Now(int id, const char* user) {
    return Doc(id, user, clock_.WallNow());
  }
  // The _id of the visible session of `user`, "none" when there is none.
  std::string IdOf(Collection& c, const char* user) {
    auto d = c.FindOne(absl::StrCat(R"({"user": ")", user, R"("})"));
    EXPECT_TRUE(d.ok()) << d.status();
    return d.ok() && d->has_value() ? ToJson(*(*d)->Get("_id")) : "none";
  }
};

TEST_P(HiddenWritesTest, InsertTakesTheIdOrKeyOfAHiddenDocument) {
  Collection& c = Sessions();
  // _id 1 is ada's expired session; user bob is session 2's.
  ASSERT_TRUE(c.InsertOne(Now(1, "ann")).ok());
  ASSERT_TRUE(c.InsertOne(Now(10, "bob")).ok());
  EXPECT_EQ(IdOf(c, "ann"), "1");
  EXPECT_EQ(IdOf(c, "bob"), "10");
  EXPECT_EQ(*c.CountDocuments(), 3);
  EXPECT_EQ(*c.EstimatedDocumentCount(), 5);  // 1 and 2 deleted, 10 in
  // A live holder is still a duplicate.
  absl::Status s = c.InsertOne(Now(11, "cy")).status();
  EXPECT_EQ(ErrorCode(s), kDuplicateKey) << s;
  EXPECT_TRUE(absl::IsAlreadyExists(s)) << s;
  s = c.InsertOne(Now(3, "zed")).status();
  EXPECT_EQ(ErrorCode(s), kDuplicateKey) << s;
  EXPECT_TRUE(Valid(c));
}

TEST_P(HiddenWritesTest, InsertManyGoesOnPastHiddenHolders) {
  Collection& c = Sessions();
  std::vector<Value> ids;
  ASSERT_TRUE(
      c.InsertMany({Now(1, "ann"), Now(20, "bob"), Now(21, "dan")}, &ids).ok());
  EXPECT_EQ(ToJson(Value::MakeArray(Value::Array(ids.begin(), ids.end()))),
            "[1,20,21]");
  // Ordered: the hidden collision goes through, the live one stops it.
  ids.clear();
  absl::Status s =
      c.InsertMany({Now(22, "dee"), Now(23, "cy"), Now(24, "fay")}, &ids);
  EXPECT_EQ(ErrorCode(s), kDuplicateKey) << s;
  EXPECT_EQ(ToJson(Value::MakeArray(Value::Array(ids.begin(), ids.end()))),
            "[22]");
  EXPECT_EQ(IdOf(c, "dee"), "22");
  EXPECT_EQ(IdOf(c, "fay"), "none");
}

TEST_P(HiddenWritesTest, UpsertUpdateAndReplaceTakeAHiddenKey) {
  Collection& c = Sessions();
  // The upsert of a user whose only session is expired inserts a new one.
  auto r = c.UpdateOne(
      R"({"user": "ada"})",
      absl::StrCat(R"({"$set": {"seen": )", DateJson(clock_.WallNow()), "}}"),
      UpdateOptions{/*upsert=*/true, {}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 0);
  ASSERT_TRUE(r->upserted_id.has_value());
  EXPECT_EQ(IdOf(c, "ada"), ToJson(*r->upserted_id));
  // An update that gives a live session the key of a hidden one.
  r = c.UpdateOne(R"({"_id": 3})", R"({"$set": {"user": "bob"}})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->modified_count, 1);
  EXPECT_EQ(IdOf(c, "bob"), "3");
  // A replacement, and an upsert by a hidden _id.
  ASSERT_TRUE(c.InsertOne(Now(30, "gus")).ok());
  r = c.ReplaceOne(R"({"_id": 30})", Now(30, "dee"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(IdOf(c, "dee"), "30");
  r = c.ReplaceOne(R"({"_id": 5})", Now(5, "eli"),
                   UpdateOptions{/*upsert=*/true, {}});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->upserted_id.has_value());
  EXPECT_EQ(IdOf(c, "eli"), "5");
  // A live holder is still a duplicate.
  absl::Status s =
      c.UpdateOne(R"({"_id": 30})", R"({"$set": {"user": "bob"}})").status();
  EXPECT_EQ(ErrorCode(s), kDuplicateKey) << s;
  EXPECT_EQ(*c.CountDocuments(), 4);
  EXPECT_TRUE(Valid(c));
}

TEST_P(HiddenWritesTest, FindOneAndModifyUpsertTakesAHiddenKey) {
  Collection& c = Sessions();
  FindOneAndModifyOptions o;
  o.upsert = true;
  o.return_new = true;
  o.projection = *ParseDocument(R"({"_id": 0, "user": 1})");
  auto d =
      c.FindOneAndUpdate(R"({"_id": 4})", R"({"$set": {"user": "eve"}})", o);
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_TRUE(d->has_value());
  EXPECT_EQ(ToJson(**d), R"({"user":"eve"})");
  EXPECT_EQ(IdOf(c, "eve"), "4");
  auto dup =
      c.FindOneAndUpdate(R"({"_id": 4})", R"({"$set": {"user": "cy"}})", o);
  EXPECT_EQ(ErrorCode(dup.status()), kDuplicateKey) << dup.status();
}

TEST_P(HiddenWritesTest, BulkWriteRunsTheHiddenCollisionsAgain) {
  Collection& c = Sessions();
  const std::string now = DateJson(clock_.WallNow());
  // Ordered: 0 and 1 collide with hidden sessions, 2 with a live one.
  Value ops = *ParseValue(absl::StrCat(R"([
    {"insertOne": {"document": {"_id": 40, "user": "ada", "seen": )",
                                       now, R"(}}},
    {"insertOne": {"document": {"_id": 2, "user": "bea", "seen": )",
                                       now, R"(}}},
    {"updateOne": {"filter": {"_id": 41}, "update": {"$set": {"user": "cy"}},
                   "upsert": true}},
    {"insertOne": {"document": {"_id": 42}}}
  ])"));
  auto r = c.BulkWrite(ops, /*ordered=*/true);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->inserted_count, 2);
  ASSERT_EQ(r->inserted_ids.size(), 2u);
  EXPECT_EQ(r->inserted_ids[0].first, 0);
  EXPECT_EQ(r->inserted_ids[1].first, 1);
  ASSERT_EQ(r->write_errors.size(), 1u);
  EXPECT_EQ(r->write_errors[0].index, 2);
  EXPECT_EQ(r->write_errors[0].code, kDuplicateKey);
  EXPECT_EQ(IdOf(c, "ada"), "40");
  EXPECT_EQ(IdOf(c, "bea"), "2");
  EXPECT_FALSE(c.FindById(Value::Int32(42)).ok());

  // Unordered: the live collision fails alone.
  ops = *ParseValue(absl::StrCat(R"([
    {"insertOne": {"document": {"_id": 50, "user": "cy"}}},
    {"insertOne": {"document": {"_id": 51, "user": "dee", "seen": )",
                                 now, R"(}}},
    {"replaceOne": {"filter": {"_id": 52},
                    "replacement": {"user": "eve", "seen": )",
                                 now, R"(}, "upsert": true}}
  ])"));
  r = c.BulkWrite(ops, /*ordered=*/false);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->inserted_count, 1);
  EXPECT_EQ(r->upserted_count, 1);
  ASSERT_EQ(r->inserted_ids.size(), 1u);
  EXPECT_EQ(r->inserted_ids[0].first, 1);
  ASSERT_EQ(r->upserted_ids.size(), 1u);
  EXPECT_EQ(r->upserted_ids[0].first, 2);
  EXPECT_EQ(ToJson(r->upserted_ids[0].second), "52");
  ASSERT_EQ(r->write_errors.size(), 1u);
  EXPECT_EQ(r->write_errors[0].index, 0);
  EXPECT_EQ(IdOf(c, "dee"), "51");
  EXPECT_EQ(IdOf(c, "eve"), "52");
  EXPECT_EQ(*c.CountDocuments(), 5);
  EXPECT_TRUE(Valid(c));
}

// hide_expired off: MongoDB's behaviour, the expired holder is an ordinary
// document until a pass deletes it.
class ShownExpiredWritesTest : public HiddenWritesTest {
  void AdjustOptions(Options* options) override {
    options->hide_expired = false;
  }
};

TEST_P(ShownExpiredWritesTest, CollisionIsADuplicateUntilThePass) {
  Collection& c = coll();
  ASSERT_TRUE(
      c.CreateIndex(R"({"seen": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(
      c.InsertOne(Doc(1, "ada", clock_.WallNow() - absl::Seconds(120))).ok());
  absl::Status s = c.InsertOne(Now(1, "ann")).status();
  EXPECT_EQ(ErrorCode(s), kDuplicateKey) << s;
  TtlPass();
  EXPECT_TRUE(c.InsertOne(Now(1, "ann")).ok());
}

INSTANTIATE_TEST_SUITE_P(Backends, HiddenWritesTest,
                         ::testing::Values(Backend::kEmbedded,
                                           Backend::kRemote),
                         BackendName);
INSTANTIATE_TEST_SUITE_P(Backends, ShownExpiredWritesTest,
                         ::testing::Values(Backend::kEmbedded,
                                           Backend::kRemote),
                         BackendName);

}  // namespace
}  // namespace ttldb
