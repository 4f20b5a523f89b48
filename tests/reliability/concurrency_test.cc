// Several threads insert, touch ($currentDate and Collection::Touch), read
// and delete documents while TTL passes run (both DatabaseInternal::RunTtlPass
// from a thread that advances a FakeClock and the background monitor), checked
// against a shadow model:
//  - no document is deleted unless it could have been expired: its last
//    acknowledged accessTime is at least E before the clock;
//  - at quiescence, after two passes, no expired document survives and every
//    unexpired one is present with the value its owner last wrote;
//  - a document read by _id is also found through each of its indexes (and
//    carries exactly the fields the index scan matched);
//  - Validate() is clean at the end of every round.
// Each worker owns a disjoint range of _ids, so apart from TTL deletions it
// knows the exact state of its documents.
#include <atomic>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "base/status.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

constexpr int kWorkers = 4;
constexpr int kRounds = 3;
constexpr int kOpsPerWorkerPerRound = 600;
const absl::Duration kExpireAfter = absl::Seconds(5);
const absl::Duration kPassStep = absl::Seconds(1);

// What a worker knows about one of its documents.
struct Shadow {
  bool present = false;       // inserted and not deleted by the worker
  bool user_deleted = false;  // deleted by the worker (must stay absent)
  bool ttl_gone = false;      // observed gone: a TTL deletion
  absl::Time a_lower;         // accessTime >= this
  absl::Time a_upper;         // accessTime <= this
  int64_t v = 0;              // exact value of "v"
};

class ConcurrencyTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    Options options;
    options.clock = &clock_;
    options.hide_expired = GetParam();
    options.ttl_monitor_enabled = true;  // background passes too
    options.ttl_monitor_sleep = kPassStep;
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    Collection& c = db_->collection("sessions");
    ASSERT_TRUE(
        c.CreateIndex(R"({"accessTime": 1})",
                      absl::StrCat(R"({"expireAfterSeconds": )",
                                   absl::ToInt64Seconds(kExpireAfter), "}"))
            .ok());
    ASSERT_TRUE(c.CreateIndex(R"({"v": 1})").ok());
  }

  // A worker found document `id` gone although it never deleted it: that
  // is only legal if its accessTime was expired by the clock now.
  void CheckGoneIsLegal(int64_t id, const Shadow& s) {
    const absl::Time now = clock_.WallNow();
    EXPECT_LE(s.a_lower + kExpireAfter, now)
        << "document " << id << " touched at >= " << s.a_lower
        << " vanished at clock " << now << " (not expired)";
  }

  // Reads document `id` by _id and through both indexes. Only the owner
  // writes it, so the only concurrent change is a TTL deletion.
  void CheckRead(Collection& c, int64_t id, Shadow& s) {
    auto doc = c.FindById(Value::Int64(id));
    if (!doc.ok()) {
      ASSERT_TRUE(absl::IsNotFound(doc.status())) << doc.status();
      EXPECT_FALSE(s.present && !s.ttl_gone && !s.user_deleted &&
                   s.a_lower + kExpireAfter > clock_.WallNow())
          << "document " << id << " missing but not expired";
      if (s.present) s.ttl_gone = true;
      return;
    }
    ASSERT_FALSE(s.user_deleted) << "deleted document " << id << " is back";
    ASSERT_TRUE(s.present && !s.ttl_gone) << "unexpected document " << id;
    const Value* at = doc->Get("accessTime");
    const Value* v = doc->Get("v");
    ASSERT_TRUE(at != nullptr && at->is_date()) << ToJson(*doc);
    ASSERT_TRUE(v != nullptr) << ToJson(*doc);
    EXPECT_EQ(v->int64_value(), s.v) << ToJson(*doc);
    const absl::Time a = absl::FromUnixMillis(at->date_millis());
    EXPECT_GE(a, s.a_lower) << id;
    EXPECT_LE(a, s.a_upper) << id;

    // The same document through each index.
    const std::string by_time = absl::StrCat(
        R"({"_id": )", id, R"(, "accessTime": )", DateJson(a), "}");
    const std::string by_v =
        absl::StrCat(R"({"_id": )", id, R"(, "v": )", s.v, "}");
    for (const auto& [filter, hint] :
         {std::pair<std::string, std::string>{by_time, "accessTime_1"},
          std::pair<std::string, std::string>{by_v, "v_1"}}) {
      FindOptions fo;
      fo.hint = hint;
      auto cursor = c.Find(filter, fo);
      ASSERT_TRUE(cursor.ok()) << cursor.status();
      auto docs = (*cursor)->ToVector();
      ASSERT_TRUE(docs.ok()) << docs.status();
      if (docs->size() == 1) continue;
      ASSERT_TRUE(docs->empty()) << filter;
      // Only a TTL deletion since the first read may explain it.
      auto again = c.FindById(Value::Int64(id));
      EXPECT_TRUE(absl::IsNotFound(again.status()))
          << "document " << id << " present but not found through " << hint;
      CheckGoneIsLegal(id, s);
      s.ttl_gone = true;
      return;
    }
  }

  void Worker(int w, int round, std::map<int64_t, Shadow>* shadows,
              int64_t* next_id) {
    Collection& c = db_->collection("sessions");
    std::mt19937 rng(w * 7919 + round);
    std::vector<int64_t> live;
    for (auto& [id, s] : *shadows) {
      if (s.present && !s.ttl_gone && !s.user_deleted) live.push_back(id);
    }
    for (int op = 0; op < kOpsPerWorkerPerRound; ++op) {
      if (::testing::Test::HasFatalFailure()) return;
      const int dice = rng() % 100;
      if (live.size() < 8 || dice < 20) {  // insert
        const int64_t id = (*next_id)++;
        const absl::Time a = clock_.WallNow();
        auto r =
            c.InsertOne(absl::StrCat(R"({"_id": )", id, R"(, "accessTime": )",
                                     DateJson(a), R"(, "v": 0})"));
        ASSERT_TRUE(r.ok()) << r.status();
        Shadow& s = (*shadows)[id];
        s.present = true;
        s.a_lower = s.a_upper = a;
        live.push_back(id);
        continue;
      }
      const size_t pick = rng() % live.size();
      const int64_t id = live[pick];
      Shadow& s = (*shadows)[id];
      const std::string filter = absl::StrCat(R"({"_id": )", id, "}");
      const absl::Time before = clock_.WallNow();
      bool gone = false;
      if (dice < 45) {  // $currentDate + $inc
        auto r = c.UpdateOne(
            filter,
            R"({"$currentDate": {"accessTime": true}, "$inc": {"v": 1}})");
        ASSERT_TRUE(r.ok()) << r.status();
        if (r->matched_count == 1) {
          s.v++;
          s.a_lower = before;
          s.a_upper = clock_.WallNow();
        } else {
          gone = true;
        }
      } else if (dice < 65) {  // Touch
        auto r = c.Touch(filter, "accessTime");
        ASSERT_TRUE(r.ok()) << r.status();
        if (r->matched_count == 1) {
          if (r->modified_count == 1) s.a_lower = before;
          s.a_upper = clock_.WallNow();
        } else {
          gone = true;
        }
      } else if (dice < 72) {  // delete
        auto r = c.DeleteOne(filter);
        ASSERT_TRUE(r.ok()) << r.status();
        if (*r == 1) {
          s.user_deleted = true;
          s.present = false;
        } else {
          gone = true;
        }
      } else {  // read
        CheckRead(c, id, s);
        if (s.ttl_gone) gone = true;
      }
      if (gone) {
        CheckGoneIsLegal(id, s);
        s.ttl_gone = true;
      }
      if (gone || s.user_deleted) {
        live[pick] = live.back();
        live.pop_back();
      }
    }
  }

  TempDir dir_;
  FakeClock clock_;
  std::unique_ptr<Database> db_;
};

