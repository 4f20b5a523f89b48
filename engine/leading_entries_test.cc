// The count of entries below the Date bracket of an ascending TTL index
// (storage/leading_entries.h), and what it buys: with none, a scan from the
// low end of the index starts at the first live Date instead of stepping
// over the tombstones a TTL pass left (issue 19, round 5 session 7).
//
// Expected orders follow MongoDB's index key order: null (and missing) <
// numbers < strings < objects < booleans < Dates
// (src/mongo/bson/bsontypes.h canonicalizeBSONType; the manual's
// includes/fact-sort-order.rst), and a document whose indexed field is an
// array has one entry per element and expires at its lowest Date
// (core/index-ttl.txt, "Expiration of Data"); a Date <= now -
// expireAfterSeconds is expired (src/mongo/db/ttl/ttl.cpp).
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "base/sync_point.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "storage/keys.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/repair.h"

namespace ttldb {
namespace {

const absl::Time kNow = kTestStart;

// Counts the reads of table files (block reads that missed LevelDB's block
// cache) made by the thread that created the Env (the test's: LevelDB's
// own compactions, on its background thread, are not counted): a scan that
// steps over tombstones in a table reads their blocks.
class CountingEnv : public leveldb::EnvWrapper {
 public:
  CountingEnv() : EnvWrapper(leveldb::Env::Default()) {}
  leveldb::Status NewRandomAccessFile(const std::string& f,
                                      leveldb::RandomAccessFile** r) override {
    leveldb::RandomAccessFile* file = nullptr;
    leveldb::Status s = target()->NewRandomAccessFile(f, &file);
    if (!s.ok()) return s;
    *r = new Counted(file, &reads, owner_);
    return s;
  }
  std::atomic<int64_t> reads{0};

 private:
  const std::thread::id owner_ = std::this_thread::get_id();
  class Counted : public leveldb::RandomAccessFile {
   public:
    Counted(leveldb::RandomAccessFile* f, std::atomic<int64_t>* n,
            std::thread::id owner)
        : f_(f), n_(n), owner_(owner) {}
    ~Counted() override { delete f_; }
    leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                         char* scratch) const override {
      if (std::this_thread::get_id() == owner_) ++*n_;
      return f_->Read(offset, n, result, scratch);
    }

