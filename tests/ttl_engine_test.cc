// TTL indexes end to end through the public API, with an injected clock and
// passes run on demand (never sleeping for expiry).
#include <atomic>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/ttldb_testing.h"

namespace ttldb {
namespace {

const absl::Time kStart = kTestStart;

class TtlEngineTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(/*hide_expired=*/true); }
  void TearDown() override { SyncPoint::ClearAll(); }
  void Open(bool hide_expired) {
    db_.reset();
    Options options;
    options.clock = &clock_;
    options.ttl_monitor_enabled = false;  // passes run on demand
    options.hide_expired = hide_expired;
    options.expiry_listener = [this](absl::string_view coll, const Value& doc) {
      expired_.push_back(absl::StrCat(coll, ":", ToJson(*doc.Get("_id"))));
    };
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }
  void Insert(Collection& c, int id, absl::Time t,
              const char* field = "accessTime") {
    auto r = c.InsertOne(absl::StrCat(R"({"_id": )", id, R"(, ")", field,
                                      R"(": )", DateJson(t), "}"));
    ASSERT_TRUE(r.ok()) << r.status();
  }
  int64_t Count(Collection& c) {
    // Counts what is stored, ignoring hiding: a fresh database handle with
    // hiding off would be heavier; Stats counts raw documents.
    return c.Stats()->Get("count")->int64_value();
  }

  TempDir dir_;
  FakeClock clock_{kStart};
  std::unique_ptr<Database> db_;
  std::vector<std::string> expired_;
};

TEST_F(TtlEngineTest, ExpiresAtCutoffInclusiveAndKeepsTouched) {
  Collection& log = db_->collection("eventLog");
  ASSERT_TRUE(
      log.CreateIndex(R"({"accessTime": 1})", R"({"expireAfterSeconds": 3600})")
          .ok());
  Insert(log, 1, kStart);
  Insert(log, 2, kStart + absl::Milliseconds(1));
  Insert(log, 3, kStart);
  // Keep 3 alive: touch it later.
  clock_.Advance(absl::Minutes(30));
  ASSERT_TRUE(log.Touch(R"({"_id": 3})", "accessTime").ok());

  // Exactly at start + E: document 1 (date == cutoff) expires, 2 does not.
  TtlPassStats s = ttldb_testing::RunTtlPass(*db_, kStart + absl::Hours(1));
  EXPECT_EQ(s.deleted_documents, 1);
  EXPECT_EQ(s.deleted_keys, 1);
  EXPECT_FALSE(log.FindById(Value::Int32(1)).ok());
  EXPECT_EQ(Count(log), 2);
  s = ttldb_testing::RunTtlPass(
      *db_, kStart + absl::Hours(1) + absl::Milliseconds(1));
  EXPECT_EQ(s.deleted_documents, 1);
  EXPECT_EQ(Count(log), 1);
  EXPECT_TRUE(log.FindById(Value::Int32(3)).ok());
  EXPECT_EQ(expired_, (std::vector<std::string>{"eventLog:1", "eventLog:2"}));

  TtlMetrics m = db_->GetTtlMetrics();
  EXPECT_EQ(m.passes, 2);
  EXPECT_EQ(m.deleted_documents, 2);
  EXPECT_EQ(m.deleted_keys, 2);
}

TEST_F(TtlEngineTest, OnlyDatesExpire) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 0})").ok());
  const std::string old =
      DateJson(kStart - absl::Hours(24 * 365 * 60));  // 1967
  ASSERT_TRUE(
      c
          .InsertMany({
              absl::StrCat(R"({"_id": 1, "t": )", old, "}"),
              absl::StrCat(R"({"_id": 2, "t": [5, )", old, "]}"),
              R"({"_id": 3, "t": "2000-01-01"})",
              R"({"_id": 4, "t": 12345})",
              R"({"_id": 5, "t": {"$timestamp": {"t": 1, "i": 1}}})",
              R"({"_id": 6, "t": null})",
              R"({"_id": 7})",
              R"({"_id": 8, "t": {"$date": {"$numberLong": "9000000000000000"}}})",
          })
          .ok());
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kStart).deleted_documents, 2);
  EXPECT_EQ(*c.CountDocuments(), 6);
  EXPECT_TRUE(c.Validate()->Get("valid")->bool_value());
}

