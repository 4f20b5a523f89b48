// Issue 18 item 3: catalog damage. A stale or lost meta record must not
// make a new collection reuse an existing collection's id (two collections
// sharing storage), and one corrupt catalog entry must not make the whole
// database unopenable: the healthy collections open, the damaged one is
// reported and refuses every operation until `ttldb repair` or a drop.
// Real LevelDB databases in temp dirs, damaged through LevelDB directly.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "proto/catalog.pb.h"
#include "storage/keys.h"
#include "tests/test_util.h"
#include "ttldb/collection.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

Options Quiet() {
  Options o;
  o.ttl_monitor_enabled = false;
  return o;
}

std::unique_ptr<Database> OpenOrDie(const std::string& path) {
  auto db = Database::Open(path, Quiet());
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

// Collections a (ids 0..9) and b (ids 100..104, an index on k).
void Populate(const std::string& path) {
  auto db = OpenOrDie(path);
  ASSERT_NE(db, nullptr);
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(db->collection("a")
                    .InsertOne(absl::StrCat(R"({"_id": )", i, "}"))
                    .ok());
  }
  ASSERT_TRUE(db->collection("b").CreateIndex(R"({"k": 1})").ok());
  for (int i = 100; i < 105; ++i) {
    ASSERT_TRUE(db->collection("b")
                    .InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "k": 1})"))
                    .ok());
  }
  ASSERT_TRUE(db->Close().ok());
}

// Runs `change` on the raw LevelDB of a closed database.
template <typename F>
void Damage(const std::string& path, F change) {
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), path, &raw).ok());
  std::unique_ptr<leveldb::DB> ldb(raw);
  change(ldb.get());
}

proto::CollectionInfo ReadInfo(leveldb::DB* ldb, const std::string& name) {
  std::string bytes;
  EXPECT_TRUE(ldb->Get(leveldb::ReadOptions(), CatalogKey(name), &bytes).ok());
  proto::CollectionInfo info;
  EXPECT_TRUE(info.ParseFromString(bytes));
  return info;
}

// A meta record rolled back (or rewritten by an older copy) hands out ids
// again: the next new collection got collection a's id 1 and "contained"
// a's ten documents.
TEST(CatalogDamage, StaleMetaRecordDoesNotReuseAnId) {
  TempDir dir;
  Populate(dir.path());
  Damage(dir.path(), [](leveldb::DB* ldb) {
    proto::DatabaseMeta meta;
    meta.set_format_version(kFormatVersion);
    meta.set_next_collection_id(1);
    ASSERT_TRUE(
        ldb->Put(leveldb::WriteOptions(), MetaKey(), meta.SerializeAsString())
            .ok());
  });
  {
    auto db = OpenOrDie(dir.path());
    ASSERT_NE(db, nullptr);
    ASSERT_TRUE(db->collection("c").InsertOne(R"({"_id": "new"})").ok());
    EXPECT_EQ(*db->collection("c").CountDocuments(), 1);
    EXPECT_EQ(*db->collection("a").CountDocuments(), 10);
    EXPECT_EQ(*db->collection("b").CountDocuments(), 5);
    EXPECT_TRUE((*db->collection("a").Validate()).Get("valid")->bool_value());
    ASSERT_TRUE(db->Close().ok());
  }
  Damage(dir.path(), [](leveldb::DB* ldb) {
    const proto::CollectionInfo c = ReadInfo(ldb, "c");
    EXPECT_GT(c.id(), ReadInfo(ldb, "a").id());
    EXPECT_GT(c.id(), ReadInfo(ldb, "b").id());
  });
}

// The ids of dropped collections whose data is still there (a crash during
// the drop's range deletion) are not handed out either.
TEST(CatalogDamage, IdsHoldingDataAreNotReused) {
  TempDir dir;
  Populate(dir.path());
  Damage(dir.path(), [](leveldb::DB* ldb) {
    // b's catalog entry gone, its documents left; meta rolled back to 2.
    ASSERT_TRUE(ldb->Delete(leveldb::WriteOptions(), CatalogKey("b")).ok());
    proto::DatabaseMeta meta;
    meta.set_format_version(kFormatVersion);
    meta.set_next_collection_id(2);
    ASSERT_TRUE(
        ldb->Put(leveldb::WriteOptions(), MetaKey(), meta.SerializeAsString())
            .ok());
  });
  auto db = OpenOrDie(dir.path());
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->collection("fresh").InsertOne(R"({"_id": 1})").ok());
  EXPECT_EQ(*db->collection("fresh").CountDocuments(), 1);
}

