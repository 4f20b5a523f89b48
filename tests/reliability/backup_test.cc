// Database::Backup (issue 15 "Operations"): a consistent copy of an open
// database, taken while writers write, that Database::Open opens, with its
// indexes (TTL included) agreeing with its documents.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/collection.h"
#include "ttldb/cursor.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

namespace fs = std::filesystem;

Options Quiet() {
  Options o;
  o.ttl_monitor_enabled = false;
  return o;
}

void ExpectValid(Database* db, const std::string& coll) {
  absl::StatusOr<Value> v = db->collection(coll).Validate();
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->Get("valid")->bool_value()) << coll << ": " << ToJson(*v);
}

// Four writers insert, update (v and its copy w together) and delete
// documents in two collections while the backup runs. In the copy every
// document is whole (v == w), every index agrees with the documents
// (validate), the TTL index is there and expires documents.
TEST(Backup, ConsistentWhileWritersWrite) {
  TempDir dir;
  const std::string src = dir.path() + "/src";
  const std::string dest = dir.path() + "/backups/one";
  FakeClock clock(kTestStart);
  Options o = Quiet();
  o.clock = &clock;
  o.write_buffer_bytes = 64 << 10;  // compactions during the backup
  auto db = Database::Open(src, o);
  ASSERT_TRUE(db.ok()) << db.status();
  for (const char* coll : {"a", "b"}) {
    Collection& c = (*db)->collection(coll);
    ASSERT_TRUE(
        c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 3600})").ok());
    ASSERT_TRUE(c.CreateIndex(R"({"v": 1, "w": -1})").ok());
    ASSERT_TRUE(c.CreateIndex(R"({"tags": 1})").ok());  // multikey
  }
  std::atomic<bool> stop{false};
  std::atomic<int64_t> writes{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&, t] {
      std::mt19937 rng(t);
      Collection& c = (*db)->collection(t % 2 == 0 ? "a" : "b");
      while (!stop.load()) {
        const int id = rng() % 2000;
        const int v = rng() % 1000;
        const std::string doc = absl::StrCat(
            R"({"_id": )", id, R"(, "v": )", v, R"(, "w": )", v,
            R"(, "tags": [)", v % 3, ",", v % 5, R"(], "t": )",
            DateJson(kTestStart - absl::Seconds(rng() % 7200)), "}");
        switch (rng() % 3) {
          case 0:
            c.InsertOne(doc).IgnoreError();  // may be a duplicate
            break;
          case 1: {
            UpdateOptions upsert;
            upsert.upsert = true;
            c.ReplaceOne(absl::StrCat(R"({"_id": )", id, "}"), doc, upsert)
                .IgnoreError();
            break;
          }
          default:
            c.DeleteOne(absl::StrCat(R"({"_id": )", id, "}")).IgnoreError();
        }
        writes.fetch_add(1);
      }
    });
  }
  while (writes.load() < 3000)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  absl::StatusOr<BackupStats> stats = (*db)->Backup(dest);
  const int64_t writes_at_backup = writes.load();
  while (writes.load() < writes_at_backup + 2000) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop.store(true);
  for (auto& w : writers) w.join();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_GT(stats->keys, 0);
  ASSERT_TRUE((*db)->Close().ok());

  auto copy = Database::Open(dest, o);
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ(*(*copy)->ListCollectionNames(),
            (std::vector<std::string>{"a", "b"}));
  for (const char* coll : {"a", "b"}) {
    SCOPED_TRACE(coll);
    ExpectValid(copy->get(), coll);
    Collection& c = (*copy)->collection(coll);
    auto cursor = c.Find("{}");
    ASSERT_TRUE(cursor.ok());
    auto docs = (*cursor)->ToVector();
    ASSERT_TRUE(docs.ok()) << docs.status();
    EXPECT_GT(docs->size(), 0u);
    for (const Value& d : *docs) {
      EXPECT_EQ(ToJson(*d.Get("v")), ToJson(*d.Get("w"))) << ToJson(d);
    }
    // Every document is found through each index.
    EXPECT_EQ(*c.CountDocuments(R"({"v": {"$gte": 0}})"),
              static_cast<int64_t>(docs->size()));
    auto indexes = c.ListIndexes();
    ASSERT_TRUE(indexes.ok());
    ASSERT_EQ(indexes->size(), 4u);
    EXPECT_EQ(ToJson(*(*indexes)[1].Get("expireAfterSeconds")), "3600");
  }
  // The TTL index of the copy works: two hours later everything expired.
  clock.Advance(absl::Hours(2));
  DatabaseInternal::RunTtlPass(**copy, clock.WallNow());
  EXPECT_EQ(*(*copy)->collection("a").CountDocuments(), 0);
  ExpectValid(copy->get(), "a");
}

TEST(Backup, RefusesANonEmptyDestination) {
  TempDir dir;
  auto db = Database::Open(dir.path() + "/src", Quiet());
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->collection("c").InsertOne(R"({"_id": 1})").ok());
  const std::string dest = dir.path() + "/dest";
  fs::create_directories(dest);
  { std::ofstream(dest + "/keep.txt") << "mine"; }
  absl::StatusOr<BackupStats> s = (*db)->Backup(dest);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::IsAlreadyExists(s.status())) << s.status();
  EXPECT_EQ(std::vector<std::string>(
                {fs::directory_iterator(dest)->path().filename().string()}),
            std::vector<std::string>{"keep.txt"});
  // Backing up over an existing backup is refused too.
  const std::string first = dir.path() + "/first";
  ASSERT_TRUE((*db)->Backup(first).ok());
  EXPECT_TRUE(absl::IsAlreadyExists((*db)->Backup(first).status()));
  // An existing empty directory is fine.
  const std::string empty = dir.path() + "/empty";
  fs::create_directories(empty);
  EXPECT_TRUE((*db)->Backup(empty).ok());
}

// `ttldb backup --db DIR` of a closed directory opens it read_only: the
// source is not changed and the copy opens.
TEST(Backup, FromAReadOnlyOpen) {
  TempDir dir;
  const std::string src = dir.path() + "/src";
  {
    auto db = Database::Open(src, Quiet());
    ASSERT_TRUE(db.ok());
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE((*db)
                      ->collection("c")
                      .InsertOne(absl::StrCat(R"({"_id": )", i, "}"))
                      .ok());
    }
    ASSERT_TRUE((*db)->Close().ok());
  }
  Options ro = Quiet();
  ro.read_only = true;
  auto db = Database::Open(src, ro);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE((*db)->Backup(dir.path() + "/copy").ok());
  ASSERT_TRUE((*db)->Close().ok());
  auto copy = Database::Open(dir.path() + "/copy", Quiet());
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ(*(*copy)->collection("c").CountDocuments(), 100);
  ExpectValid(copy->get(), "c");
}

}  // namespace
}  // namespace ttldb