   private:
    leveldb::RandomAccessFile* f_;
    std::atomic<int64_t>* n_;
    const std::thread::id owner_;
  };
};

std::unique_ptr<Database> Open(const std::string& path, Clock* clock,
                               leveldb::Env* env = nullptr,
                               int64_t compact_after = 20'000) {
  Options options;
  options.clock = clock;
  options.ttl_monitor_enabled = false;
  options.ttl_compact_after_deletes = compact_after;
  TestingOptions testing;
  testing.env = env;
  auto db = DatabaseInternal::Open(path, options, testing);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

const IndexState* FindIndex(Database& db, const std::string& coll,
                            const std::string& name) {
  auto state = DatabaseInternal::engine(db)->GetState(coll);
  if (state == nullptr) return nullptr;
  return state->FindIndex(name);
}

// The engine's count for the index, and the truth: its entries below the
// Date bracket, counted by a raw scan.
struct Counts {
  std::optional<int64_t> tracked;
  int64_t actual = 0;
};
Counts CountsOf(Database& db, const std::string& coll,
                const std::string& name) {
  Counts out;
  const IndexState* index = FindIndex(db, coll, name);
  EXPECT_NE(index, nullptr);
  if (index == nullptr) return out;
  DbImpl* engine = DatabaseInternal::engine(db);
  out.tracked = engine->leading_entries().Get(index->prefix);
  const std::string end = LeadingEntries::DateBracket(index->prefix);
  std::unique_ptr<leveldb::Iterator> it(
      engine->db()->NewIterator(leveldb::ReadOptions()));
  for (it->Seek(index->prefix); it->Valid() && it->key().compare(end) < 0;
       it->Next()) {
    ++out.actual;
  }
  return out;
}

#define EXPECT_COUNT(db, n)                          \
  do {                                               \
    Counts c_ = CountsOf(db, "s", "at_1");           \
    EXPECT_EQ(c_.actual, n);                         \
    EXPECT_EQ(c_.tracked, std::optional<int64_t>(n)) \
        << "actual " << c_.actual;                   \
  } while (0)

std::string At(int id, const std::string& at) {
  return absl::StrCat(R"({"_id": )", id, R"(, "at": )", at, "}");
}

// kExpired documents (_ids 0..kExpired-1) dated an hour before kNow, then
// kLive dated after it, each with a field "pad" when `pad` is not empty;
// all in table files, then a pass at kNow deletes the expired ones and
// their tombstones go into a table file of their own, kept (nothing
// overlaps "~"; the store is never compacted after the pass).
constexpr int kExpired = 5'000, kLive = 100;
void ExpireAPrefix(Database& db, Collection& c, const std::string& pad) {
  for (int i = 0; i < kExpired + kLive; ++i) {
    const absl::Time at = i < kExpired
                              ? kNow - absl::Hours(1) + absl::Milliseconds(i)
                              : kNow + absl::Milliseconds(i);
    std::string doc = At(i, DateJson(at));
    if (!pad.empty()) {
      doc.pop_back();  // the closing brace
      absl::StrAppend(&doc, R"(, "pad": ")", pad, R"("})");
    }
    ASSERT_TRUE(c.InsertOne(doc).ok());
  }
  DbImpl* engine = DatabaseInternal::engine(db);
  engine->db()->CompactRange(nullptr, nullptr);
  EXPECT_EQ(DatabaseInternal::RunTtlPass(db, kNow).deleted_documents, kExpired);
  leveldb::Slice b("~"), e("~~");
  engine->db()->CompactRange(&b, &e);
}

TEST(LeadingEntriesTest, CountFollowsEveryWriteReopenAndRepair) {
  TempDir dir;
  FakeClock clock(kNow);
  auto db = Open(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  EXPECT_COUNT(*db, 0);
  const std::string live = DateJson(kNow + absl::Hours(1));
  const std::string old = DateJson(kNow - absl::Hours(1));
  ASSERT_TRUE(c.InsertOne(At(1, live)).ok());
  EXPECT_COUNT(*db, 0);
  ASSERT_TRUE(c.InsertOne(At(2, "null")).ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 3})").ok());  // missing: a null key
  ASSERT_TRUE(c.InsertOne(At(4, "5")).ok());
  ASSERT_TRUE(c.InsertOne(At(5, R"("s")")).ok());
  ASSERT_TRUE(c.InsertOne(At(6, "true")).ok());
  ASSERT_TRUE(c.InsertOne(At(7, R"({"x": 1})")).ok());
  // Multikey: one entry per element, 7 below the bracket.
  ASSERT_TRUE(c.InsertOne(At(8, absl::StrCat("[", live, ", 7]"))).ok());
  EXPECT_COUNT(*db, 7);
  // Updates in and out of the bracket, and within it.
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})", R"({"$set": {"at": 1}})").ok());
  EXPECT_COUNT(*db, 8);
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 4})",
                          absl::StrCat(R"({"$set": {"at": )", live, "}}"))
                  .ok());
  EXPECT_COUNT(*db, 7);
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 5})", R"({"$set": {"at": "t"}})").ok());
  EXPECT_COUNT(*db, 7);
  ASSERT_TRUE(c.DeleteOne(R"({"_id": 6})").ok());
  EXPECT_COUNT(*db, 6);
  ASSERT_TRUE(c.ReplaceOne(R"({"_id": 7})", R"({"y": 1})").ok());  // missing
  EXPECT_COUNT(*db, 6);
  // The TTL pass deletes a multikey document by reading it: its entry below
  // the bracket goes too.
  ASSERT_TRUE(c.InsertOne(At(9, absl::StrCat("[", old, ", 9]"))).ok());
  EXPECT_COUNT(*db, 7);
  TtlPassStats stats = DatabaseInternal::RunTtlPass(*db, kNow);
  EXPECT_EQ(stats.deleted_documents, 1);
  EXPECT_COUNT(*db, 6);
  // An insert that collides with a hidden (expired) document removes it in
  // its own batch (docs/ttl.md): its entry below the bracket goes too.
  ASSERT_TRUE(c.InsertOne(At(10, absl::StrCat("[", old, ", 10]"))).ok());
  EXPECT_COUNT(*db, 7);
  ASSERT_TRUE(c.InsertOne(At(10, live)).ok());
  EXPECT_COUNT(*db, 6);
  // Counted at open, and after repair.
  ASSERT_TRUE(db->Close().ok());
  db = Open(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  EXPECT_COUNT(*db, 6);
  ASSERT_TRUE(db->Close().ok());
  ASSERT_TRUE(RepairDatabase(dir.path()).ok());
  db = Open(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  EXPECT_COUNT(*db, 6);
  Collection& r = db->collection("s");
  ASSERT_TRUE(r.DeleteMany("{}").ok());
  EXPECT_COUNT(*db, 0);
  ASSERT_TRUE(db->Close().ok());
}

// Which indexes are tracked: ascending TTL indexes on one field, counted
// when they are built on existing documents or made TTL by collMod; not a
// descending one, nor a plain index; a dropped index is forgotten.
TEST(LeadingEntriesTest, WhichIndexesAreTracked) {
  TempDir dir;
  FakeClock clock(kNow);
  auto db = Open(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  ASSERT_TRUE(c.InsertOne(At(1, "null")).ok());
  ASSERT_TRUE(c.InsertOne(At(2, DateJson(kNow))).ok());
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": -1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"b": 1})", "{}").ok());
  EXPECT_COUNT(*db, 1);
  EXPECT_FALSE(CountsOf(*db, "s", "at_-1").tracked.has_value());
  EXPECT_FALSE(CountsOf(*db, "s", "b_1").tracked.has_value());
  // collMod turns b_1 into a TTL index: counted then (every document lacks
  // b: two null entries).
  auto reply = c.CollMod(
      R"({"index": {"keyPattern": {"b": 1}, "expireAfterSeconds": 10}})");
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(CountsOf(*db, "s", "b_1").tracked, std::optional<int64_t>(2));
  const std::string prefix = FindIndex(*db, "s", "at_1")->prefix;
  ASSERT_TRUE(c.DropIndex("at_1").ok());
  EXPECT_FALSE(
      DatabaseInternal::engine(*db)->leading_entries().Get(prefix).has_value());
  ASSERT_TRUE(db->Close().ok());
}

