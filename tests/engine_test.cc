// The document store through the public API: open, insert, read, update,
// delete, indexes, persistence and bad input, on real LevelDB directories.
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.clock = &clock_;
    options.ttl_monitor_enabled = false;
    options_ = options;
    Reopen();
  }
  void Reopen() {
    db_.reset();
    auto db = Database::Open(dir_.path(), options_);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }
  std::vector<std::string> All(Collection& c, const char* filter = "{}",
                               FindOptions options = {}) {
    auto cursor = c.Find(filter, options);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    std::vector<std::string> out;
    auto docs = (*cursor)->ToVector();
    EXPECT_TRUE(docs.ok()) << docs.status();
    for (const Value& d : *docs) out.push_back(ToJson(d));
    return out;
  }

  TempDir dir_;
  FakeClock clock_;
  Options options_;
  std::unique_ptr<Database> db_;
};

TEST_F(EngineTest, InsertFindByIdAndPersistAcrossReopen) {
  Collection& c = db_->collection("users");
  auto id =
      c.InsertOne(R"({"_id": 1, "name": "ada", "n": {"$numberLong": "7"}})");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(ToJson(*id), "1");
  auto gen = c.InsertOne(R"({"name": "bob"})");
  ASSERT_TRUE(gen.ok());
  EXPECT_EQ(gen->type(), ValueType::kObjectId);

  Reopen();
  Collection& c2 = db_->collection("users");
  auto doc = c2.FindById(Value::Int32(1));
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(
      ToJson(*doc, JsonFormat::kCanonical),
      R"({"_id":{"$numberInt":"1"},"name":"ada","n":{"$numberLong":"7"}})");
  auto bob = c2.FindById(*gen);
  ASSERT_TRUE(bob.ok());
  // The generated _id comes first.
  EXPECT_EQ(bob->object_fields().front().first, "_id");
  EXPECT_EQ(*c2.CountDocuments(), 2);
  EXPECT_EQ(*db_->ListCollectionNames(), std::vector<std::string>{"users"});
}

TEST_F(EngineTest, DuplicateIdIs11000AndWritesNothing) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": "a", "v": 1})").ok());
  auto dup = c.InsertOne(R"({"_id": "a", "v": 2})");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(ErrorCode(dup.status()), 11000);
  EXPECT_EQ(
      dup.status().message(),
      R"(E11000 duplicate key error collection: test.c index: _id_ dup key: { _id: "a" })");
  EXPECT_EQ(All(c), std::vector<std::string>{R"({"_id":"a","v":1})"});
}

// A multikey collision names the one element that collided, as MongoDB's
// duplicate key error does (its keyValue is built from the colliding index
// key: src/mongo/db/storage/duplicate_key_error_info.cpp), not the array.
TEST_F(EngineTest, MultikeyDuplicateNamesTheCollidingElement) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1, "b": 1})", R"({"unique": true})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 2, "b": 5})").ok());
  auto dup = c.InsertOne(R"({"_id": 2, "a": [1, 2, 3], "b": 5})");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(ErrorCode(dup.status()), 11000);
  EXPECT_EQ(dup.status().message(),
            "E11000 duplicate key error collection: test.c index: a_1_b_1 "
            "dup key: { a: 2, b: 5 }");
  Collection& d = db_->collection("d");
  ASSERT_TRUE(d.CreateIndex(R"({"t.x": 1})", R"({"unique": true})").ok());
  ASSERT_TRUE(d.InsertOne(R"({"_id": 3, "t": [{"x": "p"}, {"x": "q"}]})").ok());
  dup = d.InsertOne(R"({"_id": 4, "t": [{"x": "r"}, {"x": "q"}]})");
  EXPECT_EQ(dup.status().message(),
            "E11000 duplicate key error collection: test.d index: t.x_1 "
            "dup key: { t.x: \"q\" }");
  EXPECT_EQ(c.CountDocuments("{}").value_or(-1), 1);
  EXPECT_EQ(d.CountDocuments("{}").value_or(-1), 1);
}

TEST_F(EngineTest, NumericIdsOfDifferentTypesAreTheSameKey) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 5})").ok());
  auto dup = c.InsertOne(R"({"_id": 5.0})");
  EXPECT_EQ(ErrorCode(dup.status()), 11000);
}

