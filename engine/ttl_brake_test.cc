// The emergency brake on a TTL pass in progress (issue 13): raising
// expireAfterSeconds with collMod, dropping the index or disabling the
// monitor stops a pass within one batch. MongoDB re-reads the index spec for
// every batch (src/mongo/db/ttl/ttl_monitor.cpp, _deleteExpiredWithIndex:
// `spec[expireAfterSeconds]` is read on each call, and _doTTLSubPass calls it
// once per index per round). Deterministic: an injected clock and the
// monitor's sync points, never a sleep for expiry.
#include <atomic>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/sync_point.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

constexpr int kDocs = 1000;
constexpr int kBatch = 100;

class TtlBrakeTest : public ::testing::Test {
 protected:
  void TearDown() override {
    SyncPoint::ClearAll();
    db_.reset();
  }

  // 1,000 sessions dated kTestStart under {lastSeen: 1} with E = 60 s, and
  // the clock 5 minutes later: all expired. Batches of 100.
  void Open(bool monitor_enabled) {
    Options options;
    options.clock = &clock_;
    options.ttl_monitor_enabled = monitor_enabled;
    options.ttl_batch_docs_max = kBatch;
    options.hide_expired = false;  // count what is stored
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    Collection& c = db_->collection("sessions");
    ASSERT_TRUE(
        c.CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 60})")
            .ok());
    std::vector<std::string> docs;
    for (int i = 0; i < kDocs; ++i) {
      docs.push_back(absl::StrCat(R"({"_id": )", i, R"(, "lastSeen": )",
                                  DateJson(kTestStart), "}"));
    }
    std::vector<DocArg> args(docs.begin(), docs.end());
    ASSERT_TRUE(c.InsertMany(args).ok());
    clock_.Advance(absl::Minutes(5));
  }

  int64_t Stored() { return *db_->collection("sessions").CountDocuments(); }

  // Runs `action` once, at the start of the pass's second batch.
  void AtSecondBatch(std::function<void()> action) {
    SyncPoint::Set("TtlMonitor::NextBatch", [this, action = std::move(action)] {
      if (++batches_ == 2) action();
    });
  }

  TempDir dir_;
  FakeClock clock_{kTestStart};
  std::unique_ptr<Database> db_;
  std::atomic<int> batches_{0};
};

TEST_F(TtlBrakeTest, RaisingExpireAfterSecondsStopsThePass) {
  Open(/*monitor_enabled=*/false);
  Database* db = db_.get();
  AtSecondBatch([db] {
    auto r =
        db->collection("sessions")
            .CollMod(
                R"({"index": {"keyPattern": {"lastSeen": 1}, "expireAfterSeconds": 3600}})");
    ASSERT_TRUE(r.ok()) << r.status();
  });
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  // One batch went before the collMod; after it nothing is expired (dated
  // 5 minutes ago, E = 1 h), so nothing more is deleted.
  EXPECT_EQ(s.deleted_documents, kBatch);
  EXPECT_EQ(Stored(), kDocs - kBatch);
}

TEST_F(TtlBrakeTest, LoweringExpireAfterSecondsAppliesFromTheNextBatch) {
  Open(/*monitor_enabled=*/false);
  Database* db = db_.get();
  // 60 s -> 240 s: the documents (dated 300 s ago) are still expired under
  // the new value, so the pass goes on with it and deletes them all.
  AtSecondBatch([db] {
    ASSERT_TRUE(db->collection("sessions")
                    .CollMod(R"({"index": {"name": "lastSeen_1",
                                           "expireAfterSeconds": 240}})")
                    .ok());
  });
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(s.deleted_documents, kDocs);
  EXPECT_EQ(Stored(), 0);
}

TEST_F(TtlBrakeTest, DroppingTheIndexStopsThePass) {
  Open(/*monitor_enabled=*/false);
  Database* db = db_.get();
  AtSecondBatch([db] {
    ASSERT_TRUE(db->collection("sessions").DropIndex("lastSeen_1").ok());
  });
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(s.deleted_documents, kBatch);
  EXPECT_EQ(Stored(), kDocs - kBatch);
}

TEST_F(TtlBrakeTest, DisablingTheMonitorStopsABackgroundPass) {
  Open(/*monitor_enabled=*/false);
  Database* db = db_.get();
  AtSecondBatch([db] { ASSERT_TRUE(db->SetTtlMonitorEnabled(false).ok()); });
  // The clock is 5 minutes past the last pass: enabling starts one at once.
  ASSERT_TRUE(db_->SetTtlMonitorEnabled(true).ok());
  ASSERT_TRUE(
      DatabaseInternal::engine(*db_)->monitor()->TEST_WaitForBackgroundPasses(
          1, absl::Seconds(30)));
  EXPECT_EQ(Stored(), kDocs - kBatch);
  EXPECT_EQ(db_->GetTtlMetrics().deleted_documents, kBatch);
}

// serverStatus metrics.ttl of current MongoDB: examinedKeys (index entries
// the scans visited), examinedDocuments (documents read) and durationMicros
// (time in passes), beside deletedDocuments / deletedKeys
// (src/mongo/db/ttl/ttl_test.cpp, TTLPassSingleCollectionTwoIndexes).
TEST_F(TtlBrakeTest, ExaminedKeysDocumentsAndDurationAreReported) {
  Open(/*monitor_enabled=*/false);
  // Each of the 10 batches takes 1 s of the injected clock.
  SyncPoint::Set("TtlMonitor::BeforeBatch",
                 [this] { clock_.Advance(absl::Seconds(1)); });
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(s.deleted_documents, kDocs);
  EXPECT_EQ(s.examined_keys, kDocs);
  // The only index is the TTL index and not multikey: each entry says all
  // there is to delete, so no document is read (MongoDB reads each one).
  EXPECT_EQ(s.examined_documents, 0);
  const Value status = db_->ServerStatus();
  const Value* ttl = status.Get("metrics")->Get("ttl");
  EXPECT_EQ(ttl->Get("deletedDocuments")->int64_value(), kDocs);
  EXPECT_EQ(ttl->Get("deletedKeys")->int64_value(), kDocs);
  EXPECT_EQ(ttl->Get("examinedKeys")->int64_value(), kDocs);
  EXPECT_EQ(ttl->Get("examinedDocuments")->int64_value(), 0);
  EXPECT_EQ(ttl->Get("subPasses")->int64_value(), 1);
  EXPECT_EQ(ttl->Get("durationMicros")->int64_value(), 10'000'000);
  EXPECT_EQ(ttl->Get("lastPassMillis")->int64_value(), 10'000);
}

}  // namespace
}  // namespace ttldb
