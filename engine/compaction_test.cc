// The engine's background compaction thread (DbImpl::ScheduleCompaction),
// and the compaction of what a big TTL pass swept, on that thread after the
// pass (in the pass without hide_expired) (Options::ttl_compact_after_deletes;
// issue 19).
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

const absl::Time kStart = kTestStart;

std::unique_ptr<Database> OpenDb(const std::string& path, Clock* clock,
                                 int64_t compact_after = 20'000) {
  Options options;
  options.clock = clock;
  options.ttl_compact_after_deletes = compact_after;
  options.ttl_monitor_enabled = false;
  auto db = Database::Open(path, options);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

TEST(CompactionTest, ScheduleWaitAndCloseWithQueuedRanges) {
  TempDir dir;
  FakeClock clock(kStart);
  auto db = OpenDb(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  DbImpl* engine = DatabaseInternal::engine(*db);
  engine->WaitForCompactions();  // nothing queued: returns
  for (int i = 0; i < 50; ++i) {
    engine->ScheduleCompaction(absl::StrCat("I", i), absl::StrCat("I", i, "~"));
  }
  engine->WaitForCompactions();
  // Queued ranges are dropped at Close, which does not hang.
  for (int i = 0; i < 50; ++i) {
    engine->ScheduleCompaction(absl::StrCat("D", i), absl::StrCat("D", i, "~"));
  }
  EXPECT_TRUE(db->Close().ok());
  engine->ScheduleCompaction("a", "b");  // after Close: ignored
}

// LevelDB's estimate of the bytes its tables hold for [begin, end): the
// deleted documents' tombstones and shadowed values count until a
// compaction drops them.
uint64_t TableBytes(Database& db, const std::string& begin,
                    const std::string& end) {
  leveldb::Range r(begin, end);
  uint64_t size = 0;
  DatabaseInternal::engine(db)->db()->GetApproximateSizes(&r, 1, &size);
  return size;
}

// 21,000 expired documents (above the default threshold) and one live one,
// in LevelDB's tables; then one pass at kStart. Returns the table bytes of
// the documents and of the indexes before and after the pass.
struct Sizes {
  uint64_t docs_before, docs_after, index_before, index_after;
};
Sizes SweepBig(Database& db) {
  Collection& c = db.collection("s");
  EXPECT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  const std::string old = DateJson(kStart - absl::Hours(1));
  constexpr int kDocs = 21'000;
  for (int i = 0; i < kDocs; ++i) {
    EXPECT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "at": )", old,
                                         R"(, "pad": "0123456789abcdef"})"))
                    .ok());
  }
  EXPECT_TRUE(c.InsertOne(R"({"_id": "live"})").ok());
  DatabaseInternal::engine(db)->db()->CompactRange(nullptr, nullptr);
  Sizes s;
  s.docs_before = TableBytes(db, "D", "E");
  s.index_before = TableBytes(db, "I", "J");
  TtlPassStats stats = DatabaseInternal::RunTtlPass(db, kStart);
  EXPECT_EQ(stats.deleted_documents, kDocs);
  // With hide_expired (the default) the compaction runs on the compaction
  // thread after the pass returns.
  DatabaseInternal::engine(db)->WaitForCompactions();
  s.docs_after = TableBytes(db, "D", "E");
  s.index_after = TableBytes(db, "I", "J");
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 1);
  auto v = c.Validate();
  EXPECT_TRUE(v.ok() && v->Get("valid")->bool_value());
  return s;
}

TEST(CompactionTest, BigSweepCompactsWhatItSwept) {
  TempDir dir;
  FakeClock clock(kStart);
  auto db = OpenDb(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Sizes s = SweepBig(*db);
  // All the documents but one expired: one run, compacted.
  EXPECT_EQ(DatabaseInternal::engine(*db)->TtlCompactions().document_runs, 1);
  EXPECT_GT(s.docs_before, 100'000u);
  EXPECT_GT(s.index_before, 50'000u);
  // The swept documents and index entries are gone from the tables.
  EXPECT_LT(s.docs_after, s.docs_before / 20)
      << s.docs_before << " -> " << s.docs_after;
  EXPECT_LT(s.index_after, s.index_before / 20)
      << s.index_before << " -> " << s.index_after;
  // Writes and a second pass work after compacting.
  Collection& c = db->collection("s");
  ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": "x", "at": )",
                                       DateJson(kStart - absl::Hours(1)), "}"))
                  .ok());
  DatabaseInternal::RunTtlPass(*db, kStart);
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 1);
  EXPECT_TRUE(db->Close().ok());
}

