// "Hidden means absent, for writes too" (issue 13): with hide_expired on, a
// write that collides with an expired document that the monitor has not
// deleted yet (on _id or on a unique index key) removes that document in the
// same atomic batch instead of failing with E11000, counts it as a TTL
// deletion and hands it to the expiry listener, exactly once.
//
// MongoDB has no hidden documents (hide_expired is beyond MongoDB): with
// hide_expired off the collision stays E11000, as in MongoDB, where an
// expired document is an ordinary document until the TTL monitor deletes it
// (src/mongo/db/ttl/ttl.cpp deletes through the ordinary delete path).
#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/ttldb_testing.h"

namespace ttldb {
namespace {

const absl::Time kStart = kTestStart;

class HiddenWritesTest : public DbTest {
 protected:
  void AdjustOptions(Options* options) override {
    options->hide_expired = hide_expired_;
    options->expiry_listener = [this](absl::string_view coll,
                                      const Value& doc) {
      std::lock_guard<std::mutex> l(listener_mu_);
      expired_.push_back(absl::StrCat(coll, ":", ToJson(doc)));
    };
  }
  // The issue's session store: TTL on lastSeen (E = 1 s), unique user.
  Collection& Sessions() {
    Collection& c = db_->collection("sessions");
    EXPECT_TRUE(
        c.CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 1})")
            .ok());
    EXPECT_TRUE(c.CreateIndex(R"({"user": 1})", R"({"unique": true})").ok());
    return c;
  }
  std::string Doc(int id, const char* user, absl::Time seen) {
    return absl::StrCat(R"({"_id": )", id, R"(, "user": ")", user,
                        R"(", "lastSeen": )", DateJson(seen), "}");
  }
  int64_t Stored(Collection& c) { return *c.EstimatedDocumentCount(); }
  std::vector<std::string> Expired() {
    std::lock_guard<std::mutex> l(listener_mu_);
    return expired_;
  }

  bool hide_expired_ = true;
  std::mutex listener_mu_;
  std::vector<std::string> expired_;
};

// The issue's reproduction: the upsert of a user whose only session is
// expired (hidden, not yet swept) inserts a new session instead of failing
// with E11000 on user_1.
TEST_F(HiddenWritesTest, UpsertReplacesHiddenUniqueCollision) {
  Collection& c = Sessions();
  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", kStart)).ok());
  clock_.Advance(absl::Milliseconds(1500));
  EXPECT_FALSE(c.FindOne(R"({"user": "ada"})")->has_value());

  auto r = c.UpdateOne(R"({"user": "ada"})",
                       absl::StrCat(R"({"$set": {"lastSeen": )",
                                    DateJson(clock_.WallNow()), "}}"),
                       UpdateOptions{.upsert = true});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 0);
  ASSERT_TRUE(r->upserted_id.has_value());
  auto found = c.FindOne(R"({"user": "ada"})");
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ(ToJson(*(*found)->Get("_id")), ToJson(*r->upserted_id));
  EXPECT_EQ(Stored(c), 1);  // the expired session is gone, not just hidden

  // Removed in the write's batch, counted and reported as a TTL deletion.
  EXPECT_EQ(Expired(), (std::vector<std::string>{absl::StrCat(
                           "sessions:", R"({"_id":1,"user":"ada","lastSeen":)",
                           R"({"$date":"2027-01-15T08:00:00.000Z"}})")}));
  TtlMetrics m = db_->GetTtlMetrics();
  EXPECT_EQ(m.deleted_documents, 1);
  EXPECT_EQ(m.deleted_keys, 2);  // its lastSeen_1 and user_1 entries
  EXPECT_EQ(m.deleted_by_writes, 1);
  const Value status = db_->ServerStatus();
  const Value* ttl = status.Get("metrics")->Get("ttl");
  EXPECT_EQ(ttl->Get("deletedDocuments")->int64_value(), 1);
  EXPECT_EQ(ttl->Get("deletedByWrites")->int64_value(), 1);
  EXPECT_TRUE(Valid(c));

  // The monitor finds nothing left to delete: no double count, no second
  // listener call.
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
            0);
  EXPECT_EQ(db_->GetTtlMetrics().deleted_documents, 1);
  EXPECT_EQ(Expired().size(), 1u);
}

