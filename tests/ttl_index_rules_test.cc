// MongoDB's index rules where ttldb differed (issue 13), through the public
// API on real databases. Each test cites the MongoDB source its expected
// answer comes from.
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "proto/catalog.pb.h"
#include "storage/keys.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "tools/import_export.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/ttldb_testing.h"

namespace ttldb {
namespace {

class TtlIndexRulesTest : public DbTest {
 protected:
  void AdjustOptions(Options* options) override {
    options->hide_expired = false;  // count what is stored
  }

  // Rewrites the stored expireAfterSeconds of index `name` of `coll`, as a
  // catalog written by an older or damaged file would hold it (createIndex
  // and collMod never store such a value).
  void StoreExpireAfterSeconds(const std::string& coll, const std::string& name,
                               double value) {
    db_.reset();
    leveldb::DB* raw = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir_.path(), &raw).ok());
    std::unique_ptr<leveldb::DB> ldb(raw);
    std::string bytes;
    ASSERT_TRUE(
        ldb->Get(leveldb::ReadOptions(), CatalogKey(coll), &bytes).ok());
    proto::CollectionInfo info;
    ASSERT_TRUE(info.ParseFromString(bytes));
    bool found = false;
    for (proto::IndexSpec& spec : *info.mutable_indexes()) {
      if (spec.name() != name) continue;
      spec.set_expire_after_seconds(value);
      found = true;
    }
    ASSERT_TRUE(found);
    ASSERT_TRUE(ldb->Put(leveldb::WriteOptions(), CatalogKey(coll),
                         info.SerializeAsString())
                    .ok());
    ldb.reset();
    Open();
  }

  void Insert(Collection& c, int id, const std::string& level) {
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", id, R"(, "level": ")",
                                         level, R"(", "createdAt": )",
                                         DateJson(kTestStart), "}"))
                    .ok());
  }

  bool Has(Collection& c, int id) { return c.FindById(Value::Int32(id)).ok(); }
};

// Partial filter, unique, sparse (and collation) identify an index: two
// partial TTL indexes on one key with different filters coexist
// (src/mongo/db/index/index_descriptor.cpp compareIndexOptions returns
// kDifferent for different partialFilterExpressions;
// jstests/core/index/index_partial_create_drop.js creates such pairs).
TEST_F(TtlIndexRulesTest, TwoPartialTtlIndexesOnOneKeyEachExpireTheirOwn) {
  Collection& log = db_->collection("log");
  auto debug =
      log.CreateIndex(R"({"createdAt": 1})",
                      R"({"name": "debug_1h", "expireAfterSeconds": 3600,
          "partialFilterExpression": {"level": "debug"}})");
  ASSERT_TRUE(debug.ok()) << debug.status();
  auto info =
      log.CreateIndex(R"({"createdAt": 1})",
                      R"({"name": "info_30d", "expireAfterSeconds": 2592000,
          "partialFilterExpression": {"level": "info"}})");
  ASSERT_TRUE(info.ok()) << info.status();
  // The same key and filter again under a third name is the same index.
  auto again = log.CreateIndex(R"({"createdAt": 1})",
                               R"({"name": "other", "expireAfterSeconds": 3600,
          "partialFilterExpression": {"level": "debug"}})");
  EXPECT_EQ(ErrorCode(again.status()), kIndexOptionsConflict);
  EXPECT_EQ(again.status().message(),
            "Index already exists with a different name: debug_1h");
  ASSERT_EQ(log.ListIndexes()->size(), 3u);

  Insert(log, 1, "debug");
  Insert(log, 2, "info");
  Insert(log, 3, "warn");  // matches neither filter: never expires

  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kTestStart + absl::Minutes(59))
                .deleted_documents,
            0);
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kTestStart + absl::Hours(1))
                .deleted_documents,
            1);
  EXPECT_FALSE(Has(log, 1));
  EXPECT_TRUE(Has(log, 2));
  EXPECT_EQ(ttldb_testing::RunTtlPass(
                *db_, kTestStart + absl::Hours(24 * 30) - absl::Seconds(1))
                .deleted_documents,
            0);
  EXPECT_EQ(ttldb_testing::RunTtlPass(*db_, kTestStart + absl::Hours(24 * 30))
                .deleted_documents,
            1);
  EXPECT_FALSE(Has(log, 2));
  EXPECT_EQ(
      ttldb_testing::RunTtlPass(*db_, kTestStart + absl::Hours(24 * 365 * 100))
          .deleted_documents,
      0);
  EXPECT_TRUE(Has(log, 3));
  EXPECT_TRUE(log.Validate()->Get("valid")->bool_value());

  // With two indexes on the key pattern, a key pattern no longer names one:
  // 181 AmbiguousIndexKeyPattern (src/mongo/db/catalog/coll_mod.cpp,
  // drop_indexes.cpp); by name works.
  auto mod = log.CollMod(
      R"({"index": {"keyPattern": {"createdAt": 1}, "expireAfterSeconds": 60}})");
  EXPECT_EQ(ErrorCode(mod.status()), kAmbiguousIndexKeyPattern);
  EXPECT_EQ(ErrorCode(log.DropIndexByKey(R"({"createdAt": 1})")),
            kAmbiguousIndexKeyPattern);
  EXPECT_TRUE(log.CollMod(R"({"index": {"name": "info_30d",
                                         "expireAfterSeconds": 60}})")
                  .ok());
  EXPECT_TRUE(log.DropIndex("debug_1h").ok());
  EXPECT_TRUE(log.DropIndexByKey(R"({"createdAt": 1})").ok());
}

