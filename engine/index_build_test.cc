// Background index builds (engine/index_build.h): writers and TTL passes
// proceed while createIndex builds; the result is exactly consistent; a
// unique build fails on a duplicate inserted during it and leaves nothing;
// a build stopped by Close is gone, entries and all, after reopen.
//
// Expected behaviour from MongoDB's manual, "Index Builds on Populated
// Collections" (the exclusive lock only at the beginning and end; duplicate
// key errors reported at the commit, not during the scan), and from
// jstests/noPassthrough/index_builds/ (e.g. index_build_yield_... and
// hybrid_unique_index_with_updates.js: a duplicate inserted during a hybrid
// unique build fails it with DuplicateKey; one removed before the commit
// does not).
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "index/key_codec.h"
#include "storage/keys.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/duplicate_key_error.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class IndexBuildTest : public DbTest {
 protected:
  void TearDown() override { SyncPoint::ClearAll(); }

  Collection& c() { return db_->collection("c"); }
  DbImpl* engine() { return DatabaseInternal::engine(*db_); }

  // Inserts n documents {_id: i, a: i % 1000, u: i, t: <date>} in batches.
  void Load(int n) {
    const int64_t now = absl::ToUnixMillis(clock_.WallNow());
    std::vector<std::string> batch;
    for (int i = 0; i < n; ++i) {
      batch.push_back(absl::StrCat(R"({"_id": )", i, R"(, "a": )", i % 1000,
                                   R"(, "u": )", i, R"(, "t": {"$date": )", now,
                                   "}}"));
      if (batch.size() == 1000 || i == n - 1) {
        std::vector<DocArg> args(batch.begin(), batch.end());
        ASSERT_TRUE(c().InsertMany(args).ok());
        batch.clear();
      }
    }
  }

  // The _ids `filter` finds with this hint (an index name, or "" for a
  // collection scan), sorted.
  std::string Ids(const std::string& filter, const std::string& hint) {
    FindOptions o;
    o.projection = *ParseDocument(R"({"_id": 1})");
    if (hint.empty()) {
      o.hint_keys = *ParseDocument(R"({"$natural": 1})");
    } else {
      o.hint = hint;
    }
    o.sort = *ParseDocument(R"({"_id": 1})");
    auto cursor = c().Find(filter, o);
    if (!cursor.ok()) return std::string(cursor.status().message());
    auto docs = (*cursor)->ToVector();
    if (!docs.ok()) return std::string(docs.status().message());
    std::string out;
    for (const Value& d : *docs) out += ToJson(*d.Get("_id")) + ",";
    return out;
  }

  // How many LevelDB keys lie under the prefix of the collection's index
  // `index_id` (raw: also entries no catalog names).
  int64_t RawEntries(uint32_t index_id) {
    auto state = engine()->GetState("c");
    EXPECT_NE(state, nullptr);
    const std::string prefix = IndexPrefix(state->info.id(), index_id);
    std::unique_ptr<leveldb::Iterator> it(
        engine()->db()->NewIterator(leveldb::ReadOptions()));
    int64_t n = 0;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
         it->Next()) {
      ++n;
    }
    return n;
  }

  std::vector<std::string> IndexNames() {
    std::vector<std::string> out;
    auto list = c().ListIndexes();
    EXPECT_TRUE(list.ok());
    for (const Value& v : *list) out.push_back(v.Get("name")->string_value());
    return out;
  }
};