TEST_F(TtlEngineTest, HiddenAtOnceUnlessMongoBehaviourIsAsked) {
  Collection& c = db_->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  Insert(c, 1, kStart, "at");
  Insert(c, 2, kStart + absl::Minutes(5), "at");
  clock_.Advance(absl::Minutes(2));
  // Not yet swept, but hidden from every read.
  EXPECT_EQ(*c.CountDocuments(), 1);
  EXPECT_FALSE(c.FindById(Value::Int32(1)).ok());
  EXPECT_EQ(c.Distinct("_id")->size(), 1u);
  EXPECT_EQ(
      c.UpdateOne(R"({"_id": 1})", R"({"$set": {"x": 1}})")->matched_count, 0);
  // An insert of the same _id replaces the hidden document.
  Insert(c, 1, clock_.WallNow(), "at");
  EXPECT_EQ(*c.CountDocuments(), 2);

  Insert(c, 3, kStart, "at");
  Open(/*hide_expired=*/false);
  Collection& c2 = db_->collection("s");
  EXPECT_EQ(*c2.CountDocuments(), 3);  // MongoDB's behaviour: visible
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
            1);
  EXPECT_EQ(*c2.CountDocuments(), 2);
}

TEST_F(TtlEngineTest, ExpireAtWithZeroAndDescendingIndex) {
  Collection& c = db_->collection("log_events");
  ASSERT_TRUE(
      c.CreateIndex(R"({"expireAt": -1})", R"({"expireAfterSeconds": 0})")
          .ok());
  for (int i = 0; i < 10; ++i) {
    Insert(c, i, kStart + absl::Seconds(i * 10), "expireAt");
  }
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kStart + absl::Seconds(45))
                .deleted_documents,
            5);
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kStart + absl::Seconds(45))
                .deleted_documents,
            0);
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kStart + absl::Seconds(90))
                .deleted_documents,
            5);
}

TEST_F(TtlEngineTest, PartialTtlIndexOnlyExpiresWhatItIndexes) {
  // Comment drafts: submitting removes draftTime, so the draft is kept.
  Collection& c = db_->collection("comments");
  ASSERT_TRUE(c.CreateIndex(R"({"draftTime": 1})",
                            R"({"expireAfterSeconds": 600,
                                "partialFilterExpression": {"draft": true}})")
                  .ok());
  ASSERT_TRUE(
      c.InsertOne(absl::StrCat(R"({"_id": 1, "draft": true, "draftTime": )",
                               DateJson(kStart), "}"))
          .ok());
  ASSERT_TRUE(
      c.InsertOne(absl::StrCat(R"({"_id": 2, "draft": true, "draftTime": )",
                               DateJson(kStart), "}"))
          .ok());
  ASSERT_TRUE(
      c.UpdateOne(R"({"_id": 2})",
                  R"({"$set": {"draft": false}, "$unset": {"draftTime": ""}})")
          .ok());
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kStart + absl::Hours(1))
                .deleted_documents,
            1);
  EXPECT_TRUE(c.FindById(Value::Int32(2)).ok());
}

TEST_F(TtlEngineTest, SpecErrorsCreateNothing) {
  Collection& c = db_->collection("c");
  struct Case {
    const char* keys;
    const char* options;
    int code;
  } cases[] = {
      {R"({"a": 1})", R"({"expireAfterSeconds": "x"})", 67},
      {R"({"a": 1})", R"({"expireAfterSeconds": -1})", 67},
      {R"({"a": 1})", R"({"expireAfterSeconds": 2147483648})", 67},
      {R"({"a": 1})", R"({"expireAfterSeconds": {"$numberDouble": "NaN"}})",
       67},
      {R"({"a": 1, "b": 1})", R"({"expireAfterSeconds": 5})", 67},
      {R"({"_id": 1})", R"({"expireAfterSeconds": 5})", 197},
  };
  for (const Case& k : cases) {
    auto r = c.CreateIndex(k.keys, k.options);
    EXPECT_EQ(ErrorCode(r.status()), k.code)
        << k.keys << k.options << r.status();
  }
  // Nothing was created, not even the collection.
  EXPECT_TRUE(c.ListIndexes()->empty());
  EXPECT_TRUE(db_->ListCollectionNames()->empty());
  // Truncated, and a conflicting second TTL on the same key is 85.
  ASSERT_TRUE(
      c.CreateIndex(R"({"a": 1})", R"({"expireAfterSeconds": 10.9})").ok());
  EXPECT_EQ(ToJson(c.ListIndexes()->back()),
            R"({"v":2,"key":{"a":1},"name":"a_1","expireAfterSeconds":10})");
  EXPECT_EQ(
      ErrorCode(c.CreateIndex(R"({"a": 1})", R"({"expireAfterSeconds": 20})")
                    .status()),
      85);
}

