#include "ttl/monitor.h"

#include <chrono>
#include <limits>
#include <thread>

#include "base/sync_point.h"
#include "gtest/gtest.h"
#include "ttl/fake_ttl_store.h"
#include "ttldb/clock.h"

namespace ttldb {
namespace {

constexpr uint32_t kA = 1;
constexpr uint32_t kB = 2;
constexpr uint32_t kBad = 3;

TtlIndexRef Ref(uint32_t id, std::optional<int64_t> e) {
  TtlIndexRef ref;
  ref.collection = id == kA ? "big" : "small";
  ref.collection_id = id;
  ref.index_id = id;
  ref.index_name = "t_1";
  ref.expire_after_seconds = e;
  return ref;
}

// Options for tests of RunPass: no background thread involved.
MonitorOptions PassOptions() {
  MonitorOptions o;
  o.batch_docs_max = 50'000;
  return o;
}

// Options for tests of the thread: FakeClock time is re-read every
// millisecond, so advancing it takes effect at once.
MonitorOptions ThreadOptions() {
  MonitorOptions o;
  o.sleep = absl::Seconds(60);
  o.exact_wakeup = false;
  o.wait_slice = absl::Milliseconds(1);
  return o;
}

class MonitorTest : public ::testing::Test {
 protected:
  void TearDown() override { SyncPoint::ClearAll(); }