// A plain insert whose unique key collides with a hidden document.
TEST_F(HiddenWritesTest, InsertReplacesHiddenUniqueCollision) {
  Collection& c = Sessions();
  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", kStart)).ok());
  ASSERT_TRUE(c.InsertOne(Doc(2, "bob", kStart + absl::Seconds(10))).ok());
  clock_.Advance(absl::Seconds(2));
  // bob is visible: still a duplicate.
  auto dup = c.InsertOne(Doc(3, "bob", clock_.WallNow()));
  EXPECT_EQ(ErrorCode(dup.status()), kDuplicateKey) << dup.status();
  EXPECT_EQ(db_->GetTtlMetrics().deleted_documents, 0);

  auto id = c.InsertOne(Doc(4, "ada", clock_.WallNow()));
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_FALSE(c.FindById(Value::Int32(1)).ok());
  EXPECT_TRUE(c.FindById(Value::Int32(4)).ok());
  EXPECT_EQ(Stored(c), 2);
  EXPECT_EQ(Expired().size(), 1u);
  EXPECT_EQ(db_->GetTtlMetrics().deleted_documents, 1);
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
            0);
}

// An insert with the _id of a hidden document, and an upsert by that _id.
TEST_F(HiddenWritesTest, IdCollisionOnInsertAndUpsert) {
  Collection& c = Sessions();
  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", kStart)).ok());
  ASSERT_TRUE(c.InsertOne(Doc(2, "bob", kStart)).ok());
  clock_.Advance(absl::Seconds(2));

  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", clock_.WallNow())).ok());
  EXPECT_EQ(Expired().size(), 1u);
  EXPECT_EQ(db_->GetTtlMetrics().deleted_documents, 1);

  // The upsert's new document takes _id 2 and user "bob" from the filter:
  // it collides with the hidden one on both.
  auto r = c.UpdateOne(R"({"_id": 2, "user": "bob"})",
                       absl::StrCat(R"({"$set": {"lastSeen": )",
                                    DateJson(clock_.WallNow()), "}}"),
                       UpdateOptions{.upsert = true});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->upserted_id.has_value());
  EXPECT_EQ(ToJson(*r->upserted_id), "2");
  EXPECT_EQ(Expired().size(), 2u);  // once, though it collided twice
  TtlMetrics m = db_->GetTtlMetrics();
  EXPECT_EQ(m.deleted_documents, 2);
  EXPECT_EQ(m.deleted_keys, 4);
  EXPECT_EQ(Stored(c), 2);
  EXPECT_EQ(*c.CountDocuments(), 2);
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
            0);
  EXPECT_EQ(Expired().size(), 2u);
}

// An update or a replacement that gives a visible document the unique key
// of a hidden one.
TEST_F(HiddenWritesTest, UpdateAndReplaceTakeTheKeyOfAHiddenDocument) {
  Collection& c = Sessions();
  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", kStart)).ok());
  ASSERT_TRUE(c.InsertOne(Doc(2, "bob", kStart)).ok());
  ASSERT_TRUE(c.InsertOne(Doc(3, "cy", kStart + absl::Seconds(100))).ok());
  ASSERT_TRUE(c.InsertOne(Doc(4, "dee", kStart + absl::Seconds(100))).ok());
  clock_.Advance(absl::Seconds(2));  // ada and bob hidden

  auto u = c.UpdateOne(R"({"_id": 3})", R"({"$set": {"user": "ada"}})");
  ASSERT_TRUE(u.ok()) << u.status();
  EXPECT_EQ(u->modified_count, 1);
  auto rep = c.ReplaceOne(R"({"_id": 4})",
                          absl::StrCat(R"({"user": "bob", "lastSeen": )",
                                       DateJson(clock_.WallNow()), "}"));
  ASSERT_TRUE(rep.ok()) << rep.status();
  EXPECT_EQ(rep->modified_count, 1);
  // A visible document still conflicts.
  auto dup = c.UpdateOne(R"({"_id": 3})", R"({"$set": {"user": "bob"}})");
  EXPECT_EQ(ErrorCode(dup.status()), kDuplicateKey) << dup.status();

  EXPECT_EQ(ToJson(*c.FindOne(R"({"user": "ada"})").value()->Get("_id")), "3");
  EXPECT_EQ(ToJson(*c.FindOne(R"({"user": "bob"})").value()->Get("_id")), "4");
  EXPECT_EQ(Stored(c), 2);
  EXPECT_EQ(Expired().size(), 2u);
  EXPECT_EQ(db_->GetTtlMetrics().deleted_documents, 2);
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
            0);
}