// The texts of src/mongo/db/catalog/index_catalog_impl.cpp
// _doesSpecConflictWithExisting, case by case.
TEST_F(TtlIndexRulesTest, ConflictMessagesAreMongoDbs) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})").ok());
  const std::string existing =
      R"({"v":2,"key":{"t":1},"name":"t_1","expireAfterSeconds":60})";

  // Same name, same key, only an option differs: 85, "same name".
  auto r = c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 120})");
  EXPECT_EQ(ErrorCode(r.status()), kIndexOptionsConflict);
  EXPECT_EQ(r.status().message(),
            absl::StrCat("An equivalent index already exists with the same "
                         "name but different options. Requested index: "
                         R"({"v":2,"key":{"t":1},"name":"t_1",)"
                         R"("expireAfterSeconds":120}, existing index: )",
                         existing));

  // Same name, another key: 86.
  r = c.CreateIndex(R"({"u": 1})", R"({"name": "t_1"})");
  EXPECT_EQ(ErrorCode(r.status()), kIndexKeySpecsConflict);
  EXPECT_EQ(r.status().message(),
            absl::StrCat("An existing index has the same name as the "
                         "requested index. Requested index: "
                         R"({"v":2,"key":{"u":1},"name":"t_1"}, )"
                         "existing index: ",
                         existing));

  // Another name, same key and options: 85 naming the existing index.
  r = c.CreateIndex(R"({"t": 1})",
                    R"({"name": "x", "expireAfterSeconds": 60})");
  EXPECT_EQ(ErrorCode(r.status()), kIndexOptionsConflict);
  EXPECT_EQ(r.status().message(),
            "Index already exists with a different name: t_1");

  // Another name, same key, an option differs: 85, "different name".
  r = c.CreateIndex(R"({"t": 1})",
                    R"({"name": "x", "expireAfterSeconds": 120})");
  EXPECT_EQ(ErrorCode(r.status()), kIndexOptionsConflict);
  EXPECT_EQ(r.status().message(),
            absl::StrCat("An equivalent index already exists with a "
                         "different name and options. Requested index: "
                         R"({"v":2,"key":{"t":1},"name":"x",)"
                         R"("expireAfterSeconds":120}, existing index: )",
                         existing));

  // The identical spec is a no-op; nothing above changed anything.
  EXPECT_EQ(*c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})"),
            "t_1");
  ASSERT_EQ(c.ListIndexes()->size(), 2u);
  EXPECT_EQ(ToJson((*c.ListIndexes())[1]), existing);
}