  FakeClock clock_;
  FakeTtlStore store_;
  const absl::Time now_ = clock_.WallNow();
};

TEST_F(MonitorTest, RoundRobinDoesNotStarveTheSmallIndex) {
  store_.AddIndex(Ref(kA, 3600));
  store_.AddIndex(Ref(kB, 60));
  // 1,000,000 expired documents in A (1000 distinct dates), 3 in B.
  for (int i = 0; i < 1000; ++i) {
    store_.AddDates(kA, now_ - absl::Hours(2) + absl::Seconds(i), 1000);
  }
  store_.AddDates(kB, now_ - absl::Minutes(5), 3);
  TtlMonitor monitor(&store_, &clock_, PassOptions());

  const TtlPassStats stats = monitor.RunPass(now_);

  const std::vector<FakeTtlStore::Call> calls = store_.calls();
  ASSERT_EQ(calls.size(), 21u);  // 20 batches of A, 1 of B
  EXPECT_EQ(calls[0].index_id, kA);
  EXPECT_EQ(calls[1].index_id, kB);  // B's turn comes in the first round
  for (size_t i = 2; i < calls.size(); ++i) EXPECT_EQ(calls[i].index_id, kA);
  for (const auto& call : calls) {
    EXPECT_EQ(call.max_docs, 50'000);
    EXPECT_EQ(call.cutoff,
              now_ - absl::Seconds(call.index_id == kA ? 3600 : 60));
    EXPECT_EQ(call.deadline, clock_.SteadyNow() + absl::Seconds(1));
  }
  // One sub-pass of 20 rounds: MongoDB counts sub-passes, each looping
  // rounds until no work is left or ttlMonitorSubPassTargetSecs (60 s) has
  // passed (src/mongo/db/ttl/ttl_test.cpp, TTLSingleSubPass).
  EXPECT_EQ(stats.sub_passes, 1);
  EXPECT_EQ(stats.rounds, 20);
  EXPECT_EQ(stats.deleted_documents, 1'000'003);
  EXPECT_EQ(stats.deleted_keys, 1'000'003);
  EXPECT_EQ(stats.invalid_index_skips, 0);
  EXPECT_EQ(stats.failed_batches, 0);
  EXPECT_EQ(store_.Remaining(kA), 0);
  EXPECT_EQ(store_.Remaining(kB), 0);

  const TtlMetrics m = monitor.metrics();
  EXPECT_EQ(m.passes, 1);
  EXPECT_EQ(m.sub_passes, 1);
  EXPECT_EQ(m.deleted_documents, 1'000'003);
  EXPECT_EQ(m.last_pass_end, clock_.WallNow());
  EXPECT_EQ(m.oldest_expired_present, std::nullopt);
}

TEST_F(MonitorTest, KeepsWhatIsNotExpiredYetInclusiveCutoff) {
  store_.AddIndex(Ref(kA, 60), /*keys_per_doc=*/3);
  store_.AddDates(kA, now_ - absl::Seconds(60), 2);  // exactly at the cutoff
  store_.AddDates(kA, now_ - absl::Seconds(59), 5);  // not yet
  TtlMonitor monitor(&store_, &clock_, PassOptions());

  const TtlPassStats stats = monitor.RunPass(now_);
  EXPECT_EQ(stats.deleted_documents, 2);
  EXPECT_EQ(stats.deleted_keys, 6);
  EXPECT_EQ(stats.sub_passes, 1);
  EXPECT_EQ(store_.Remaining(kA), 5);
  // The next expiry is known for exact wake-up.
  EXPECT_EQ(monitor.TEST_next_expiry(), now_ + absl::Seconds(1));
}

TEST_F(MonitorTest, EmptyStoreStillCountsAPass) {
  TtlMonitor monitor(&store_, &clock_, PassOptions());
  const TtlPassStats stats = monitor.RunPass(now_);
  // MongoDB's _doTTLSubPass counts a sub-pass even when it finds no work
  // (ON_BLOCK_EXIT in src/mongo/db/ttl/ttl_monitor.cpp).
  EXPECT_EQ(stats.sub_passes, 1);
  EXPECT_EQ(monitor.metrics().passes, 1);
  EXPECT_EQ(monitor.TEST_next_expiry(), std::nullopt);
}

TEST_F(MonitorTest, InvalidIndexIsSkippedAndCountedOncePerPass) {
  store_.AddIndex(Ref(kBad, std::nullopt));
  store_.AddIndex(Ref(kB, 0));
  store_.AddDates(kBad, now_ - absl::Hours(1000), 10);
  store_.AddDates(kB, now_, 1);
  TtlMonitor monitor(&store_, &clock_, PassOptions());

  EXPECT_EQ(monitor.RunPass(now_).invalid_index_skips, 1);
  EXPECT_EQ(monitor.RunPass(now_).invalid_index_skips, 1);
  EXPECT_EQ(monitor.metrics().invalid_ttl_index_skips, 2);
  EXPECT_EQ(monitor.metrics().passes, 2);
  EXPECT_EQ(store_.Remaining(kBad), 10);  // never read as 0
  EXPECT_EQ(store_.Remaining(kB), 0);
  for (const auto& call : store_.calls()) EXPECT_NE(call.index_id, kBad);
}

TEST_F(MonitorTest, FailingBatchIsCountedAndThePassContinues) {
  store_.AddIndex(Ref(kA, 10));
  store_.AddIndex(Ref(kB, 10));
  store_.AddDates(kA, now_ - absl::Hours(1), 4);
  store_.AddDates(kB, now_ - absl::Hours(1), 4);
  store_.FailBatches(kA, 1);
  TtlMonitor monitor(&store_, &clock_, PassOptions());

  TtlPassStats stats = monitor.RunPass(now_);
  EXPECT_EQ(stats.failed_batches, 1);
  EXPECT_EQ(stats.deleted_documents, 4);
  EXPECT_EQ(store_.Remaining(kA), 4);
  EXPECT_EQ(store_.Remaining(kB), 0);
  TtlMetrics m = monitor.metrics();
  EXPECT_EQ(m.failed_batches, 1);
  EXPECT_EQ(m.last_error, "UNAVAILABLE: disk on fire");
  // The failed index's expired documents are the lag.
  EXPECT_EQ(m.oldest_expired_present,
            now_ - absl::Hours(1) + absl::Seconds(10));

  // The next pass retries and succeeds.
  stats = monitor.RunPass(now_);
  EXPECT_EQ(stats.failed_batches, 0);
  EXPECT_EQ(stats.deleted_documents, 4);
  EXPECT_EQ(store_.Remaining(kA), 0);
  m = monitor.metrics();
  EXPECT_EQ(m.failed_batches, 1);
  EXPECT_EQ(m.deleted_documents, 8);
  EXPECT_EQ(m.oldest_expired_present, std::nullopt);
}

TEST_F(MonitorTest, FailureInALaterSubPassDropsOnlyThatIndex) {
  MonitorOptions o = PassOptions();
  o.batch_docs_max = 2;
  store_.AddIndex(Ref(kA, 0));
  store_.AddIndex(Ref(kB, 0));
  store_.AddDates(kA, now_, 5);
  store_.AddDates(kB, now_, 6);
  TtlMonitor monitor(&store_, &clock_, o);
  int batches = 0;
  SyncPoint::Set("TtlMonitor::BeforeBatch", [&] {
    if (++batches == 3) store_.FailBatches(kA, -1);  // A's second visit
  });
  const TtlPassStats stats = monitor.RunPass(now_);
  EXPECT_EQ(stats.failed_batches, 1);
  EXPECT_EQ(stats.rounds, 3);  // B needs 3 rounds of 2
  EXPECT_EQ(stats.sub_passes, 1);
  EXPECT_EQ(store_.Remaining(kA), 3);
  EXPECT_EQ(store_.Remaining(kB), 0);
}

TEST_F(MonitorTest, StopInterruptsAPassBetweenBatches) {
  store_.AddIndex(Ref(kA, 0));
  store_.AddIndex(Ref(kB, 0));
  store_.AddDates(kA, now_, 1'000'000);
  store_.AddDates(kB, now_, 3);
  TtlMonitor monitor(&store_, &clock_, PassOptions());
  SyncPoint::Set("TtlMonitor::BeforeBatch", [&] { monitor.Stop(); });
  monitor.RunPass(now_);
  EXPECT_EQ(store_.calls().size(), 1u);
  // After Stop the store is never touched again.
  const int64_t lists = store_.list_calls();
  EXPECT_EQ(monitor.RunPass(now_).deleted_documents, 0);
  EXPECT_EQ(store_.list_calls(), lists);
}

TEST_F(MonitorTest, RateCapLimitsBatchesAndSpacesThem) {
  MonitorOptions o = PassOptions();
  o.batch_docs_max = 100;
  o.max_deletes_per_second = 10'000;  // 100 docs: 10 ms between batches
  store_.AddIndex(Ref(kA, 0));
  store_.AddDates(kA, now_, 250);
  TtlMonitor monitor(&store_, &clock_, o);
  const auto start = std::chrono::steady_clock::now();
  const TtlPassStats stats = monitor.RunPass(now_);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(stats.deleted_documents, 250);
  ASSERT_EQ(store_.calls().size(), 3u);
  for (const auto& call : store_.calls()) EXPECT_EQ(call.max_docs, 100);
  // Batches 2 and 3 each waited for the previous one's 10 ms.
  EXPECT_GE(elapsed, std::chrono::milliseconds(19));
}

TEST_F(MonitorTest, PassesAreSerialized) {
  MonitorOptions o = PassOptions();
  o.batch_docs_max = 1;
  store_.AddIndex(Ref(kA, 0));
  store_.AddIndex(Ref(kB, 0));
  TtlMonitor monitor(&store_, &clock_, o);
  auto work = [&] {
    for (int i = 0; i < 50; ++i) {
      store_.AddDates(kA, now_, 3);
      store_.AddDates(kB, now_, 2);
      monitor.RunPass(now_);
    }
  };
  std::thread t1(work), t2(work);
  t1.join();
  t2.join();
  EXPECT_EQ(store_.max_concurrent_batches(), 1);
  EXPECT_EQ(monitor.metrics().passes, 100);
  EXPECT_EQ(monitor.metrics().deleted_documents, 500);
}

TEST_F(MonitorTest, ValidateOptions) {
  EXPECT_TRUE(TtlMonitor::ValidateOptions(MonitorOptions()).ok());
  MonitorOptions o;
  o.sleep = absl::ZeroDuration();
  EXPECT_EQ(TtlMonitor::ValidateOptions(o).code(),
            absl::StatusCode::kInvalidArgument);
  // 0 is unlimited, as MongoDB's ttlIndexDeleteTargetDocs /
  // ttlIndexDeleteTargetTimeMS (src/mongo/db/ttl/ttl.idl: validator gte 0).
  o = MonitorOptions();
  o.batch_docs_max = 0;
  o.batch_time_max = absl::ZeroDuration();
  o.sub_pass_target = absl::ZeroDuration();
  EXPECT_TRUE(TtlMonitor::ValidateOptions(o).ok());
  o.batch_docs_max = -1;
  EXPECT_FALSE(TtlMonitor::ValidateOptions(o).ok());
  o = MonitorOptions();
  o.batch_time_max = absl::Milliseconds(-1);
  EXPECT_FALSE(TtlMonitor::ValidateOptions(o).ok());
  o = MonitorOptions();
  o.sub_pass_target = absl::Seconds(-1);
  EXPECT_FALSE(TtlMonitor::ValidateOptions(o).ok());
  o = MonitorOptions();
  o.max_deletes_per_second = -1;
  EXPECT_FALSE(TtlMonitor::ValidateOptions(o).ok());
}

// MongoDB's ttl_test.cpp TTLSubPassesRemoveExpiredDocuments: with
// ttlMonitorSubPassTargetSecs 0 each sub-pass is one round, 20 documents per
// index (ttlIndexDeleteTargetDocs 20, ttlIndexDeleteTargetTimeMS 0), so
// 59 documents on x and 1 on y take 3 sub-passes.
TEST_F(MonitorTest, SubPassTargetZeroMakesEveryRoundASubPass) {
  MonitorOptions o = PassOptions();
  o.batch_docs_max = 20;
  o.batch_time_max = absl::ZeroDuration();
  o.sub_pass_target = absl::ZeroDuration();
  store_.AddIndex(Ref(kA, 1));
  store_.AddIndex(Ref(kB, 1));
  store_.AddDates(kA, now_ - absl::Minutes(1), 20 * 3 - 1);
  store_.AddDates(kB, now_ - absl::Minutes(1), 1);
  TtlMonitor monitor(&store_, &clock_, o);
  const TtlPassStats stats = monitor.RunPass(now_);
  EXPECT_EQ(stats.sub_passes, 3);
  EXPECT_EQ(stats.rounds, 3);
  EXPECT_EQ(store_.list_calls(), 3);  // each sub-pass lists the indexes
  EXPECT_EQ(stats.deleted_documents, 60);
  for (const auto& call : store_.calls()) {
    EXPECT_EQ(call.max_docs, 20);
    EXPECT_EQ(call.deadline, absl::InfiniteFuture());  // 0: unlimited time
  }
  EXPECT_EQ(monitor.metrics().sub_passes, 3);
}

TEST_F(MonitorTest, RunTimeParametersApplyFromTheNextBatch) {
  store_.AddIndex(Ref(kA, 0));
  store_.AddDates(kA, now_, 100);
  TtlMonitor monitor(&store_, &clock_, PassOptions());
  EXPECT_FALSE(monitor.SetBatchDocsMax(-1).ok());
  EXPECT_FALSE(monitor.SetBatchTimeMax(absl::Milliseconds(-1)).ok());
  EXPECT_FALSE(monitor.SetSubPassTarget(absl::Seconds(-1)).ok());
  EXPECT_EQ(monitor.batch_docs_max(), 50'000);  // unchanged
  ASSERT_TRUE(monitor.SetBatchDocsMax(30).ok());
  EXPECT_EQ(monitor.RunPass(now_).rounds, 4);  // 30 + 30 + 30 + 10
  // 0: unlimited; batching off: no limits at all.
  store_.AddDates(kA, now_, 100);
  ASSERT_TRUE(monitor.SetBatchDocsMax(0).ok());
  EXPECT_EQ(monitor.RunPass(now_).rounds, 1);
  store_.AddDates(kA, now_, 100);
  ASSERT_TRUE(monitor.SetBatchDocsMax(30).ok());
  monitor.SetBatchDeletes(false);
  EXPECT_FALSE(monitor.batch_deletes());
  EXPECT_EQ(monitor.RunPass(now_).rounds, 1);
  EXPECT_EQ(store_.calls().back().max_docs,
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(store_.calls().back().deadline, absl::InfiniteFuture());
  EXPECT_EQ(store_.Remaining(kA), 0);
}

// The emergency brake (issue 13): expireAfterSeconds is re-read before every
// batch, as MongoDB's _deleteExpiredWithIndex re-reads the index spec
// (src/mongo/db/ttl/ttl_monitor.cpp).
TEST_F(MonitorTest, ExpireAfterSecondsIsReReadBeforeEveryBatch) {
  MonitorOptions o = PassOptions();
  o.batch_docs_max = 10;
  store_.AddIndex(Ref(kA, 60));
  store_.AddDates(kA, now_ - absl::Minutes(5), 100);
  TtlMonitor monitor(&store_, &clock_, o);
  int batches = 0;
  SyncPoint::Set("TtlMonitor::BeforeBatch", [&] {
    if (++batches == 3) store_.SetExpireAfterSeconds(kA, 3600);
  });
  const TtlPassStats stats = monitor.RunPass(now_);
  EXPECT_EQ(stats.deleted_documents, 20);
  EXPECT_EQ(store_.Remaining(kA), 80);
  const std::vector<FakeTtlStore::Call> calls = store_.calls();
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[2].cutoff, now_ - absl::Seconds(3600));
}

TEST_F(MonitorTest, ASpecChangedUnderTheBatchIsRetriedWithTheNewValue) {
  MonitorOptions o = PassOptions();
  o.batch_docs_max = 10;
  store_.AddIndex(Ref(kA, 60));
  store_.AddDates(kA, now_ - absl::Minutes(5), 30);
  TtlMonitor monitor(&store_, &clock_, o);
  // The collMod lands between the monitor's read and the store's batch:
  // the store refuses the stale cutoff and the monitor retries.
  bool changed = false;
  SyncPoint::Set("TtlMonitor::SpecRead", [&] {
    if (!changed) store_.SetExpireAfterSeconds(kA, 120);
    changed = true;
  });
  const TtlPassStats stats = monitor.RunPass(now_);
  EXPECT_EQ(stats.deleted_documents, 30);
  const std::vector<FakeTtlStore::Call> calls = store_.calls();
  ASSERT_GE(calls.size(), 2u);
  EXPECT_EQ(calls[0].cutoff, now_ - absl::Seconds(60));  // refused
  for (size_t i = 1; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].cutoff, now_ - absl::Seconds(120));
  }
}

TEST_F(MonitorTest, ADroppedIndexStopsWithinOneBatch) {
  MonitorOptions o = PassOptions();
  o.batch_docs_max = 10;
  store_.AddIndex(Ref(kA, 60));
  store_.AddDates(kA, now_ - absl::Minutes(5), 100);
  TtlMonitor monitor(&store_, &clock_, o);
  int batches = 0;
  SyncPoint::Set("TtlMonitor::BeforeBatch", [&] {
    if (++batches == 2) store_.RemoveIndex(kA);
  });
  EXPECT_EQ(monitor.RunPass(now_).deleted_documents, 10);
  EXPECT_EQ(store_.calls().size(), 1u);
}

// --- The background thread, on a FakeClock ---

TEST_F(MonitorTest, ThreadWaitsForTheSleepOnTheSteadyClock) {
  store_.AddIndex(Ref(kA, 0));
  store_.AddDates(kA, now_ - absl::Hours(1), 1);
  TtlMonitor monitor(&store_, &clock_, ThreadOptions());
  ASSERT_TRUE(monitor.Start().ok());
  // A wall-clock jump does not end the sleep; only steady time does.
  clock_.SetWall(now_ + absl::Hours(24));
  clock_.Advance(absl::Seconds(59));
  EXPECT_FALSE(monitor.TEST_WaitForBackgroundPasses(1, absl::Milliseconds(10)));
  EXPECT_EQ(store_.Remaining(kA), 1);
  clock_.Advance(absl::Seconds(1));
  ASSERT_TRUE(monitor.TEST_WaitForBackgroundPasses(1, absl::Seconds(5)));
  EXPECT_EQ(store_.Remaining(kA), 0);
  EXPECT_EQ(monitor.metrics().passes, 1);
  // The next sleep is measured from the end of that pass.
  clock_.Advance(absl::Seconds(59));
  EXPECT_FALSE(monitor.TEST_WaitForBackgroundPasses(2, absl::Milliseconds(5)));
  clock_.Advance(absl::Seconds(1));
  ASSERT_TRUE(monitor.TEST_WaitForBackgroundPasses(2, absl::Seconds(5)));
  monitor.Stop();
}

TEST_F(MonitorTest, SetSleepWakesTheThreadAtOnce) {
  MonitorOptions o = ThreadOptions();
  o.sleep = absl::Hours(1);
  o.wait_slice = absl::Hours(1);  // only a signal can wake it
  TtlMonitor monitor(&store_, &clock_, o);
  ASSERT_TRUE(monitor.Start().ok());
  clock_.Advance(absl::Seconds(2));
  EXPECT_EQ(monitor.SetSleep(absl::ZeroDuration()).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(monitor.SetSleep(absl::Seconds(-1)).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(monitor.SetSleep(absl::Seconds(1)).ok());
  EXPECT_TRUE(monitor.TEST_WaitForBackgroundPasses(1, absl::Seconds(5)));
  monitor.Stop();
}

TEST_F(MonitorTest, DisabledMeansNoPasses) {
  MonitorOptions o = ThreadOptions();
  o.sleep = absl::Seconds(1);
  o.enabled = false;
  TtlMonitor monitor(&store_, &clock_, o);
  ASSERT_TRUE(monitor.Start().ok());
  clock_.Advance(absl::Seconds(10));
  EXPECT_FALSE(monitor.TEST_WaitForBackgroundPasses(1, absl::Milliseconds(10)));
  EXPECT_EQ(monitor.metrics().passes, 0);
  // RunPass still works while disabled.
  monitor.RunPass(clock_.WallNow());
  EXPECT_EQ(monitor.metrics().passes, 1);
  clock_.Advance(absl::Seconds(10));
  monitor.SetEnabled(true);
  EXPECT_TRUE(monitor.TEST_WaitForBackgroundPasses(1, absl::Seconds(5)));
  monitor.Stop();
}

TEST_F(MonitorTest, StopJoinsPromptlyAndIsIdempotent) {
  MonitorOptions o = ThreadOptions();
  o.wait_slice = absl::Hours(1);
  TtlMonitor monitor(&store_, &clock_, o);
  monitor.Stop();                     // before Start: fine
  ASSERT_TRUE(monitor.Start().ok());  // after Stop: no thread
  TtlMonitor other(&store_, &clock_, o);
  ASSERT_TRUE(other.Start().ok());
  const auto start = std::chrono::steady_clock::now();
  other.Stop();
  other.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start,
            std::chrono::milliseconds(500));
  EXPECT_EQ(other.TEST_background_passes(), 0);
}

TEST_F(MonitorTest, ExactWakeupRunsAtTheNextExpiry) {
  MonitorOptions o = ThreadOptions();
  o.sleep = absl::Hours(1);
  o.exact_wakeup = true;
  o.min_interval = absl::Milliseconds(100);
  store_.AddIndex(Ref(kB, 60));
  // Expires 5 s from now.
  store_.AddDates(kB, now_ - absl::Seconds(55), 1);
  TtlMonitor monitor(&store_, &clock_, o);
  ASSERT_TRUE(monitor.Start().ok());
  clock_.Advance(absl::Seconds(4));
  EXPECT_FALSE(monitor.TEST_WaitForBackgroundPasses(1, absl::Milliseconds(10)));
  clock_.Advance(absl::Seconds(1));
  ASSERT_TRUE(monitor.TEST_WaitForBackgroundPasses(1, absl::Seconds(5)));
  EXPECT_EQ(store_.Remaining(kB), 0);
  monitor.Stop();
}

TEST_F(MonitorTest, NotifyExpiryPullsTheNextPassEarlier) {
  MonitorOptions o = ThreadOptions();
  o.sleep = absl::Hours(1);
  o.exact_wakeup = true;
  o.wait_slice = absl::Hours(1);  // only signals wake it
  store_.AddIndex(Ref(kB, 0));
  TtlMonitor monitor(&store_, &clock_, o);
  ASSERT_TRUE(monitor.Start().ok());
  // Let the thread finish its start-up scan (nothing is due).
  clock_.Advance(absl::Seconds(30));
  store_.AddDates(kB, clock_.WallNow(), 1);
  monitor.NotifyExpiry(clock_.WallNow());
  ASSERT_TRUE(monitor.TEST_WaitForBackgroundPasses(1, absl::Seconds(5)));
  EXPECT_EQ(store_.Remaining(kB), 0);
  monitor.Stop();
}

}  // namespace
}  // namespace ttldb