TEST_F(EngineTest, InsertManyIsOrderedAndKeepsEarlierDocuments) {
  Collection& c = db_->collection("c");
  std::vector<Value> ids;
  absl::Status s = c.InsertMany(
      {R"({"_id": 1})", R"({"_id": 2})", R"({"_id": 1})", R"({"_id": 3})"},
      &ids);
  EXPECT_EQ(ErrorCode(s), 11000);
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_EQ(All(c), (std::vector<std::string>{R"({"_id":1})", R"({"_id":2})"}));
  // A malformed document fails the whole call before anything is written.
  s = c.InsertMany({R"({"_id": 10})", R"({"_id": )"});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(c.FindById(Value::Int32(10)).ok());
}

TEST_F(EngineTest, BadInputIsRejectedAndChangesNothing) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1})").ok());
  const char* bad[] = {
      R"({"a": )",                             // truncated
      R"([1, 2])",                             // not an object
      "{\"a\": \"\xff\"}",                     // invalid UTF-8
      R"({"$set": 1})",                        // $-prefixed top-level field
      R"({"_id": [1, 2]})",                    // array _id
      R"({"a": {"$numberDecimal": "1.5x"}})",  // not a Decimal128 string
  };
  for (const char* doc : bad) {
    auto r = c.InsertOne(doc);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << doc;
  }
  std::string deep;
  for (int i = 0; i < 101; ++i) deep += "{\"a\":";
  deep += "1";
  for (int i = 0; i < 101; ++i) deep += "}";
  EXPECT_EQ(c.InsertOne(deep).status().code(),
            absl::StatusCode::kInvalidArgument);
  std::string huge = "{\"a\":\"" + std::string(17 << 20, 'x') + "\"}";
  EXPECT_EQ(c.InsertOne(huge).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(db_->collection("bad$name").InsertOne("{}").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorCode(db_->collection("").InsertOne("{}").status()), 73);
  EXPECT_EQ(All(c), std::vector<std::string>{R"({"_id":1})"});
  EXPECT_EQ(*db_->ListCollectionNames(), std::vector<std::string>{"c"});
}

TEST_F(EngineTest, ValuesThatCannotBeReadBackAreRefused) {
  // Found in review: a Value built in code could store invalid UTF-8 or a
  // nested {"$date": ...} object that every later read failed on or misread.
  Collection& c = db_->collection("c");
  Value bad = Value::MakeObject(
      {Field("_id", Value::Int32(1)), Field("s", Value::String("bad \xff"))});
  EXPECT_EQ(c.InsertOne(bad).status().code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "s": "ok"})").ok());
  Value set = Value::MakeObject({Field(
      "$set",
      Value::MakeObject({Field(
          "o", Value::MakeObject({Field("$date", Value::Int32(5))}))}))});
  EXPECT_EQ(c.UpdateOne(R"({"_id": 2})", set).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(All(c), std::vector<std::string>{R"({"_id":2,"s":"ok"})"});
}

TEST_F(EngineTest, TextInputIsStoredExactlyAsItsParsedValue) {
  // JSON text and its parsed Value take the same way in: every text is
  // accepted or refused exactly as its parsed Value is, and reads back as
  // that Value (the parser alone accepts NUL in field names; the write
  // path's storable check refuses it either way).
  Collection& text = db_->collection("text");
  Collection& value = db_->collection("value");
  const char* inputs[] = {
      R"({"_id": 1, "a": {"$date": 5, "x": 1}})",
      R"({"_id": 2, "a": {"$foo": 1}})",
      R"({"_id": 3, "b": {"$numberLong": "5", "y": 2}})",
      R"({"_id": 4, "c": {"$regex": "a", "$options": "zi"}})",
      R"({"_id": 5, "d": {"$numberDouble": "NaN"}})",
      R"({"_id": 6, "e": "caf\u00e9 \ud83d\ude00", "f": [[[{"g": null}]]]})",
      R"({"_id": 7, "h": {"$oid": "5f0000000000000000000001"}, "i": -0.0})",
      R"({"_id": 8, "j": {"$binary": {"base64": "AQI=", "subType": "05"}}})",
      R"({"_id": 9, "k": {"$undefined": true}})",
      R"({"_id": 10, "l": {"": 1, "a.b": 2}})",
      R"({"_id": 11, "m": {"$date": "2027-01-15T08:00:00Z"}})",
      R"({"_id": 13, "a": {"x\u0000y": 1}})",
      R"({"_id": 12, "n": {"$timestamp": {"t": 1, "i": 2}}, "o": 1e400})",
  };
  for (const char* json : inputs) {
    SCOPED_TRACE(json);
    auto parsed = ParseDocument(json);
    if (!parsed.ok()) {
      EXPECT_FALSE(text.InsertOne(json).ok());
      continue;
    }
    auto from_value = value.InsertOne(*parsed);
    auto from_text = text.InsertOne(json);
    ASSERT_EQ(from_text.status().code(), from_value.status().code())
        << from_text.status() << " / " << from_value.status();
    if (!from_text.ok()) continue;
    auto back = text.FindById(*from_text);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(ToJson(*back, JsonFormat::kCanonical),
              ToJson(*parsed, JsonFormat::kCanonical));
  }
  EXPECT_EQ(All(text), All(value));
}