TEST_P(ConcurrencyTest, ShadowModelHoldsUnderConcurrentTtlPasses) {
  Collection& c = db_->collection("sessions");
  std::vector<std::map<int64_t, Shadow>> shadows(kWorkers);
  std::vector<int64_t> next_id(kWorkers);
  for (int w = 0; w < kWorkers; ++w) next_id[w] = int64_t{w} * 1'000'000;

  for (int round = 0; round < kRounds; ++round) {
    std::atomic<bool> stop{false};
    std::atomic<int64_t> passes{0};
    std::thread passer([&] {
      while (!stop.load()) {
        clock_.Advance(kPassStep);
        TtlPassStats st = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
        EXPECT_EQ(st.failed_batches, 0);
        passes++;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
    std::vector<std::thread> workers;
    for (int w = 0; w < kWorkers; ++w) {
      workers.emplace_back(
          [&, w] { Worker(w, round, &shadows[w], &next_id[w]); });
    }
    for (auto& t : workers) t.join();
    stop = true;
    passer.join();
    ASSERT_FALSE(HasFailure());
    EXPECT_GT(passes.load(), 0);

    // Quiescent: two passes, then every expired document is gone and every
    // unexpired one is exactly as its owner left it.
    const absl::Time now = clock_.WallNow();
    DatabaseInternal::RunTtlPass(*db_, now);
    DatabaseInternal::RunTtlPass(*db_, now);
    const absl::Time cutoff = now - kExpireAfter;
    int64_t alive = 0, expired = 0;
    for (int w = 0; w < kWorkers; ++w) {
      for (auto& [id, s] : shadows[w]) {
        auto doc = c.FindById(Value::Int64(id));
        if (s.user_deleted || s.ttl_gone) {
          EXPECT_TRUE(absl::IsNotFound(doc.status())) << id;
          continue;
        }
        if (s.a_upper <= cutoff) {
          EXPECT_TRUE(absl::IsNotFound(doc.status()))
              << "expired document " << id << " survived two passes";
          s.ttl_gone = true;
          ++expired;
        } else if (s.a_lower > cutoff) {
          ASSERT_TRUE(doc.ok()) << "unexpired document " << id << " lost";
          EXPECT_EQ(doc->Get("v")->int64_value(), s.v);
          ++alive;
        } else if (!doc.ok()) {
          s.ttl_gone = true;
        }
      }
    }
    // Nothing stored is expired (a raw count, ignoring hiding).
    auto stats = c.Stats();
    ASSERT_TRUE(stats.ok());
    auto raw = c.CountDocuments(
        absl::StrCat(R"({"accessTime": {"$lte": )", DateJson(cutoff), "}}"));
    ASSERT_TRUE(raw.ok()) << raw.status();
    EXPECT_EQ(*raw, 0);
    auto v = c.Validate();
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_TRUE(v->Get("valid")->bool_value()) << ToJson(*v);
    RecordProperty(absl::StrCat("round", round, "_alive"), alive);
    RecordProperty(absl::StrCat("round", round, "_expired"), expired);
  }
  TtlMetrics m = db_->GetTtlMetrics();
  EXPECT_GT(m.deleted_documents, 0);
  EXPECT_EQ(m.failed_batches, 0);
}

INSTANTIATE_TEST_SUITE_P(HideExpired, ConcurrencyTest, ::testing::Bool(),
                         [](const auto& info) {
                           return info.param ? "Hidden" : "Visible";
                         });

}  // namespace
}  // namespace ttldb