TEST_F(TtlEngineTest, CollModChangesExpiryInPlaceAndConverts) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"t": 1})").ok());
  Insert(c, 1, kStart, "t");
  auto reply = c.CollMod(
      R"({"index": {"keyPattern": {"t": 1}, "expireAfterSeconds": 100}})");
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(ToJson(*reply), R"({"expireAfterSeconds_new":100,"ok":1})");
  reply = c.CollMod(R"({"index": {"name": "t_1", "expireAfterSeconds": 50}})");
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(
      ToJson(*reply),
      R"({"expireAfterSeconds_old":100,"expireAfterSeconds_new":50,"ok":1})");
  EXPECT_EQ(
      ErrorCode(
          c.CollMod(R"({"index": {"name": "nope", "expireAfterSeconds": 5}})")
              .status()),
      27);
  EXPECT_EQ(
      ErrorCode(
          c.CollMod(R"({"index": {"name": "t_1", "expireAfterSeconds": -5}})")
              .status()),
      72);
  reply = c.CollMod(R"({"index": {"name": "t_1", "hidden": true}})");
  ASSERT_TRUE(reply.ok());
  // A hidden TTL index still expires documents.
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kStart + absl::Seconds(50))
                .deleted_documents,
            1);
}

TEST_F(TtlEngineTest, RoundRobinDoesNotStarveASmallCollection) {
  std::vector<std::string> order;  // collection of each deletion, in order
  Options options;
  options.clock = &clock_;
  options.ttl_monitor_enabled = false;
  options.ttl_batch_docs_max = 100;
  options.expiry_listener = [&order](absl::string_view coll, const Value&) {
    order.emplace_back(coll);
  };
  db_.reset();
  auto db = Database::Open(dir_.path(), options);
  ASSERT_TRUE(db.ok());
  db_ = std::move(*db);
  Collection& big = db_->collection("big");
  Collection& small = db_->collection("small");
  ASSERT_TRUE(
      big.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 1})").ok());
  ASSERT_TRUE(
      small.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 1})").ok());
  for (int i = 0; i < 1000; ++i) Insert(big, i, kStart, "t");
  for (int i = 0; i < 3; ++i) Insert(small, i, kStart, "t");
  TtlPassStats s = ttldb_testing::RunTtlPass(*db_, kStart + absl::Minutes(1));
  EXPECT_EQ(s.deleted_documents, 1003);
  // 1000 / 100 batches: 10 rounds of one sub-pass (MongoDB counts
  // sub-passes, src/mongo/db/ttl/ttl_test.cpp TTLSingleSubPass).
  EXPECT_EQ(s.rounds, 10);
  EXPECT_EQ(s.sub_passes, 1);
  EXPECT_EQ(Count(big), 0);
  EXPECT_EQ(Count(small), 0);
  // The small collection went in the first round, after at most one batch
  // of the big one, not after all ten.
  ASSERT_EQ(order.size(), 1003u);
  int last_small = -1;
  for (int i = 0; i < static_cast<int>(order.size()); ++i) {
    if (order[i] == "small") last_small = i;
  }
  EXPECT_GE(last_small, 0);
  EXPECT_LT(last_small, 103);
}

TEST_F(TtlEngineTest, DocumentTouchedDuringThePassIsKept) {
  Collection& c = db_->collection("sessions");
  ASSERT_TRUE(
      c.CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 60})")
          .ok());
  Insert(c, 1, kStart, "lastSeen");
  Insert(c, 2, kStart, "lastSeen");
  clock_.Advance(absl::Minutes(5));
  // The pass has taken its cutoff (both documents are expired by it); a
  // client touches 1 and deletes 2 before the monitor takes the lock.
  std::atomic<bool> fired{false};
  Database* db = db_.get();
  SyncPoint::Set("DbImpl::DeleteExpired:BeforeChunk", [&] {
    if (fired.exchange(true)) return;
    Collection& cc = db->collection("sessions");
    // Hidden documents do not match user writes, so touch by a fresh
    // replace-upsert of the session (what a login does) and delete 2 raw.
    ASSERT_TRUE(cc.ReplaceOne(R"({"_id": 1})",
                              absl::StrCat(R"({"lastSeen": )",
                                           DateJson(clock_.WallNow()), "}"),
                              UpdateOptions{.upsert = true})
                    .ok());
  });
  TtlPassStats s = ttldb_testing::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_TRUE(fired.load());
  EXPECT_EQ(s.deleted_documents, 1);
  EXPECT_TRUE(c.FindById(Value::Int32(1)).ok());
  EXPECT_FALSE(c.FindById(Value::Int32(2)).ok());
  EXPECT_TRUE(c.Validate()->Get("valid")->bool_value());
}