TEST_F(EngineTest, UpdateOneLooksAgainWhenItsCandidateChanged) {
  // Two workers claim jobs with UpdateOne({state: "open"}, ...). The first
  // candidate is claimed by another client between the match and the lock:
  // the update must claim the next open job, not report no match.
  Collection& jobs = db_->collection("jobs");
  ASSERT_TRUE(jobs.InsertMany({R"({"_id": 1, "state": "open"})",
                               R"({"_id": 2, "state": "open"})"})
                  .ok());
  bool fired = false;
  SyncPoint::Set("Collection::RunWrite:AfterMatch", [&] {
    if (fired) return;
    fired = true;
    ASSERT_EQ(jobs.UpdateOne(R"({"_id": 1})", R"({"$set": {"state": "other"}})")
                  ->modified_count,
              1);
  });
  auto r =
      jobs.UpdateOne(R"({"state": "open"})", R"({"$set": {"state": "mine"}})");
  SyncPoint::ClearAll();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(All(jobs),
            (std::vector<std::string>{R"({"_id":1,"state":"other"})",
                                      R"({"_id":2,"state":"mine"})"}));
}

TEST_F(EngineTest, SecondOpenOfTheSameDirectoryFails) {
  auto second = Database::Open(dir_.path(), options_);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(second.status().message().find("already open"),
            absl::string_view::npos);
}

TEST_F(EngineTest, UpdateReplaceDelete) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertMany({R"({"_id": 1, "n": 1})", R"({"_id": 2, "n": 2})",
                            R"({"_id": 3, "n": 3})"})
                  .ok());
  auto r = c.UpdateMany(R"({"n": {"$gte": 2}})", R"({"$inc": {"n": 10}})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 2);
  EXPECT_EQ(r->modified_count, 2);
  r = c.UpdateOne(R"({"_id": 1})", R"({"$set": {"n": 1}})");
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(r->modified_count, 0);
  r = c.ReplaceOne(R"({"_id": 2})", R"({"x": "y"})");
  ASSERT_TRUE(r.ok()) << r.status();
  auto id_change = c.UpdateOne(R"({"_id": 3})", R"({"$set": {"_id": 4}})");
  EXPECT_EQ(ErrorCode(id_change.status()), 66);
  EXPECT_EQ(*c.DeleteOne(R"({"_id": 1})"), 1);
  EXPECT_EQ(All(c), (std::vector<std::string>{R"({"_id":2,"x":"y"})",
                                              R"({"_id":3,"n":13})"}));
  auto up = c.UpdateOne(R"({"k": "new"})", R"({"$set": {"v": 1}})",
                        UpdateOptions{.upsert = true});
  ASSERT_TRUE(up.ok()) << up.status();
  ASSERT_TRUE(up->upserted_id.has_value());
  EXPECT_EQ(*c.CountDocuments(R"({"k": "new", "v": 1})"), 1);
  EXPECT_EQ(*c.DeleteMany("{}"), 3);
  EXPECT_EQ(*c.CountDocuments(), 0);
}