// One unparsable catalog entry made Open fail with "corrupt catalog entry":
// the whole database was unusable.
TEST(CatalogDamage, CorruptEntryOpensTheHealthyCollections) {
  TempDir dir;
  Populate(dir.path());
  Damage(dir.path(), [](leveldb::DB* ldb) {
    ASSERT_TRUE(ldb->Put(leveldb::WriteOptions(), CatalogKey("b"),
                         std::string("\xff\xff\xff garbage", 11))
                    .ok());
  });
  auto db = OpenOrDie(dir.path());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(*db->collection("a").CountDocuments(), 10);
  EXPECT_EQ(*db->ListCollectionNames(), std::vector<std::string>{"a"});
  const auto damage = db->CatalogDamage();
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_EQ(damage.begin()->first, "b");
  EXPECT_TRUE(absl::StrContains(damage.begin()->second, "corrupt"));
  // Every use of b fails loudly: reads do not answer "empty", writes do not
  // create a new b over the old one.
  Collection& b = db->collection("b");
  absl::StatusOr<int64_t> n = b.CountDocuments();
  ASSERT_FALSE(n.ok());
  EXPECT_TRUE(absl::IsDataLoss(n.status())) << n.status();
  EXPECT_EQ(ErrorCode(n.status()), kDataCorruptionDetected);
  EXPECT_TRUE(absl::StrContains(n.status().message(), "ttldb repair"));
  EXPECT_TRUE(absl::IsDataLoss(b.InsertOne(R"({"_id": 1})").status()));
  EXPECT_TRUE(absl::IsDataLoss(b.Find("{}").status()));
  EXPECT_TRUE(absl::IsDataLoss(b.CreateIndex(R"({"x": 1})").status()));
  EXPECT_TRUE(absl::IsDataLoss(db->CreateCollection("b")));
  EXPECT_TRUE(absl::IsDataLoss(db->RenameCollection("a", "b")));
  // Dropping it removes the entry; the name is then free and b is new.
  EXPECT_EQ(*db->DropCollection("b"), true);
  EXPECT_TRUE(db->CatalogDamage().empty());
  ASSERT_TRUE(b.InsertOne(R"({"_id": 1})").ok());
  EXPECT_EQ(*b.CountDocuments(), 1);
}

// A catalog entry whose id is another collection's: the two share storage,
// so neither can be trusted; both are reported, the rest opens.
TEST(CatalogDamage, SharedIdIsReportedForBoth) {
  TempDir dir;
  Populate(dir.path());
  Damage(dir.path(), [](leveldb::DB* ldb) {
    proto::CollectionInfo b = ReadInfo(ldb, "b");
    b.set_id(ReadInfo(ldb, "a").id());
    ASSERT_TRUE(ldb->Put(leveldb::WriteOptions(), CatalogKey("b"),
                         b.SerializeAsString())
                    .ok());
    proto::CollectionInfo z;
    z.set_id(50);
    z.set_name("z");
    z.set_next_index_id(1);
    ASSERT_TRUE(ldb->Put(leveldb::WriteOptions(), CatalogKey("z"),
                         z.SerializeAsString())
                    .ok());
  });
  auto db = OpenOrDie(dir.path());
  ASSERT_NE(db, nullptr);
  const auto damage = db->CatalogDamage();
  ASSERT_EQ(damage.size(), 2u);
  EXPECT_TRUE(absl::StrContains(damage.at("a"), "share")) << damage.at("a");
  EXPECT_TRUE(absl::StrContains(damage.at("b"), "share"));
  EXPECT_EQ(*db->ListCollectionNames(), std::vector<std::string>{"z"});
  EXPECT_TRUE(absl::IsDataLoss(db->collection("a").CountDocuments().status()));
  // A new collection gets an id above 50.
  ASSERT_TRUE(db->collection("n").InsertOne(R"({"_id": 1})").ok());
  EXPECT_EQ(*db->collection("n").CountDocuments(), 1);
}

}  // namespace
}  // namespace ttldb