// src/mongo/db/catalog/coll_mod.cpp: the _id index is found, then refused
// with 72 "the _id field does not support TTL indexes"; CollModIndex's
// expireAfterSeconds is a safeInt (src/mongo/db/coll_mod.idl), so a string
// is the IDL parser's 14 TypeMismatch.
TEST_F(TtlIndexRulesTest, CollModOnTheIdIndexAndAStringExpireAfterSeconds) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})").ok());
  auto r =
      c.CollMod(R"({"index": {"name": "_id_", "expireAfterSeconds": 60}})");
  EXPECT_EQ(ErrorCode(r.status()), kInvalidOptions);
  EXPECT_EQ(r.status().message(), "the _id field does not support TTL indexes");
  r = c.CollMod(
      R"({"index": {"keyPattern": {"_id": 1}, "expireAfterSeconds": 60}})");
  EXPECT_EQ(ErrorCode(r.status()), kInvalidOptions);
  EXPECT_EQ(r.status().message(), "the _id field does not support TTL indexes");
  r = c.CollMod(R"({"index": {"name": "_id_", "hidden": true}})");
  EXPECT_EQ(ErrorCode(r.status()), kBadValue);
  EXPECT_EQ(r.status().message(), "can't hide _id index");

  r = c.CollMod(R"({"index": {"name": "t_1", "expireAfterSeconds": "60"}})");
  EXPECT_EQ(ErrorCode(r.status()), kTypeMismatch);
  EXPECT_EQ(r.status().message(),
            "BSON field 'collMod.index.expireAfterSeconds' is the wrong type "
            "'string', expected types '[long, int, decimal, double]'");
  r = c.CollMod(R"({"index": {"name": "t_1", "expireAfterSeconds": true}})");
  EXPECT_EQ(ErrorCode(r.status()), kTypeMismatch);
  EXPECT_EQ(ToJson((*c.ListIndexes())[1]),
            R"({"v":2,"key":{"t":1},"name":"t_1","expireAfterSeconds":60})");
}

// An invalid stored expireAfterSeconds is listed as 2147483647
// (src/mongo/db/catalog/index_key_validate.cpp repairIndexSpec,
// kExpireAfterSecondsForInactiveTTLIndex), stays inactive (ttl_test.cpp
// SkipInvalidTTLTest), and export -> import round trips.
TEST_F(TtlIndexRulesTest, InvalidStoredValueIsListedAsInt32MaxAndRoundTrips) {
  for (double bad : {std::nan(""), -5.0, 2147483648.0, 1e300,
                     -std::numeric_limits<double>::infinity()}) {
    SCOPED_TRACE(bad);
    ASSERT_TRUE(db_->DropCollection("c").ok());
    Collection& c = db_->collection("c");
    ASSERT_TRUE(
        c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})").ok());
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": 1, "t": )",
                                         DateJson(kTestStart), "}"))
                    .ok());
    StoreExpireAfterSeconds("c", "t_1", bad);
    Collection& c2 = db_->collection("c");
    EXPECT_EQ(ToJson((*c2.ListIndexes())[1]),
              R"({"v":2,"key":{"t":1},"name":"t_1",)"
              R"("expireAfterSeconds":2147483647})");
    TtlPassStats s =
        ttldb_testing::RunTtlPass(*db_, kTestStart + absl::Hours(1));
    EXPECT_EQ(s.deleted_documents, 0);
    EXPECT_EQ(s.invalid_index_skips, 1);

    // Export the specs and create them in another collection.
    std::ostringstream out;
    ASSERT_TRUE(ExportIndexes(db_.get(), "c", &out).ok());
    ASSERT_TRUE(db_->DropCollection("copy").ok());
    auto n = ImportIndexes(db_.get(), "copy", out.str());
    ASSERT_TRUE(n.ok()) << n.status() << "\n" << out.str();
    EXPECT_EQ(*n, 1);
    EXPECT_EQ(ToJson((*db_->collection("copy").ListIndexes())[1]),
              ToJson((*c2.ListIndexes())[1]));
  }
}

// A fractional stored value is valid and active, truncated: MongoDB's
// ttl_test.cpp TTLDoubleFitsIntoInt32 (4.5) and the monitor's
// safeNumberLong. listIndexes shows it as stored (repairIndexSpec only
// replaces invalid values).
TEST_F(TtlIndexRulesTest, FractionalStoredValueIsTruncatedAndActive) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": 1, "t": )",
                                       DateJson(kTestStart), "}"))
                  .ok());
  StoreExpireAfterSeconds("c", "t_1", 4.5);
  Collection& c2 = db_->collection("c");
  EXPECT_EQ(ToJson((*c2.ListIndexes())[1]),
            R"({"v":2,"key":{"t":1},"name":"t_1","expireAfterSeconds":4.5})");
  TtlPassStats s =
      ttldb_testing::RunTtlPass(*db_, kTestStart + absl::Seconds(3));
  EXPECT_EQ(s.deleted_documents, 0);
  s = ttldb_testing::RunTtlPass(*db_, kTestStart + absl::Seconds(4));
  EXPECT_EQ(s.deleted_documents, 1);
  EXPECT_EQ(s.invalid_index_skips, 0);
}

}  // namespace
}  // namespace ttldb