TEST_F(EngineTest, SecondaryIndexIsUsedAndMaintained) {
  Collection& c = db_->collection("c");
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "g": )", i % 5,
                                         R"(, "tags": ["t)", i % 3, R"("]})"))
                    .ok());
  }
  auto name = c.CreateIndex(R"({"g": 1})");
  ASSERT_TRUE(name.ok()) << name.status();
  EXPECT_EQ(*name, "g_1");
  ASSERT_TRUE(c.CreateIndex(R"({"tags": 1})").ok());
  auto explain = c.Explain(R"({"g": 3})");
  ASSERT_TRUE(explain.ok()) << explain.status();
  EXPECT_NE(ToJson(*explain).find(R"("stage":"IXSCAN","indexName":"g_1")"),
            std::string::npos)
      << ToJson(*explain);
  EXPECT_NE(
      ToJson(*explain).find(
          R"("nReturned":10,"totalKeysExamined":10,"totalDocsExamined":10)"),
      std::string::npos)
      << ToJson(*explain);
  EXPECT_EQ(*c.CountDocuments(R"({"g": 3})"), 10);
  EXPECT_EQ(*c.CountDocuments(R"({"g": {"$in": [1, 2]}})"), 20);
  EXPECT_EQ(*c.CountDocuments(R"({"g": {"$gt": 2}})"), 20);
  EXPECT_EQ(*c.CountDocuments(R"({"tags": "t1"})"), 17);
  ASSERT_TRUE(c.UpdateMany(R"({"g": 3})", R"({"$set": {"g": 30}})").ok());
  EXPECT_EQ(*c.CountDocuments(R"({"g": 3})"), 0);
  EXPECT_EQ(*c.CountDocuments(R"({"g": 30})"), 10);
  ASSERT_TRUE(c.DeleteMany(R"({"g": 30})").ok());
  auto v = c.Validate();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->Get("valid")->bool_value(), true) << ToJson(*v);
  EXPECT_EQ(ToJson(*v->Get("keysPerIndex")),
            R"({"_id_":40,"g_1":40,"tags_1":40})");
}

TEST_F(EngineTest, IndexConflictsAndUnique) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})", R"({"unique": true})").ok());
  EXPECT_TRUE(c.CreateIndex(R"({"a": 1})", R"({"unique": true})").ok());
  // Same name a_1, but unique is an identifying option, so the two specs
  // are "different" indexes: 86 IndexKeySpecsConflict, as MongoDB's
  // _doesSpecConflictWithExisting (src/mongo/db/catalog/
  // index_catalog_impl.cpp) answers when the name is taken.
  EXPECT_EQ(ErrorCode(c.CreateIndex(R"({"a": 1})").status()), 86);
  EXPECT_EQ(
      ErrorCode(c.CreateIndex(R"({"b": 1})", R"({"name": "a_1"})").status()),
      86);
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 1})").ok());
  auto dup = c.InsertOne(R"({"_id": 2, "a": 1})");
  EXPECT_EQ(ErrorCode(dup.status()), 11000);
  EXPECT_FALSE(c.FindById(Value::Int32(2)).ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "a": 2})").ok());
  EXPECT_EQ(
      ErrorCode(c.UpdateOne(R"({"_id": 2})", R"({"$set": {"a": 1}})").status()),
      11000);
  EXPECT_EQ(*c.CountDocuments(R"({"a": 2})"), 1);
  auto indexes = c.ListIndexes();
  ASSERT_TRUE(indexes.ok());
  ASSERT_EQ(indexes->size(), 2u);
  EXPECT_EQ(ToJson((*indexes)[0]), R"({"v":2,"key":{"_id":1},"name":"_id_"})");
  EXPECT_EQ(ToJson((*indexes)[1]),
            R"({"v":2,"key":{"a":1},"name":"a_1","unique":true})");
  ASSERT_TRUE(c.DropIndex("a_1").ok());
  EXPECT_EQ(ErrorCode(c.DropIndex("a_1")), 27);
  EXPECT_TRUE(c.InsertOne(R"({"_id": 3, "a": 1})").ok());
}