// (a) Writes proceed during a build: at its first progress report the build
// waits until a writer thread has completed 300 more writes (inserts,
// updates, deletes). When the build held the writers' lock throughout, the
// writer could not write and this wait timed out with 0 writes.
TEST_F(IndexBuildTest, WritesProceedDuringBuildAndTheIndexIsExact) {
  constexpr int kDocs = 20'000;
  Load(kDocs);
  std::atomic<bool> building{true};
  std::atomic<int64_t> writes{0};
  std::thread writer([&] {
    int64_t i = 0;
    while (building.load()) {
      const int64_t id = (i * 7919) % kDocs;
      absl::Status s;
      switch (i % 4) {
        case 0:
          s = c().InsertOne(absl::StrCat(R"({"_id": "w)", i, R"(", "a": )",
                                         i % 1000, R"(, "u": -)", i + 1, "}"))
                  .status();
          break;
        case 1:
          s = c().UpdateOne(absl::StrCat(R"({"_id": )", id, "}"),
                            absl::StrCat(R"({"$set": {"a": )",
                                         (i % 1000) + 5000, "}}"))
                  .status();
          break;
        case 2:
          s = c().UpdateOne(absl::StrCat(R"({"_id": )", id, "}"),
                            R"({"$set": {"a": [1, 2, 3]}})")
                  .status();
          break;
        case 3:
          s = c().DeleteOne(absl::StrCat(R"({"_id": )", (id + 13) % kDocs, "}"))
                  .status();
          break;
      }
      ASSERT_TRUE(s.ok()) << s;
      writes.fetch_add(1);
      ++i;
    }
  });
  int64_t during = -1;
  int reports = 0;
  auto built =
      c().CreateIndex(R"({"a": 1})", "{}", [&](int64_t done, int64_t total) {
        if (reports++ != 0) return;
        const int64_t start = writes.load();
        const absl::Time deadline = absl::Now() + absl::Seconds(20);
        while (writes.load() < start + 300 && absl::Now() < deadline) {
          absl::SleepFor(absl::Milliseconds(1));
        }
        during = writes.load() - start;
      });
  building = false;
  writer.join();
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_GE(during, 300) << "writes completed while the build waited";
  EXPECT_GT(reports, 1);
  EXPECT_TRUE(Valid(c()));
  for (const char* filter : {R"({"a": 5})", R"({"a": {"$gte": 10, "$lt": 20}})",
                             R"({"a": {"$in": [1, 999, 5003]}})",
                             R"({"a": {"$gte": 5000}})", R"({"a": 2})"}) {
    const std::string by_index = Ids(filter, "a_1");
    EXPECT_EQ(by_index, Ids(filter, "")) << filter;
    EXPECT_FALSE(by_index.empty()) << filter;
  }
  // The writers made it multikey ({a: [1, 2, 3]}): the flag says so.
  auto state = engine()->GetState("c");
  ASSERT_EQ(state->indexes.size(), 1u);
  EXPECT_TRUE(state->indexes[0]->multikey);
  EXPECT_TRUE(state->building.empty());
}

// Queries and the TTL monitor do not see an index before it is published:
// a TTL pass run during the build of a TTL index deletes nothing, and a
// query hinting the building index is refused; after the build, both work.
TEST_F(IndexBuildTest, BuildingTtlIndexIsInvisibleUntilPublished) {
  Load(3'000);
  int64_t deleted_during = -1;
  std::string hint_during;
  int chunks = 0;
  SyncPoint::Set("DbImpl::ScanIntoIndexBuild:BeforeChunkCommit", [&] {
    if (chunks++ != 1) return;
    deleted_during =
        DatabaseInternal::RunTtlPass(*db_, clock_.WallNow() + absl::Hours(10))
            .deleted_documents;
    hint_during = Ids(R"({"u": 1})", "t_1");
    // A write and a TTL-able insert during the build.
    ASSERT_TRUE(
        c().InsertOne(R"({"_id": "new", "u": 1, "t": {"$date": 0}})").ok());
  });
  auto built = c().CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})");
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(deleted_during, 0);
  EXPECT_NE(hint_during.find("hint provided does not correspond"),
            std::string::npos)
      << hint_during;
  EXPECT_TRUE(Valid(c()));
  EXPECT_EQ(Ids(R"({"u": {"$lt": 3}})", "t_1"), "0,1,2,");
  auto pass =
      DatabaseInternal::RunTtlPass(*db_, clock_.WallNow() + absl::Hours(10));
  EXPECT_EQ(pass.deleted_documents, 3'001);
  EXPECT_TRUE(Valid(c()));
}