// The _ids a query on the TTL index returns, in order.
std::vector<int> Ids(Collection& c, const std::string& filter,
                     const std::string& sort, int64_t limit = 0,
                     const std::string& hint = "at_1") {
  FindOptions options;
  options.hint = hint;
  options.limit = limit;
  if (!sort.empty()) {
    auto parsed = ParseValue(sort);
    EXPECT_TRUE(parsed.ok());
    options.sort = *parsed;
  }
  auto cursor = c.Find(filter, options);
  EXPECT_TRUE(cursor.ok()) << cursor.status();
  std::vector<int> out;
  if (!cursor.ok()) return out;
  while (true) {
    auto doc = (*cursor)->Next();
    EXPECT_TRUE(doc.ok()) << doc.status();
    if (!doc.ok() || !doc->has_value()) return out;
    out.push_back(static_cast<int>((*doc)->Get("_id")->AsDouble()));
  }
}

// An index with more entries below the bracket than kMaxCounted is not
// tracked, and stays so however the writes after its count move: a count
// of "too many" plus the deltas of later writes is no count (once reached
// 0, and the scans below skipped the 10,002 null entries). Every query
// still returns every null and missing entry (MongoDB: a missing field is
// indexed as null and sorts before every Date, bsontypes.h).
TEST(LeadingEntriesTest, AnIndexBeyondTheLimitStaysUntracked) {
  TempDir dir;
  FakeClock clock(kNow);
  auto db = Open(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  constexpr int kMissing = LeadingEntries::kMaxCounted + 1;
  for (int i = 0; i < kMissing; ++i) {
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", i, "}")).ok());
  }
  ASSERT_TRUE(c.InsertOne(At(kMissing, DateJson(kNow))).ok());
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  EXPECT_FALSE(CountsOf(*db, "s", "at_1").tracked.has_value());
  // An insert below the bracket, then the two that a delete takes back:
  // each moved a "too many" count by one, the first to 0.
  ASSERT_TRUE(c.InsertOne(R"({"_id": -1})").ok());
  EXPECT_FALSE(CountsOf(*db, "s", "at_1").tracked.has_value());
  EXPECT_EQ(Ids(c, "{}", R"({"at": 1})").size(),
            static_cast<size_t>(kMissing + 2));
  EXPECT_EQ(Ids(c, R"({"at": null})", "").size(),
            static_cast<size_t>(kMissing + 1));
  ASSERT_TRUE(c.DeleteOne(R"({"_id": 0})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": -2})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": -3})").ok());
  EXPECT_FALSE(CountsOf(*db, "s", "at_1").tracked.has_value());
  const std::vector<int> all = Ids(c, "{}", R"({"at": 1})");
  ASSERT_EQ(all.size(), static_cast<size_t>(kMissing + 3));
  EXPECT_EQ(all.front(), -3);  // null entries in _id order
  EXPECT_EQ(all.back(), kMissing);
  EXPECT_EQ(Ids(c, R"({"at": null})", "").size(),
            static_cast<size_t>(kMissing + 2));
  ASSERT_TRUE(db->Close().ok());
}