TEST_F(TtlEngineTest, MongoModeTouchDuringThePassIsNeverDeleted) {
  // With hide_expired off (MongoDB's behaviour) a client can still update an
  // expired document during a pass whose cutoff expires it; the monitor,
  // which scans under the writers' lock, must then keep it.
  Open(/*hide_expired=*/false);
  Collection& c = db_->collection("sessions");
  ASSERT_TRUE(
      c.CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 60})")
          .ok());
  for (int i = 1; i <= 4; ++i) Insert(c, i, kStart, "lastSeen");
  clock_.Advance(absl::Minutes(5));
  Database* db = db_.get();
  std::atomic<int> fired{0};
  SyncPoint::Set("DbImpl::DeleteExpired:BeforeChunk", [&] {
    if (fired++ > 0) return;
    Collection& cc = db->collection("sessions");
    auto r = cc.UpdateMany(R"({"_id": {"$in": [1, 3]}})",
                           R"({"$currentDate": {"lastSeen": true}})");
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->modified_count, 2);
    ASSERT_EQ(*cc.DeleteOne(R"({"_id": 4})"), 1);
  });
  TtlPassStats s = ttldb_testing::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(fired.load(), 1);
  EXPECT_EQ(s.deleted_documents, 1);  // only 2: 1 and 3 touched, 4 gone
  EXPECT_EQ(*c.CountDocuments(), 2);
  EXPECT_TRUE(c.FindById(Value::Int32(1)).ok());
  EXPECT_TRUE(c.FindById(Value::Int32(3)).ok());
  EXPECT_EQ(expired_, std::vector<std::string>{"sessions:2"});
  EXPECT_TRUE(c.Validate()->Get("valid")->bool_value());
}

TEST_F(TtlEngineTest, ReopenDeletesExpiredAtFirstPass) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 10})").ok());
  for (int i = 0; i < 20; ++i) Insert(c, i, kStart, "t");
  Open(true);
  clock_.Advance(absl::Minutes(1));
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
            20);
}

TEST_F(TtlEngineTest, SweepAfterManyDeletionsResumesAndStaysCorrect) {
  Collection& c = db_->collection("q");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 0})").ok());
  for (int i = 0; i < 3000; ++i)
    Insert(c, i, kStart + absl::Milliseconds(i), "t");
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kStart + absl::Milliseconds(1999))
                .deleted_documents,
            2000);
  // A write below the resume point (an older date) must still expire.
  Insert(c, 99999, kStart - absl::Hours(1), "t");
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kStart + absl::Milliseconds(2499))
                .deleted_documents,
            501);
  EXPECT_FALSE(c.FindById(Value::Int32(99999)).ok());
  EXPECT_EQ(Count(c), 500);
}

TEST_F(TtlEngineTest, BackgroundMonitorRunsWithShortSleep) {
  db_.reset();
  Options options;  // real clock
  options.ttl_monitor_sleep = absl::Milliseconds(200);
  auto db = Database::Open(dir_.path(), options);
  ASSERT_TRUE(db.ok());
  Collection& c = (*db)->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 0})").ok());
  ASSERT_TRUE(
      c.InsertOne(R"({"_id": 1, "t": {"$date": "2000-01-01T00:00:00Z"}})")
          .ok());
  ASSERT_TRUE((*db)->SetTtlMonitorSleep(absl::Milliseconds(50)).ok());
  EXPECT_FALSE((*db)->SetTtlMonitorSleep(absl::ZeroDuration()).ok());
  // Up to 10 s on a loaded machine; the pass usually comes within ~50 ms.
  for (int i = 0; i < 500 && (*db)->GetTtlMetrics().deleted_documents < 1;
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ((*db)->GetTtlMetrics().deleted_documents, 1);
  EXPECT_TRUE((*db)->Close().ok());
}

}  // namespace
}  // namespace ttldb