// {_id: 1} and {_id: -1} name the _id index every collection has: nothing
// is built, "_id_" is the answer, and a missing collection is created as
// any createIndexes creates it. MongoDB: IndexDescriptor::isIdIndexPattern
// and IndexCatalogImpl::_fixIndexSpec (src/mongo/db/catalog/
// index_catalog_impl.cpp: key {_id: 1}, name "_id_"), and
// jstests/core/index_id_desc.js (after ensureIndex({_id: -1}) on a dropped
// collection, getIndexes() is exactly [{key: {_id: 1}, name: "_id_"}]).
TEST_F(EngineTest, IdKeyPatternIsTheIdIndexInEitherDirection) {
  for (const char* keys : {R"({"_id": -1})", R"({"_id": 1})"}) {
    const std::string name =
        std::string("c") + (keys[8] == '-' ? "desc" : "asc");
    Collection& c = db_->collection(name);
    auto r = c.CreateIndex(keys);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(*r, "_id_");
    auto indexes = c.ListIndexes();
    ASSERT_TRUE(indexes.ok());
    ASSERT_EQ(indexes->size(), 1u) << keys;
    EXPECT_EQ(ToJson((*indexes)[0]),
              R"({"v":2,"key":{"_id":1},"name":"_id_"})");
    // Again, on the existing collection: still nothing new.
    EXPECT_EQ(*c.CreateIndex(keys), "_id_");
    EXPECT_EQ(c.ListIndexes()->size(), 1u);
    EXPECT_EQ(ToJson(*c.Stats()->Get("nindexes")), "1");
  }
  EXPECT_EQ(*db_->ListCollectionNames(),
            (std::vector<std::string>{"casc", "cdesc"}));
}

TEST_F(EngineTest, SortSkipLimitProjection) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertMany({R"({"_id": 1, "k": "b", "x": 1})",
                            R"({"_id": 2, "k": "a", "x": 2})",
                            R"({"_id": 3, "k": "c", "x": 3})"})
                  .ok());
  FindOptions o;
  ASSERT_TRUE(ParseDocument(R"({"k": -1})").ok());
  o.sort = *ParseDocument(R"({"k": -1})");
  o.projection = *ParseDocument(R"({"x": 1, "_id": 0})");
  o.skip = 1;
  o.limit = 1;
  EXPECT_EQ(All(c, "{}", o), std::vector<std::string>{R"({"x":1})"});
}

TEST_F(EngineTest, DropAndRenameCollection) {
  Collection& c = db_->collection("a");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"x": 1})").ok());
  ASSERT_TRUE(db_->RenameCollection("a", "b").ok());
  EXPECT_EQ(*db_->collection("a").CountDocuments(), 0);
  EXPECT_EQ(*db_->collection("b").CountDocuments(), 1);
  EXPECT_EQ(db_->collection("b").ListIndexes()->size(), 2u);
  EXPECT_EQ(*db_->DropCollection("b"), true);
  EXPECT_EQ(*db_->DropCollection("b"), false);
  Reopen();
  EXPECT_TRUE(db_->ListCollectionNames()->empty());
}

TEST_F(EngineTest, CloseThenCallsFail) {
  ASSERT_TRUE(db_->Close().ok());
  EXPECT_TRUE(db_->Close().ok());
  EXPECT_EQ(db_->collection("c").InsertOne("{}").status().code(),
            absl::StatusCode::kFailedPrecondition);
}

// jstests/core/write/ts1.js; ops/insert.cpp fixDocumentForInsert(): a
// top-level Timestamp(0, 0) is set to the current time on insert, the
// increment counting up within one second; nested or other Timestamps and
// updates are left alone.
TEST_F(EngineTest, InsertSetsEmptyTimestampsToNow) {
  Collection& c = db_->collection("ts");
  const int64_t secs = absl::ToUnixSeconds(clock_.WallNow());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "x": {"$timestamp": {"t": 0,
                           "i": 0}}, "y": {"z": {"$timestamp": {"t": 0,
                           "i": 0}}}})")
                  .ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "x": {"$timestamp": {"t": 0,
                           "i": 0}}})")
                  .ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 3, "x": {"$timestamp": {"t": 5,
                           "i": 7}}})")
                  .ok());
  const std::string t = absl::StrCat(secs);
  EXPECT_EQ(All(c),
            (std::vector<std::string>{
                absl::StrCat(R"({"_id":1,"x":{"$timestamp":{"t":)", t,
                             R"(,"i":1}},"y":{"z":{"$timestamp":{"t":0,)"
                             R"("i":0}}}})"),
                absl::StrCat(R"({"_id":2,"x":{"$timestamp":{"t":)", t,
                             R"(,"i":2}}})"),
                R"({"_id":3,"x":{"$timestamp":{"t":5,"i":7}}})"}));
}

}  // namespace
}  // namespace ttldb