// The other order: the monitor deletes first, the write then collides with
// nothing, and the document is counted and reported once.
TEST_F(HiddenWritesTest, MonitorFirstThenWriteCountsOnce) {
  Collection& c = Sessions();
  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", kStart)).ok());
  clock_.Advance(absl::Seconds(2));
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
            1);
  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", clock_.WallNow())).ok());
  EXPECT_EQ(Expired().size(), 1u);
  TtlMetrics m = db_->GetTtlMetrics();
  EXPECT_EQ(m.deleted_documents, 1);
  EXPECT_EQ(m.deleted_by_writes, 0);
  EXPECT_TRUE(Valid(c));
}

// A failed write removes nothing: the hidden document stays (for the
// monitor), and is neither counted nor reported.
TEST_F(HiddenWritesTest, FailedWriteRemovesNothing) {
  Collection& c = Sessions();
  ASSERT_TRUE(c.CreateIndex(R"({"email": 1})", R"({"unique": true})").ok());
  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", kStart)).ok());
  ASSERT_TRUE(
      c.InsertOne(absl::StrCat(R"({"_id": 2, "user": "bob", "email": "x", )",
                               R"("lastSeen": )",
                               DateJson(kStart + absl::Hours(1)), "}"))
          .ok());
  clock_.Advance(absl::Seconds(2));
  // Collides with hidden ada on user (removable) and visible bob on email.
  auto r = c.InsertOne(absl::StrCat(R"({"_id": 3, "user": "ada", "email": "x",
                                        "lastSeen": )",
                                    DateJson(clock_.WallNow()), "}"));
  EXPECT_EQ(ErrorCode(r.status()), kDuplicateKey) << r.status();
  EXPECT_EQ(Stored(c), 2);
  EXPECT_TRUE(Expired().empty());
  EXPECT_EQ(db_->GetTtlMetrics().deleted_documents, 0);
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
            1);
  EXPECT_EQ(Expired().size(), 1u);
  EXPECT_TRUE(Valid(c));
}

// stats().count and estimatedDocumentCount() agree while hidden documents
// exist: both count the documents stored, as MongoDB's both read the
// collection's record count (a count without a query runs
// src/mongo/db/exec/record_store_fast_count.cpp, which returns
// numRecords(); collStats reports the same number), expired documents the
// monitor has not deleted included; CountDocuments() counts what reads
// return.
TEST_F(HiddenWritesTest, StatsCountAndEstimatedCountAgree) {
  Collection& c = Sessions();
  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", kStart)).ok());
  ASSERT_TRUE(c.InsertOne(Doc(2, "bob", kStart + absl::Hours(1))).ok());
  clock_.Advance(absl::Seconds(2));
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 2);
  EXPECT_EQ(*c.EstimatedDocumentCount(), 2);
  EXPECT_EQ(*c.CountDocuments(), 1);
  ttldb_testing::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 1);
  EXPECT_EQ(*c.EstimatedDocumentCount(), 1);
  EXPECT_EQ(*c.CountDocuments(), 1);
  EXPECT_EQ(*db_->collection("missing").EstimatedDocumentCount(), 0);
}