// A renamed collection's TTL indexes are the source's (same keys): their
// counts survive the rename (the source's removal forgot them).
TEST(LeadingEntriesTest, RenameKeepsTheCount) {
  TempDir dir;
  FakeClock clock(kNow);
  auto db = Open(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("r");
  ASSERT_TRUE(c.InsertOne(At(1, "null")).ok());
  ASSERT_TRUE(c.InsertOne(At(2, DateJson(kNow))).ok());
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(db->RenameCollection("r", "s").ok());
  EXPECT_COUNT(*db, 1);
  ASSERT_TRUE(db->collection("s").DeleteOne(R"({"_id": 1})").ok());
  EXPECT_COUNT(*db, 0);
  ASSERT_TRUE(db->Close().ok());
}

// Results with the skip (no entry below the bracket) and without it (one
// such entry, then deleted) are MongoDB's: the index order of the live
// documents, the expired ones hidden.
TEST(LeadingEntriesTest, ResultsWithAndWithoutTheSkip) {
  TempDir dir;
  FakeClock clock(kNow);
  auto db = Open(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  // 1-3 expired, 4-6 live (ascending dates).
  for (int i = 1; i <= 6; ++i) {
    ASSERT_TRUE(
        c.InsertOne(At(i, DateJson(kNow + absl::Minutes(i * 20 - 80)))).ok());
  }
  DatabaseInternal::RunTtlPass(*db, kNow);
  DatabaseInternal::engine(*db)->WaitForCompactions();
  EXPECT_COUNT(*db, 0);
  const std::vector<int> dates = {4, 5, 6};
  const std::string lte = absl::StrCat(R"({"at": {"$lte": )",
                                       DateJson(kNow + absl::Hours(1)), "}}");
  auto check = [&](const std::vector<int>& all) {
    EXPECT_EQ(Ids(c, "{}", R"({"at": 1})"), all);
    EXPECT_EQ(Ids(c, "{}", R"({"at": 1})", 1),
              std::vector<int>(all.begin(), all.begin() + 1));
    EXPECT_EQ(Ids(c, "{}", ""), all);
    EXPECT_EQ(Ids(c, lte, ""), dates);
    // $gte null: bounds [null, null] (null and missing), below the bracket.
    EXPECT_EQ(Ids(c, R"({"at": {"$gte": null}})", ""),
              all[0] == 7 ? std::vector<int>{7} : std::vector<int>{});
    // Not through the index: a blocking sort over the _id index.
    EXPECT_EQ(Ids(c, "{}", R"({"at": 1})", 0, "_id_"), all);
  };
  check(dates);
  ASSERT_TRUE(c.InsertOne(At(7, "null")).ok());
  EXPECT_COUNT(*db, 1);
  check({7, 4, 5, 6});
  ASSERT_TRUE(c.DeleteOne(R"({"_id": 7})").ok());
  EXPECT_COUNT(*db, 0);
  check(dates);
  ASSERT_TRUE(db->Close().ok());
}

// After a pass deleted 5,000 documents and before their tombstones are
// compacted (here: never, ttl_compact_after_deletes 0), a scan from the low
// end of the index reads a few blocks, not the tombstones' blocks.
// Observed by counting table reads with a cold block cache (reopened).
TEST(LeadingEntriesTest, ScanFromTheLowEndDoesNotStepOverTheTombstones) {
  TempDir dir;
  FakeClock clock(kNow);
  CountingEnv env;
  auto db = Open(dir.path(), &clock, &env, /*compact_after=*/0);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ExpireAPrefix(*db, c, /*pad=*/"");
  ASSERT_TRUE(db->Close().ok());
  db = Open(dir.path(), &clock, &env, /*compact_after=*/0);
  ASSERT_NE(db, nullptr);
  EXPECT_COUNT(*db, 0);
  Collection& r = db->collection("s");
  const int64_t before = env.reads.load();
  EXPECT_EQ(Ids(r, "{}", R"({"at": 1})", 1), std::vector<int>{kExpired});
  const int64_t reads = env.reads.load() - before;
  // Stepping over 5,000 index tombstones and the entries they shadow reads
  // well over 100 blocks; the first live Date and its document, a few.
  EXPECT_LT(reads, 20);
  ASSERT_TRUE(db->Close().ok());
}

// A document below the bracket deleted between the cursor's snapshot and
// its reading of the count: the snapshot still holds it, so the scan must
// return it (the count is read before the snapshot too). Fails if the
// count is read only after the snapshot.
TEST(LeadingEntriesTest, DeletionAfterTheSnapshotIsStillReturned) {
  TempDir dir;
  FakeClock clock(kNow);
  auto db = Open(dir.path(), &clock);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(c.InsertOne(At(1, "null")).ok());
  ASSERT_TRUE(c.InsertOne(At(2, DateJson(kNow + absl::Hours(1)))).ok());
  bool fired = false;
  SyncPoint::Set("PlanCursor:AfterSnapshot", [&] {
    if (fired) return;
    fired = true;
    ASSERT_TRUE(c.DeleteOne(R"({"_id": 1})").ok());
  });
  EXPECT_EQ(Ids(c, "{}", R"({"at": 1})"), (std::vector<int>{1, 2}));
  SyncPoint::ClearAll();
  EXPECT_TRUE(fired);
  EXPECT_COUNT(*db, 0);
  EXPECT_EQ(Ids(c, "{}", R"({"at": 1})"), (std::vector<int>{2}));
  ASSERT_TRUE(db->Close().ok());
}

// Time-ordered _ids (as ObjectIds): the expired documents are a prefix of
// the _id order, where a collection scan starts. After the pass, and
// before any compaction (here: never), the scan starts at the first live
// document (DbImpl::doc_floor_), reading a few blocks, not the 5,000
// tombstones' and the documents they shadow. Fails without the floor.
TEST(DocFloorTest, CollectionScanAfterAPrefixExpired) {
  TempDir dir;
  FakeClock clock(kNow);
  CountingEnv env;
  auto db = Open(dir.path(), &clock, &env, /*compact_after=*/0);
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ExpireAPrefix(*db, c, /*pad=*/"0123456789abcdef");
  const int64_t before = env.reads.load();
  EXPECT_EQ(Ids(c, "{}", "", 1, ""), std::vector<int>{kExpired});
  EXPECT_LT(env.reads.load() - before, 20);
  // An insert below the floor is found by the next scan.
  ASSERT_TRUE(c.InsertOne(R"({"_id": -1})").ok());
  EXPECT_EQ(Ids(c, "{}", "", 2, ""), (std::vector<int>{-1, kExpired}));
  EXPECT_EQ(Ids(c, "{}", R"({"_id": 1})", 2, ""),
            (std::vector<int>{-1, kExpired}));
  ASSERT_TRUE(db->Close().ok());
}

// The floor is raised by a pass that commits between a scan's reading of
// it and the scan's snapshot... and after: the scan starts at the lower of
// its two readings, so it returns what its snapshot holds (hide_expired off:
// the expired documents are visible until deleted, as in MongoDB). Fails
// if the floor is read only after the snapshot.
TEST(DocFloorTest, PassAfterTheSnapshot) {
  TempDir dir;
  FakeClock clock(kNow);
  Options options;
  options.clock = &clock;
  options.ttl_monitor_enabled = false;
  options.ttl_compact_after_deletes = 0;
  options.hide_expired = false;
  auto opened = Database::Open(dir.path(), options);
  ASSERT_TRUE(opened.ok());
  auto db = std::move(*opened);
  Collection& c = db->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  for (int i = 0; i < 20; ++i) {
    const absl::Time at = i < 10 ? kNow - absl::Hours(1) : kNow;
    ASSERT_TRUE(c.InsertOne(At(i, DateJson(at))).ok());
  }
  // A first pass with nothing expired deletes nothing.
  DatabaseInternal::RunTtlPass(*db, kNow - absl::Hours(2));
  bool fired = false;
  SyncPoint::Set("PlanCursor:AfterSnapshot", [&] {
    if (fired) return;
    fired = true;
    EXPECT_EQ(DatabaseInternal::RunTtlPass(*db, kNow).deleted_documents, 10);
  });
  std::vector<int> all;
  for (int i = 0; i < 20; ++i) all.push_back(i);
  EXPECT_EQ(Ids(c, "{}", "", 0, ""), all);
  SyncPoint::ClearAll();
  EXPECT_TRUE(fired);
  // A second pass at the same time: the floor is known, raised past 0-9
  // by the first one.
  const std::vector<int> live(all.begin() + 10, all.end());
  EXPECT_EQ(Ids(c, "{}", "", 0, ""), live);
  ASSERT_TRUE(db->Close().ok());
}

}  // namespace
}  // namespace ttldb
