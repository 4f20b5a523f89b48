// What an insert puts into the document cache (engine/write_path.cc,
// WriteDocumentLocked): written through while the key's shard has room,
// then as DocCache::Admit admits a read miss (one in 8), so that inserts
// into a full cache do not evict at every insert; and the documents an
// insert removes (a hidden duplicate under a unique index) leave the cache
// even when the insert's own key needs no bracket.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "document/compare.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "storage/keys.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

struct Fixture {
  TempDir dir;
  FakeClock clock{kTestStart};
  std::unique_ptr<Database> db;
  Collection* coll = nullptr;
  DbImpl* engine = nullptr;

  explicit Fixture(size_t cache_bytes) {
    Options options;
    options.ttl_monitor_enabled = false;
    options.clock = &clock;
    options.doc_cache_bytes = cache_bytes;
    db = std::move(Database::Open(dir.path(), options).value());
    coll = &db->collection("c");
    engine = DatabaseInternal::engine(*db);
  }
  std::string Key(const Value& id) {
    return DocumentKey(engine->GetState("c")->info.id(), EncodeId(id));
  }
  bool Cached(const Value& id) {
    return engine->doc_cache()->Lookup(Key(id)) != nullptr;
  }
};

Value Doc(int i) {
  return Value::MakeObject(
      {Field("_id", Value::Int32(i)),
       Field("payload", Value::String(std::string(100, 'a' + i % 26)))});
}

TEST(InsertCacheTest, WrittenThroughWhileThereIsRoomThenOneInEight) {
  constexpr size_t kCapacity = 64 << 10;
  Fixture f(kCapacity);
  const size_t charge =
      CacheCharge(std::string(16, 'k'), Doc(0));  // about every document's
  // While the total stays under one shard's capacity no shard is full:
  // every insert is cached, as before.
  int i = 0;
  for (; (i + 1) * (charge + 16) < kCapacity / 16; ++i) {
    ASSERT_TRUE(f.coll->InsertOne(Doc(i)).ok());
    EXPECT_TRUE(f.Cached(Value::Int32(i))) << i;
  }
  // Fill every shard.
  for (; i < 2000; ++i) ASSERT_TRUE(f.coll->InsertOne(Doc(i)).ok());
  ASSERT_GT(f.engine->doc_cache()->charged_bytes(), kCapacity * 3 / 4);
  // Into the full cache, one insert in 8 per shard is cached (16 shards:
  // at most one more or fewer each).
  int cached = 0;
  for (int n = 0; n < 800; ++n, ++i) {
    ASSERT_TRUE(f.coll->InsertOne(Doc(i)).ok());
    if (f.Cached(Value::Int32(i))) ++cached;
  }
  EXPECT_GE(cached, 100 - 16);
  EXPECT_LE(cached, 100 + 16);
  EXPECT_LE(f.engine->doc_cache()->charged_bytes(), kCapacity);
  // Every document reads back exactly, cached or not; a read of one that
  // was not cached is a read miss like any other.
  for (int k = 0; k < i; k += 37) {
    auto got = f.coll->FindById(Value::Int32(k));
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_TRUE(IdenticalValues(*got, Doc(k))) << k;
  }
}

TEST(InsertCacheTest, UpdatesAlwaysWriteThrough) {
  Fixture f(64 << 10);
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(f.coll->InsertOne(Doc(i)).ok());
  for (int i = 0; i < 2000; i += 97) {
    const Value filter = Value::MakeObject({Field("_id", Value::Int32(i))});
    ASSERT_TRUE(f.coll->UpdateOne(filter, R"({"$set": {"x": 1}})").ok());
    EXPECT_TRUE(f.Cached(Value::Int32(i))) << i;
    auto got = f.coll->FindById(Value::Int32(i));
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(ToJson(*got, JsonFormat::kCanonical),
              absl::StrCat(R"({"_id":{"$numberInt":")", i, R"("},"payload":")",
                           std::string(100, 'a' + i % 26),
                           R"(","x":{"$numberInt":"1"}})"));
  }
}

// An insert above every stored _id skips the cache bracket of its own key;
// a hidden (expired) document it displaces under a unique index must still
// leave the cache. Hidden-means-absent: docs/ttl.md.
TEST(InsertCacheTest, ADisplacedHiddenDocumentLeavesTheCache) {
  Fixture f(1 << 20);
  ASSERT_TRUE(
      f.coll->CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 10})").ok());
  ASSERT_TRUE(f.coll->CreateIndex(R"({"u": 1})", R"({"unique": true})").ok());
  const int64_t now = absl::ToUnixMillis(kTestStart);
  ASSERT_TRUE(f.coll
                  ->InsertOne(absl::StrCat(
                      R"({"_id": 1, "u": 5, "t": {"$date": {"$numberLong": ")",
                      now, R"("}}})"))
                  .ok());
  ASSERT_TRUE(f.coll->FindById(Value::Int32(1)).ok());
  ASSERT_TRUE(f.Cached(Value::Int32(1)));
  f.clock.Advance(absl::Seconds(11));  // _id 1 is hidden now
  // NaN: not written through (ReparsesIdentically), so no bracket of its
  // own key either.
  ASSERT_TRUE(
      f.coll->InsertOne(R"({"_id": 2, "u": 5, "n": {"$numberDouble": "NaN"}})")
          .ok());
  EXPECT_FALSE(f.Cached(Value::Int32(2)));
  EXPECT_FALSE(f.Cached(Value::Int32(1)));
  EXPECT_EQ(f.coll->CountDocuments("{}").value(), 1);
  EXPECT_TRUE(f.coll->FindById(Value::Int32(2)).ok());
  // A visible duplicate is still refused, through the _id read (below the
  // bound) and through the unique index (above it).
  EXPECT_FALSE(f.coll->InsertOne(R"({"_id": 2})").ok());
  EXPECT_FALSE(f.coll->InsertOne(R"({"_id": 3, "u": 5})").ok());
}

}  // namespace
}  // namespace ttldb