// hide_expired off is MongoDB's behaviour: the expired document is visible
// until the monitor deletes it, so it is a duplicate like any other.
TEST_F(HiddenWritesTest, MongoBehaviourKeepsTheDuplicate) {
  hide_expired_ = false;
  Open();
  Collection& c = Sessions();
  ASSERT_TRUE(c.InsertOne(Doc(1, "ada", kStart)).ok());
  clock_.Advance(absl::Seconds(2));
  EXPECT_EQ(ErrorCode(c.InsertOne(Doc(2, "ada", clock_.WallNow())).status()),
            kDuplicateKey);
  EXPECT_EQ(ErrorCode(c.InsertOne(Doc(1, "bob", clock_.WallNow())).status()),
            kDuplicateKey);
  EXPECT_TRUE(Expired().empty());
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
            1);
}

// The issue's second report: with the monitor running under a deletion rate
// cap, the same upsert failed with E11000 29 times in 3 s. Here a thread
// expires every session again and again (advancing the injected clock) while
// the background monitor deletes them at a capped rate and the test thread
// upserts the users in a loop: no upsert may fail, and every document ever
// written is deleted exactly once, by the monitor or by the write that
// collided with it (the listener sees each _id once; the metrics agree).
TEST(HiddenWritesConcurrencyTest, UpsertLoopWithCappedMonitorNeverFails) {
  TempDir dir;
  FakeClock clock(kStart);
  std::mutex mu;
  std::multiset<std::string> listened;
  Options options;
  options.clock = &clock;
  options.ttl_monitor_enabled = true;
  options.ttl_monitor_sleep = absl::Seconds(1);
  options.ttl_max_deletes_per_second = 400;  // real time
  options.expiry_listener = [&](absl::string_view, const Value& doc) {
    std::lock_guard<std::mutex> l(mu);
    listened.insert(ToJson(*doc.Get("_id")));
  };
  auto opened = Database::Open(dir.path(), options);
  ASSERT_TRUE(opened.ok()) << opened.status();
  std::unique_ptr<Database> db = std::move(*opened);
  Collection& c = db->collection("sessions");
  ASSERT_TRUE(
      c.CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 10})")
          .ok());
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})", R"({"unique": true})").ok());
  constexpr int kUsers = 40;
  int64_t written = 0;  // documents inserted (by InsertOne or an upsert)
  for (int u = 0; u < kUsers; ++u) {
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"user": "u)", u, R"(", "lastSeen": )",
                                 DateJson(kStart), "}"))
            .ok());
    ++written;
  }

  std::atomic<bool> stop{false};
  std::thread expirer([&] {
    // Every few ms of real time, 11 s of injected time: everything written
    // so far expires, and the monitor (sleep 1 s) is due again.
    while (!stop.load()) {
      clock.Advance(absl::Seconds(11));
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  int failures = 0;
  std::string first_failure;
  const absl::Time until = absl::Now() + absl::Milliseconds(1500);
  for (int i = 0; absl::Now() < until; ++i) {
    auto r = c.UpdateOne(absl::StrCat(R"({"user": "u)", i % kUsers, R"("})"),
                         R"({"$currentDate": {"lastSeen": true}})",
                         UpdateOptions{.upsert = true});
    if (!r.ok()) {
      if (failures++ == 0) first_failure = r.status().ToString();
      continue;
    }
    if (r->upserted_id.has_value()) ++written;
  }
  stop = true;
  expirer.join();
  EXPECT_EQ(failures, 0) << first_failure;

  // Sweep what is left, then account for every document.
  ASSERT_TRUE(db->SetTtlMonitorEnabled(false).ok());
  clock.Advance(absl::Seconds(11));
  ttldb_testing::RunTtlPass(*db, clock.WallNow());
  EXPECT_EQ(*c.EstimatedDocumentCount(), 0);
  TtlMetrics m = db->GetTtlMetrics();
  EXPECT_GT(m.deleted_by_writes, 0);
  EXPECT_LT(m.deleted_by_writes, m.deleted_documents);
  EXPECT_EQ(m.deleted_documents, written);
  std::lock_guard<std::mutex> l(mu);
  EXPECT_EQ(static_cast<int64_t>(listened.size()), written);
  for (const std::string& id : listened) {
    EXPECT_EQ(listened.count(id), 1u) << id << " reported twice";
  }
  auto v = c.Validate();
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->Get("valid")->bool_value()) << ToJson(*v);
}

}  // namespace
}  // namespace ttldb