// The pass compacts the expired range of the TTL index, and of the
// documents only the runs of deleted keys with no live key between them
// (engine/ttl_sweep.cc, DbImpl::CompactSwept). Observed through the
// engine's counters, not timing.

// Time-ordered _ids (as ObjectIds): the expired documents are the lowest
// _ids, a prefix of the collection where a collection scan starts. The run
// is compacted: its tombstones and shadowed documents leave the tables.
TEST(CompactionTest, TimeOrderedIdsCompactTheRunOfDeletedDocuments) {
  TempDir dir;
  FakeClock clock(kStart);
  auto db = OpenDb(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  constexpr int kExpired = 21'000, kLive = 21'000;
  for (int i = 0; i < kExpired + kLive; ++i) {
    // Dates grow with the _id; the first kExpired are an hour old.
    const absl::Time at = i < kExpired
                              ? kStart - absl::Hours(1) + absl::Milliseconds(i)
                              : kStart + absl::Milliseconds(i);
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "at": )", DateJson(at),
                                 R"(, "pad": "0123456789abcdef"})"))
            .ok());
  }
  DbImpl* engine = DatabaseInternal::engine(*db);
  engine->db()->CompactRange(nullptr, nullptr);
  const uint64_t docs_before = TableBytes(*db, "D", "E");
  TtlPassStats stats = DatabaseInternal::RunTtlPass(*db, kStart);
  engine->WaitForCompactions();
  EXPECT_EQ(stats.deleted_documents, kExpired);
  const DbImpl::TtlCompactionCounts n = engine->TtlCompactions();
  EXPECT_EQ(n.index_ranges, 1);
  EXPECT_EQ(n.document_runs, 1);
  // About half the documents' bytes left with the run.
  const uint64_t docs_after = TableBytes(*db, "D", "E");
  EXPECT_LT(docs_after, docs_before * 6 / 10)
      << docs_before << " -> " << docs_after;
  EXPECT_GT(docs_after, docs_before * 3 / 10)
      << docs_before << " -> " << docs_after;
  // The first live document is where a collection scan starts.
  auto cursor = c.Find("{}");
  ASSERT_TRUE(cursor.ok());
  auto first = (*cursor)->Next();
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ((*first)->Get("_id")->int64_value(), kExpired);
  EXPECT_TRUE(db->Close().ok());
}

// _ids unrelated to the dates: every other document expired, so each
// deleted key has live neighbours. No run: the documents' range is not
// compacted (that would rewrite every live document for nothing); the
// samples were checked, and the TTL index range still is compacted.
TEST(CompactionTest, InterleavedDeletionsDoNotCompactTheDocuments) {
  TempDir dir;
  FakeClock clock(kStart);
  auto db = OpenDb(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  constexpr int kDocs = 42'000;
  for (int i = 0; i < kDocs; ++i) {
    const absl::Time at = i % 2 == 0 ? kStart - absl::Hours(1) : kStart;
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "at": )", DateJson(at),
                                 R"(, "pad": "0123456789abcdef"})"))
            .ok());
  }
  DbImpl* engine = DatabaseInternal::engine(*db);
  engine->db()->CompactRange(nullptr, nullptr);
  const uint64_t index_before = TableBytes(*db, "I", "J");
  TtlPassStats stats = DatabaseInternal::RunTtlPass(*db, kStart);
  engine->WaitForCompactions();
  EXPECT_EQ(stats.deleted_documents, kDocs / 2);
  const DbImpl::TtlCompactionCounts n = engine->TtlCompactions();
  EXPECT_EQ(n.index_ranges, 1);
  EXPECT_EQ(n.document_runs, 0);
  // One sample per 64 deleted documents, each checked.
  EXPECT_GE(n.samples_checked, kDocs / 2 / 64 - 1);
  // The expired half of the index left the tables.
  EXPECT_LT(TableBytes(*db, "I", "J"), index_before * 7 / 10);
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), kDocs / 2);
  auto v = c.Validate();
  EXPECT_TRUE(v.ok() && v->Get("valid")->bool_value());
  EXPECT_TRUE(db->Close().ok());
}