// (b) A unique build with a duplicate inserted during the build fails with
// 11000 and leaves no index, no catalog entry and no entries.
TEST_F(IndexBuildTest, UniqueBuildFailsOnDuplicateInsertedDuringBuild) {
  Load(5'000);
  int chunks = 0;
  SyncPoint::Set("DbImpl::ScanIntoIndexBuild:BeforeChunkCommit", [&] {
    if (chunks++ != 2) return;
    // u: 4000 is ahead of the scan, u: 10 behind it.
    ASSERT_TRUE(c().InsertOne(R"({"_id": "dup1", "u": 4000})").ok());
    ASSERT_TRUE(c().InsertOne(R"({"_id": "dup2", "u": 10})").ok());
  });
  const uint32_t next_id = engine()->GetState("c")->info.next_index_id();
  auto built = c().CreateIndex(R"({"u": 1})", R"({"unique": true})");
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(ErrorCode(built.status()), kDuplicateKey) << built.status();
  EXPECT_NE(built.status().message().find("dup key: { u: "), std::string::npos)
      << built.status();
  // MongoDB's shape (src/mongo/db/storage/duplicate_key_error_info.cpp):
  // the namespace is <db>.<collection>, and keyPattern/keyValue travel
  // with the error (u: 10 is the one the commit finds held twice).
  EXPECT_TRUE(absl::StartsWith(built.status().message(),
                               "Index build failed: E11000 duplicate key error "
                               "collection: test.c index: u_1 dup key: { u: "))
      << built.status();
  auto dup = GetDuplicateKeyInfo(built.status());
  ASSERT_TRUE(dup.has_value());
  EXPECT_EQ(ToJson(dup->key_pattern), R"({"u":1})");
  EXPECT_TRUE(ToJson(dup->key_value) == R"({"u":10})" ||
              ToJson(dup->key_value) == R"({"u":4000})")
      << ToJson(dup->key_value);
  EXPECT_EQ(IndexNames(), std::vector<std::string>{"_id_"});
  auto state = engine()->GetState("c");
  EXPECT_TRUE(state->info.building_indexes().empty());
  EXPECT_TRUE(state->info.abandoned_index_ids().empty());
  EXPECT_EQ(RawEntries(next_id), 0);
  EXPECT_TRUE(Valid(c()));
  // Writes go on normally, and a non-unique build works.
  ASSERT_TRUE(c().InsertOne(R"({"_id": "after", "u": 10})").ok());
  ASSERT_TRUE(c().CreateIndex(R"({"u": 1})").ok());
  EXPECT_TRUE(Valid(c()));
}

// A duplicate inserted during the build and deleted before its commit does
// not fail it: MongoDB checks the recorded keys at the commit.
TEST_F(IndexBuildTest, UniqueBuildSucceedsWhenTheDuplicateIsGoneAtCommit) {
  Load(5'000);
  int chunks = 0;
  SyncPoint::Set("DbImpl::ScanIntoIndexBuild:BeforeChunkCommit", [&] {
    if (chunks++ != 2) return;
    ASSERT_TRUE(c().InsertOne(R"({"_id": "dup1", "u": 4000})").ok());
  });
  SyncPoint::Set("DbImpl::RunIndexBuild:BeforeCommit", [&] {
    ASSERT_TRUE(c().DeleteOne(R"({"_id": "dup1"})").ok());
  });
  auto built = c().CreateIndex(R"({"u": 1})", R"({"unique": true})");
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_TRUE(Valid(c()));
  auto dup = c().InsertOne(R"({"_id": "x", "u": 7})");
  EXPECT_EQ(ErrorCode(dup.status()), kDuplicateKey);
}

// A duplicate among the existing documents fails the build too.
TEST_F(IndexBuildTest, UniqueBuildFailsOnExistingDuplicate) {
  Load(2'000);
  ASSERT_TRUE(c().InsertOne(R"({"_id": "d", "u": 1500})").ok());
  auto built = c().CreateIndex(R"({"u": 1})", R"({"unique": true})");
  EXPECT_EQ(ErrorCode(built.status()), kDuplicateKey) << built.status();
  EXPECT_EQ(IndexNames(), std::vector<std::string>{"_id_"});
  EXPECT_TRUE(Valid(c()));
}

// (c) Close during a build (a stop as abrupt as a crash for the build: the
// catalog still says "building" and half the entries exist). A read-only
// open shows that state and no index; a normal open deletes the entries and
// the catalog entry, and the index can be built again.
TEST_F(IndexBuildTest, CloseDuringBuildLeavesNoHalfBuiltIndex) {
  Load(5'000);
  const uint32_t index_id = engine()->GetState("c")->info.next_index_id();
  int chunks = 0;
  std::thread closer;
  // The second of three chunks (2,000 documents each, engine/
  // index_build.cc kScanChunkDocs): the first one's entries exist.
  SyncPoint::Set("DbImpl::ScanIntoIndexBuild:BeforeChunkCommit", [&] {
    if (chunks++ != 1) return;
    closer = std::thread([&] { ASSERT_TRUE(db_->Close().ok()); });
    // Until Close has begun (it then waits for this build to stop).
    while (engine()->CheckOpen().ok()) absl::SleepFor(absl::Milliseconds(1));
  });
  auto built = c().CreateIndex(R"({"u": 1})");
  closer.join();
  SyncPoint::ClearAll();
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(ErrorCode(built.status()), kInterruptedAtShutdown)
      << built.status();

  {
    db_.reset();
    Options options;
    options.clock = &clock_;
    options.read_only = true;
    auto ro = Database::Open(dir_.path(), options);
    ASSERT_TRUE(ro.ok()) << ro.status();
    db_ = std::move(*ro);
    auto state = engine()->GetState("c");
    ASSERT_EQ(state->info.building_indexes_size(), 1);
    EXPECT_TRUE(state->indexes.empty());
    EXPECT_GT(RawEntries(index_id), 0);
    EXPECT_EQ(IndexNames(), std::vector<std::string>{"_id_"});
    EXPECT_TRUE(Valid(c()));
  }
  Open();
  auto state = engine()->GetState("c");
  EXPECT_TRUE(state->info.building_indexes().empty());
  EXPECT_TRUE(state->info.abandoned_index_ids().empty());
  EXPECT_EQ(RawEntries(index_id), 0);
  EXPECT_EQ(IndexNames(), std::vector<std::string>{"_id_"});
  EXPECT_TRUE(Valid(c()));
  ASSERT_TRUE(c().CreateIndex(R"({"u": 1})").ok());
  EXPECT_TRUE(Valid(c()));
  EXPECT_EQ(Ids(R"({"u": {"$lt": 3}})", "u_1"), "0,1,2,");
}

// TTL deletes during the build of another index on a collection with a TTL
// index: the monitor deletes the building index's entries with the
// documents (read path), and the published index is exact.
TEST_F(IndexBuildTest, TtlDeletesDuringBuildKeepTheNewIndexExact) {
  ASSERT_TRUE(
      c().CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})").ok());
  Load(4'000);
  int chunks = 0;
  int64_t deleted = 0;
  // Before the second of two chunks: the first one's entries exist.
  SyncPoint::Set("DbImpl::ScanIntoIndexBuild:BeforeChunkCommit", [&] {
    if (chunks++ != 1) return;
    deleted =
        DatabaseInternal::RunTtlPass(*db_, clock_.WallNow() + absl::Hours(1))
            .deleted_documents;
  });
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  EXPECT_EQ(deleted, 4'000);
  EXPECT_TRUE(Valid(c()));
  EXPECT_EQ(RawEntries(engine()->GetState("c")->indexes[1]->spec.id), 0);
}

// An identical createIndex during a build waits for it and returns the
// name; a conflicting one fails as against an existing index.
TEST_F(IndexBuildTest, SecondCreateIndexDuringBuild) {
  Load(3'000);
  int chunks = 0;
  absl::StatusOr<std::string> conflicting = std::string();
  absl::StatusOr<std::string> identical = std::string();
  std::thread second;
  SyncPoint::Set("DbImpl::ScanIntoIndexBuild:BeforeChunkCommit", [&] {
    if (chunks++ != 1) return;
    conflicting = c().CreateIndex(R"({"a": 1})", R"({"unique": true})");
    second = std::thread([&] { identical = c().CreateIndex(R"({"a": 1})"); });
  });
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  second.join();
  ASSERT_FALSE(conflicting.ok());
  EXPECT_TRUE(ErrorCode(conflicting.status()) == kIndexKeySpecsConflict ||
              ErrorCode(conflicting.status()) == kIndexOptionsConflict)
      << conflicting.status();
  ASSERT_TRUE(identical.ok()) << identical.status();
  EXPECT_EQ(*identical, "a_1");
  EXPECT_EQ(IndexNames(), (std::vector<std::string>{"_id_", "a_1"}));
  EXPECT_TRUE(Valid(c()));
}

// A chunk holds at most 2,000 documents or 4 MiB of them (it is parsed in
// memory and committed under the writers' lock): 6 documents of 1.5 MiB
// are scanned in two chunks of 3, 3,000 small ones in two chunks too.
TEST_F(IndexBuildTest, ChunksAreBoundedByDocumentsAndBytes) {
  int chunks = 0;
  SyncPoint::Set("DbImpl::ScanIntoIndexBuild:BeforeChunkCommit",
                 [&] { ++chunks; });
  const std::string pad(1536 * 1024, 'x');
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(db_->collection("big")
                    .InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "a": )", i,
                                            R"(, "p": ")", pad, R"("})"))
                    .ok());
  }
  ASSERT_TRUE(db_->collection("big").CreateIndex(R"({"a": 1})").ok());
  EXPECT_EQ(chunks, 2);
  EXPECT_TRUE(Valid(db_->collection("big")));
  chunks = 0;
  Load(3'000);
  ASSERT_TRUE(c().CreateIndex(R"({"a": 1})").ok());
  EXPECT_EQ(chunks, 2);
  EXPECT_EQ(Ids(R"({"a": 7})", "a_1"), "7,1007,2007,");
}

}  // namespace
}  // namespace ttldb