// Options for the tests below.
std::unique_ptr<Database> OpenWithHide(const std::string& path, Clock* clock,
                                       bool hide_expired) {
  Options options;
  options.clock = clock;
  options.ttl_monitor_enabled = false;
  options.hide_expired = hide_expired;
  auto db = Database::Open(path, options);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

// 21,000 expired documents, then a pass while the compaction thread is
// busy (a task that waits for `release`). Returns the swept index ranges
// compacted when the pass returned.
int64_t CompactedWhenThePassReturns(Database& db, absl::Notification* release) {
  Collection& c = db.collection("s");
  EXPECT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  const std::string old = DateJson(kStart - absl::Hours(1));
  for (int i = 0; i < 21'000; ++i) {
    EXPECT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "at": )", old, "}"))
            .ok());
  }
  DbImpl* engine = DatabaseInternal::engine(db);
  engine->ScheduleCompactionTask([release] { release->WaitForNotification(); });
  EXPECT_EQ(DatabaseInternal::RunTtlPass(db, kStart).deleted_documents, 21'000);
  return engine->TtlCompactions().index_ranges;
}

// With hide_expired (the default), the pass leaves its compaction to the
// compaction thread (issue 19: it was most of the pass); queries skip the
// swept range meanwhile (tests/leading_entries_test.cc). Writers and a
// second pass do not wait for it either; Close waits for a running one.
TEST(CompactionTest, ThePassDoesNotWaitForItsCompaction) {
  TempDir dir;
  FakeClock clock(kStart);
  auto db = OpenWithHide(dir.path(), &clock, true);
  ASSERT_NE(db, nullptr);
  absl::Notification release;
  EXPECT_EQ(CompactedWhenThePassReturns(*db, &release), 0);
  Collection& c = db->collection("s");
  ASSERT_TRUE(c.InsertOne(R"({"_id": "w"})").ok());
  EXPECT_EQ(DatabaseInternal::RunTtlPass(*db, kStart).deleted_documents, 0);
  release.Notify();
  DbImpl* engine = DatabaseInternal::engine(*db);
  engine->WaitForCompactions();
  EXPECT_EQ(engine->TtlCompactions().index_ranges, 1);
  EXPECT_EQ(c.Stats()->Get("count")->int64_value(), 1);
  EXPECT_TRUE(db->Close().ok());
}

// Without hide_expired nothing keeps scans off the tombstones: the pass
// compacts before it returns, as before.
TEST(CompactionTest, WithoutHidingThePassCompactsBeforeItReturns) {
  TempDir dir;
  FakeClock clock(kStart);
  auto db = OpenWithHide(dir.path(), &clock, false);
  ASSERT_NE(db, nullptr);
  absl::Notification release;
  EXPECT_EQ(CompactedWhenThePassReturns(*db, &release), 1);
  release.Notify();
  EXPECT_TRUE(db->Close().ok());
}

TEST(CompactionTest, ZeroThresholdDoesNotCompact) {
  TempDir dir;
  FakeClock clock(kStart);
  auto db = OpenDb(dir.path(), &clock, /*compact_after=*/0);
  ASSERT_NE(db, nullptr);
  Sizes s = SweepBig(*db);
  EXPECT_EQ(DatabaseInternal::engine(*db)->TtlCompactions().index_ranges, 0);
  // The deletions are in the memtable: the tables still hold everything.
  EXPECT_GE(s.docs_after, s.docs_before);
  EXPECT_GE(s.index_after, s.index_before);
  EXPECT_TRUE(db->Close().ok());
}

}  // namespace
}  // namespace ttldb
