// The public API's defining behaviour, run against both backends
// (backend_fixture.h): the embedded engine and the MongoDB backend talking
// to `ttldb serve`. Every expectation is the same for both; where MongoDB
// itself behaves differently, docs/migrating.md says so.
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/backends/backend_fixture.h"
#include "ttldb/duplicate_key_error.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

Value Doc(const std::string& json) {
  absl::StatusOr<Value> v = ParseDocument(json);
  EXPECT_TRUE(v.ok()) << v.status() << " in " << json;
  return v.ok() ? *v : Value::MakeObject();
}

std::string Json(const Value& v) { return ToJson(v); }

std::vector<std::string> Jsons(const std::vector<Value>& docs) {
  std::vector<std::string> out;
  for (const Value& d : docs) out.push_back(ToJson(d));
  return out;
}

std::vector<Value> All(absl::StatusOr<std::unique_ptr<Cursor>> cursor) {
  EXPECT_TRUE(cursor.ok()) << cursor.status();
  if (!cursor.ok()) return {};
  absl::StatusOr<std::vector<Value>> docs = (*cursor)->ToVector();
  EXPECT_TRUE(docs.ok()) << docs.status();
  return docs.ok() ? *docs : std::vector<Value>();
}

// ---- CRUD ------------------------------------------------------------------

TEST_P(BackendTest, InsertFindById) {
  ASSERT_TRUE(coll().InsertOne(R"({"_id": 1, "a": "x"})").ok());
  absl::StatusOr<Value> id = coll().InsertOne(R"({"a": "y"})");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(id->type(), ValueType::kObjectId);
  absl::StatusOr<Value> doc = coll().FindById(*id);
  ASSERT_TRUE(doc.ok()) << doc.status();
  // The generated _id comes first.
  EXPECT_EQ(doc->object_fields()[0].first, "_id");
  EXPECT_EQ(Json(*doc->Get("a")), R"("y")");
  EXPECT_TRUE(absl::IsNotFound(coll().FindById(Value::Int32(7)).status()));
  absl::StatusOr<std::string> json = coll().FindByIdJson(*id);
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(Json(*ParseDocument(*json)), Json(*doc));
  EXPECT_TRUE(absl::IsNotFound(coll().FindByIdJson(Value::Int32(7)).status()));

  std::vector<Value> ids;
  ASSERT_TRUE(coll().InsertMany({R"({"_id": 2})", R"({"_id": 3})"}, &ids).ok());
  EXPECT_EQ(Jsons(ids), (std::vector<std::string>{"2", "3"}));
  EXPECT_EQ(*coll().CountDocuments(), 4);
  EXPECT_EQ(*coll().EstimatedDocumentCount(), 4);
}

TEST_P(BackendTest, FindWithFilterProjectionSortSkipLimit) {
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(coll()
                    .InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "n": )",
                                            i % 3, R"(, "s": "v)", i, R"("})"))
                    .ok());
  }
  FindOptions o;
  o.projection = Doc(R"({"s": 1})");
  o.sort = Doc(R"({"n": -1, "_id": 1})");
  o.skip = 1;
  o.limit = 3;
  EXPECT_EQ(Jsons(All(coll().Find(R"({"_id": {"$gte": 2}})", o))),
            (std::vector<std::string>{R"({"_id":5,"s":"v5"})",
                                      R"({"_id":8,"s":"v8"})",
                                      R"({"_id":4,"s":"v4"})"}));
  absl::StatusOr<std::optional<Value>> one =
      coll().FindOne(R"({"n": 1})", FindOptions{});
  ASSERT_TRUE(one.ok());
  ASSERT_TRUE(one->has_value());
  EXPECT_EQ(Json(*(*one)->Get("_id")), "1");
  EXPECT_FALSE(coll().FindOne(R"({"n": 9})")->has_value());
}

// FindOptions::hint by name and by key pattern; a hint naming no index
// is 2 BadValue.
TEST_P(BackendTest, FindWithHint) {
  ASSERT_TRUE(coll().CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(coll()
                  .InsertMany({R"({"_id": 1, "a": 2})", R"({"_id": 2, "a": 1})",
                               R"({"_id": 3})"})
                  .ok());
  FindOptions by_name;
  by_name.hint = "a_1";
  by_name.sort = Doc(R"({"a": 1})");
  EXPECT_EQ(
      Jsons(All(coll().Find(R"({"a": {"$gte": 1}})", by_name))),
      (std::vector<std::string>{R"({"_id":2,"a":1})", R"({"_id":1,"a":2})"}));
  FindOptions by_keys;
  by_keys.hint_keys = Doc(R"({"a": 1})");
  EXPECT_EQ(All(coll().Find(R"({"a": 2})", by_keys)).size(), 1u);
  // Explain plans with the hint: a_1 for a filter on _id.
  absl::StatusOr<Value> plan = coll().Explain(R"({"_id": 2})", by_name);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_NE(Json(*plan).find(R"("indexName":"a_1")"), std::string::npos)
      << Json(*plan);
  FindOptions missing;
  missing.hint = "nope_1";
  auto bad = coll().Find("{}", missing);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(ErrorCode(bad.status()), kBadValue) << bad.status();
  EXPECT_TRUE(absl::IsInvalidArgument(bad.status())) << bad.status();
}

TEST_P(BackendTest, CursorsComeInBatches) {
  std::vector<DocArg> docs;
  for (int i = 0; i < 250; ++i)
    docs.push_back(absl::StrCat(R"({"_id": )", i, "}"));
  ASSERT_TRUE(coll().InsertMany(docs).ok());
  FindOptions o;
  o.batch_size = 7;
  o.sort = Doc(R"({"_id": 1})");
  std::vector<Value> all = All(coll().Find("{}", o));
  ASSERT_EQ(all.size(), 250u);
  for (int i = 0; i < 250; ++i)
    EXPECT_EQ(Json(*all[i].Get("_id")), absl::StrCat(i));
  // A cursor read halfway, then dropped, releases what it holds.
  auto cursor = coll().Find("{}", o);
  ASSERT_TRUE(cursor.ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE((*cursor)->Next()->has_value());
  cursor->reset();
  EXPECT_EQ(*coll().CountDocuments(), 250);
  // An aggregation's results beyond its first batch (101 documents).
  all = All(coll().Aggregate(R"([{"$sort": {"_id": -1}}])"));
  ASSERT_EQ(all.size(), 250u);
  EXPECT_EQ(Json(*all[0].Get("_id")), "249");
  EXPECT_EQ(Json(*all[249].Get("_id")), "0");
}

TEST_P(BackendTest, UpdateReplaceUpsert) {
  ASSERT_TRUE(coll()
                  .InsertMany({R"({"_id": 1, "n": 1})", R"({"_id": 2, "n": 1})",
                               R"({"_id": 3, "n": 2})"})
                  .ok());
  auto r = coll().UpdateOne(R"({"n": 1})", R"({"$inc": {"n": 10}})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(r->modified_count, 1);
  r = coll().UpdateMany(R"({})", R"({"$set": {"t": true}})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 3);
  EXPECT_EQ(r->modified_count, 3);
  // An update that changes nothing matches without modifying.
  r = coll().UpdateOne(R"({"_id": 3})", R"({"$set": {"n": 2}})");
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(r->modified_count, 0);
  r = coll().ReplaceOne(R"({"_id": 3})", R"({"x": "new"})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Json(*coll().FindById(Value::Int32(3))), R"({"_id":3,"x":"new"})");
  UpdateOptions upsert;
  upsert.upsert = true;
  r = coll().UpdateOne(R"({"_id": 9})", R"({"$set": {"u": 1}})", upsert);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 0);
  ASSERT_TRUE(r->upserted_id.has_value());
  EXPECT_EQ(Json(*r->upserted_id), "9");
  EXPECT_EQ(Json(*coll().FindById(Value::Int32(9))), R"({"_id":9,"u":1})");
  UpdateOptions af;
  ASSERT_TRUE(coll().InsertOne(R"({"_id": 20, "a": [1, 5, 9]})").ok());
  af.array_filters = {Doc(R"({"e": {"$gt": 4}})")};
  r = coll().UpdateOne(R"({"_id": 20})", R"({"$set": {"a.$[e]": 0}})", af);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Json(*coll().FindById(Value::Int32(20))),
            R"({"_id":20,"a":[1,0,0]})");
}

TEST_P(BackendTest, Deletes) {
  ASSERT_TRUE(coll()
                  .InsertMany({R"({"_id": 1, "k": 1})", R"({"_id": 2, "k": 1})",
                               R"({"_id": 3, "k": 2})"})
                  .ok());
  EXPECT_EQ(*coll().DeleteOne(R"({"k": 1})"), 1);
  EXPECT_EQ(*coll().DeleteMany(R"({"k": {"$gte": 1}})"), 2);
  EXPECT_EQ(*coll().DeleteMany("{}"), 0);
  EXPECT_EQ(*coll().CountDocuments(), 0);
}

TEST_P(BackendTest, CountAndDistinct) {
  ASSERT_TRUE(coll()
                  .InsertMany({R"({"_id": 1, "t": ["b", "a"]})",
                               R"({"_id": 2, "t": "c"})",
                               R"({"_id": 3, "t": 2})", R"({"_id": 4})"})
                  .ok());
  EXPECT_EQ(*coll().CountDocuments(R"({"t": {"$exists": true}})"), 3);
  auto d = coll().Distinct("t");
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(Jsons(*d),
            (std::vector<std::string>{"2", R"("a")", R"("b")", R"("c")"}));
  d = coll().Distinct("t", R"({"_id": {"$lt": 2}})");
  EXPECT_EQ(Jsons(*d), (std::vector<std::string>{R"("a")", R"("b")"}));
}

TEST_P(BackendTest, Aggregate) {
  ASSERT_TRUE(coll()
                  .InsertMany({R"({"_id": 1, "g": "x", "v": 1})",
                               R"({"_id": 2, "g": "y", "v": 2})",
                               R"({"_id": 3, "g": "x", "v": 3})"})
                  .ok());
  EXPECT_EQ(Jsons(All(coll().Aggregate(
                R"([{"$match": {"v": {"$gte": 1}}},
                    {"$group": {"_id": "$g", "total": {"$sum": "$v"}}},
                    {"$sort": {"_id": 1}}])"))),
            (std::vector<std::string>{R"({"_id":"x","total":4})",
                                      R"({"_id":"y","total":2})"}));
  absl::StatusOr<std::unique_ptr<Cursor>> bad =
      coll().Aggregate(R"([{"$nosuchstage": {}}])");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(ErrorCode(bad.status()), 40324);
}

// The plan, not the results: a $cursor stage (the pushed-down find, with
// the index it uses) and the stages after it; an explained $out writes
// nothing. On the remote backend, the deployment's explain command
// (docs/migrating.md section 6: MongoDB's own plan document).
TEST_P(BackendTest, ExplainAggregate) {
  ASSERT_TRUE(coll().CreateIndex(R"({"g": 1})").ok());
  ASSERT_TRUE(coll()
                  .InsertMany({R"({"_id": 1, "g": "x", "v": 1})",
                               R"({"_id": 2, "g": "y", "v": 2})"})
                  .ok());
  absl::StatusOr<Value> plan = coll().ExplainAggregate(
      R"([{"$match": {"g": "x"}},
          {"$group": {"_id": "$g", "total": {"$sum": "$v"}}}])");
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Value* stages = plan->Get("stages");
  ASSERT_NE(stages, nullptr) << Json(*plan);
  ASSERT_TRUE(stages->is_array());
  ASSERT_EQ(stages->array_items().size(), 2u) << Json(*plan);
  EXPECT_NE(stages->array_items()[0].Get("$cursor"), nullptr) << Json(*plan);
  EXPECT_NE(stages->array_items()[1].Get("$group"), nullptr) << Json(*plan);
  EXPECT_NE(Json(*plan).find("IXSCAN"), std::string::npos) << Json(*plan);
  EXPECT_EQ(plan->Get("ok"), nullptr);

  ASSERT_TRUE(coll().ExplainAggregate(R"([{"$out": "copy"}])").ok());
  EXPECT_EQ(*db_->collection("copy").CountDocuments(), 0);
  absl::StatusOr<Value> bad =
      coll().ExplainAggregate(R"([{"$nosuchstage": {}}])");
  EXPECT_EQ(ErrorCode(bad.status()), 40324) << bad.status();
}

// ---- findAndModify ---------------------------------------------------------

TEST_P(BackendTest, FindOneAndModify) {
  ASSERT_TRUE(coll()
                  .InsertMany({R"({"_id": 1, "state": "new", "p": 1})",
                               R"({"_id": 2, "state": "new", "p": 5})"})
                  .ok());
  FindOneAndModifyOptions o;
  o.sort = Doc(R"({"p": -1})");
  auto before = coll().FindOneAndUpdate(R"({"state": "new"})",
                                        R"({"$set": {"state": "taken"}})", o);
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_TRUE(before->has_value());
  EXPECT_EQ(Json(**before), R"({"_id":2,"state":"new","p":5})");
  o.return_new = true;
  o.projection = Doc(R"({"state": 1})");
  auto after = coll().FindOneAndUpdate(R"({"state": "new"})",
                                       R"({"$set": {"state": "taken"}})", o);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(Json(**after), R"({"_id":1,"state":"taken"})");
  auto none = coll().FindOneAndUpdate(R"({"state": "new"})",
                                      R"({"$set": {"state": "taken"}})");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());

  FindOneAndModifyOptions upsert;
  upsert.upsert = true;
  upsert.return_new = true;
  auto up =
      coll().FindOneAndUpdate(R"({"_id": 7})", R"({"$set": {"q": 1}})", upsert);
  ASSERT_TRUE(up.ok()) << up.status();
  EXPECT_EQ(Json(**up), R"({"_id":7,"q":1})");

  auto replaced =
      coll().FindOneAndReplace(R"({"_id": 7})", R"({"r": true})", upsert);
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_EQ(Json(**replaced), R"({"_id":7,"r":true})");
  auto bad = coll().FindOneAndReplace(R"({"_id": 7})", R"({"$set": {"r": 1}})");
  EXPECT_EQ(ErrorCode(bad.status()), kFailedToParse);

  auto deleted = coll().FindOneAndDelete(R"({"_id": 7})");
  ASSERT_TRUE(deleted.ok()) << deleted.status();
  EXPECT_EQ(Json(**deleted), R"({"_id":7,"r":true})");
  EXPECT_EQ(*coll().CountDocuments(), 2);
}

// ---- Bulk writes -----------------------------------------------------------

TEST_P(BackendTest, BulkWrite) {
  ASSERT_TRUE(coll().CreateIndex(R"({"u": 1})", R"({"unique": true})").ok());
  Value ops = *ParseValue(R"([
    {"insertOne": {"document": {"_id": 1, "u": 1}}},
    {"insertOne": {"document": {"_id": 2, "u": 2}}},
    {"updateOne": {"filter": {"_id": 1}, "update": {"$set": {"x": 1}}}},
    {"updateMany": {"filter": {}, "update": {"$inc": {"n": 1}}}},
    {"replaceOne": {"filter": {"_id": 3}, "replacement": {"u": 3},
                    "upsert": true}},
    {"deleteOne": {"filter": {"_id": 2}}},
    {"insertOne": {"document": {"_id": 4, "u": 1}}},
    {"deleteMany": {"filter": {"_id": {"$gte": 100}}}}
  ])");
  auto r = coll().BulkWrite(ops, /*ordered=*/true);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->inserted_count, 2);
  EXPECT_EQ(r->matched_count, 3);
  EXPECT_EQ(r->modified_count, 3);
  EXPECT_EQ(r->upserted_count, 1);
  EXPECT_EQ(r->deleted_count, 1);
  ASSERT_EQ(r->inserted_ids.size(), 2u);
  EXPECT_EQ(r->inserted_ids[1].first, 1);
  ASSERT_EQ(r->upserted_ids.size(), 1u);
  EXPECT_EQ(r->upserted_ids[0].first, 4);
  EXPECT_EQ(Json(r->upserted_ids[0].second), "3");
  ASSERT_EQ(r->write_errors.size(), 1u);
  EXPECT_EQ(r->write_errors[0].index, 6);
  EXPECT_EQ(r->write_errors[0].code, kDuplicateKey);

  // Unordered: the operations after a failure run.
  Value more = *ParseValue(R"([
    {"insertOne": {"document": {"_id": 1}}},
    {"insertOne": {"document": {"_id": 50, "u": 50}}}
  ])");
  r = coll().BulkWrite(more, /*ordered=*/false);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->inserted_count, 1);
  ASSERT_EQ(r->write_errors.size(), 1u);
  EXPECT_EQ(r->write_errors[0].index, 0);
  ASSERT_EQ(r->inserted_ids.size(), 1u);
  EXPECT_EQ(r->inserted_ids[0].first, 1);
}

// ---- Errors ----------------------------------------------------------------

TEST_P(BackendTest, DuplicateKeyIsTheSameError) {
  ASSERT_TRUE(
      coll().CreateIndex(R"({"email": 1})", R"({"unique": true})").ok());
  ASSERT_TRUE(coll().InsertOne(R"({"_id": 1, "email": "a@x"})").ok());
  absl::Status s = coll().InsertOne(R"({"_id": 2, "email": "a@x"})").status();
  EXPECT_TRUE(absl::IsAlreadyExists(s)) << s;
  EXPECT_EQ(ErrorCode(s), kDuplicateKey);
  EXPECT_EQ(
      s.message(),
      R"(E11000 duplicate key error collection: test.c index: email_1 dup key: { email: "a@x" })");
  std::optional<DuplicateKeyInfo> info = GetDuplicateKeyInfo(s);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(Json(info->key_pattern), R"({"email":1})");
  EXPECT_EQ(Json(info->key_value), R"({"email":"a@x"})");

  s = coll().InsertOne(R"({"_id": 1})").status();
  EXPECT_EQ(ErrorCode(s), kDuplicateKey);
  EXPECT_EQ(s.message(),
            "E11000 duplicate key error collection: test.c index: _id_ dup "
            "key: { _id: 1 }");

  std::vector<Value> ids;
  s = coll().InsertMany({R"({"_id": 5})", R"({"_id": 1})", R"({"_id": 6})"},
                        &ids);
  EXPECT_EQ(ErrorCode(s), kDuplicateKey);
  EXPECT_TRUE(GetDuplicateKeyInfo(s).has_value());
  EXPECT_EQ(Jsons(ids), (std::vector<std::string>{"5"}));
  EXPECT_FALSE(coll().FindById(Value::Int32(6)).ok());

  s = coll()
          .UpdateOne(R"({"_id": 5})", R"({"$set": {"email": "a@x"}})")
          .status();
  EXPECT_EQ(ErrorCode(s), kDuplicateKey);
  EXPECT_TRUE(absl::IsAlreadyExists(s));
}

TEST_P(BackendTest, ErrorsHaveTheEngineCodes) {
  ASSERT_TRUE(coll().InsertOne(R"({"_id": 1, "a": 1})").ok());
  absl::Status s =
      coll().UpdateOne(R"({"_id": 1})", R"({"$set": {"_id": 2}})").status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_EQ(ErrorCode(s), kImmutableField);

  auto bad = coll().Find(R"({"a": {"$nosuchop": 1}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(bad.status())) << bad.status();
  EXPECT_EQ(ErrorCode(bad.status()), kBadValue);

  s = coll().UpdateOne(R"({"_id": 1})", R"({"$inc": {"a": "x"}})").status();
  EXPECT_EQ(ErrorCode(s), kTypeMismatch) << s;

  s = db_->collection("bad$name").InsertOne("{}").status();
  EXPECT_EQ(ErrorCode(s), kInvalidNamespace) << s;

  EXPECT_EQ(ErrorCode(db_->CreateCollection("c")), kNamespaceExists);
  EXPECT_TRUE(absl::IsAlreadyExists(db_->CreateCollection("c")));
}

TEST_P(BackendTest, ConcurrentWriters) {
  constexpr int kThreads = 4;
  constexpr int kEach = 25;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t] {
      for (int i = 0; i < kEach; ++i) {
        EXPECT_TRUE(coll()
                        .InsertOne(absl::StrCat(R"({"_id": )", t * 1000 + i,
                                                R"(, "t": )", t, "}"))
                        .ok());
        EXPECT_TRUE(coll()
                        .UpdateOne(R"({"_id": "counter"})",
                                   R"({"$inc": {"n": 1}})",
                                   UpdateOptions{/*upsert=*/true, {}})
                        .ok());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(*coll().CountDocuments(R"({"t": {"$exists": true}})"),
            kThreads * kEach);
  EXPECT_EQ(Json(*coll().FindById(Value::String("counter"))->Get("n")),
            absl::StrCat(kThreads * kEach));
}

// ---- Indexes and TTL -------------------------------------------------------

TEST_P(BackendTest, Indexes) {
  ASSERT_TRUE(coll().InsertOne(R"({"_id": 1, "a": 1, "b": 2})").ok());
  auto name = coll().CreateIndex(R"({"a": 1, "b": -1})");
  ASSERT_TRUE(name.ok()) << name.status();
  EXPECT_EQ(*name, "a_1_b_-1");
  EXPECT_EQ(*coll().CreateIndex(R"({"a": 1, "b": -1})"), "a_1_b_-1");
  name =
      coll().CreateIndex(R"({"b": 1})", R"({"name": "by_b", "sparse": true})");
  EXPECT_EQ(*name, "by_b");
  auto list = coll().ListIndexes();
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(Jsons(*list),
            (std::vector<std::string>{
                R"({"v":2,"key":{"_id":1},"name":"_id_"})",
                R"({"v":2,"key":{"a":1,"b":-1},"name":"a_1_b_-1"})",
                R"({"v":2,"key":{"b":1},"name":"by_b","sparse":true})"}));
  absl::Status s =
      coll()
          .CreateIndex(R"({"b": 1})", R"({"name": "by_b", "unique": true})")
          .status();
  EXPECT_TRUE(ErrorCode(s) == kIndexOptionsConflict ||
              ErrorCode(s) == kIndexKeySpecsConflict)
      << s;
  ASSERT_TRUE(coll().DropIndex("by_b").ok());
  ASSERT_TRUE(coll().DropIndexByKey(R"({"a": 1, "b": -1})").ok());
  s = coll().DropIndex("nope");
  EXPECT_TRUE(absl::IsNotFound(s)) << s;
  EXPECT_EQ(ErrorCode(s), kIndexNotFound);
  EXPECT_EQ(coll().ListIndexes()->size(), 1u);
  EXPECT_TRUE(db_->collection("absent").ListIndexes()->empty());
}

// CreateIndex's IndexBuildProgress: (documents done, documents total),
// the last call (total, total); no call for an empty collection or an
// index that exists. The embedded engine calls it after each chunk of
// 2,000 documents, the remote backend once, when the deployment has built
// the index (docs/migrating.md section 6), so the collection here is one
// chunk.
TEST_P(BackendTest, IndexBuildProgress) {
  std::vector<std::pair<int64_t, int64_t>> calls;
  IndexBuildProgress progress = [&calls](int64_t done, int64_t total) {
    calls.emplace_back(done, total);
  };
  ASSERT_TRUE(coll().CreateIndex(R"({"a": 1})", "{}", progress).ok());
  EXPECT_TRUE(calls.empty());
  std::vector<DocArg> docs;
  for (int i = 0; i < 30; ++i) {
    docs.push_back(absl::StrCat(R"({"_id": )", i, R"(, "b": )", i, "}"));
  }
  ASSERT_TRUE(coll().InsertMany(docs).ok());
  ASSERT_TRUE(coll().CreateIndex(R"({"b": 1})", "{}", progress).ok());
  EXPECT_EQ(calls, (std::vector<std::pair<int64_t, int64_t>>{{30, 30}}));
  calls.clear();
  ASSERT_TRUE(coll().CreateIndex(R"({"b": 1})", "{}", progress).ok());
  EXPECT_TRUE(calls.empty());
}

TEST_P(BackendTest, TtlIndexCreationAndExpiry) {
  auto name =
      coll().CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})");
  ASSERT_TRUE(name.ok()) << name.status();
  EXPECT_EQ(*name, "at_1");
  EXPECT_EQ(Json(coll().ListIndexes()->at(1)),
            R"({"v":2,"key":{"at":1},"name":"at_1","expireAfterSeconds":60})");
  const absl::Time now = clock_.WallNow();
  ASSERT_TRUE(
      coll()
          .InsertMany(
              {absl::StrCat(R"({"_id": "old", "at": )",
                            DateJson(now - absl::Seconds(120)), "}"),
               absl::StrCat(R"({"_id": "new", "at": )", DateJson(now), "}"),
               R"({"_id": "nodate", "at": "x"})"})
          .ok());
  // Expired: absent for reads before the pass deletes it.
  EXPECT_EQ(Jsons(All(coll().Find("{}", FindOptions{}))).size(), 2u);
  EXPECT_EQ(*coll().CountDocuments(), 2);
  EXPECT_TRUE(absl::IsNotFound(coll().FindById(Value::String("old")).status()));
  EXPECT_EQ(*coll().DeleteMany(R"({"_id": "old"})"), 0);
  EXPECT_EQ(*coll().EstimatedDocumentCount(), 3);
  TtlPass();
  EXPECT_EQ(*coll().EstimatedDocumentCount(), 2);

  clock_.Advance(absl::Seconds(61));
  EXPECT_EQ(*coll().CountDocuments(), 1);
  TtlPass();
  EXPECT_EQ(*coll().EstimatedDocumentCount(), 1);
  EXPECT_EQ(Json(*coll().FindById(Value::String("nodate"))),
            R"({"_id":"nodate","at":"x"})");
}

TEST_P(BackendTest, CollModChangesExpireAfterSeconds) {
  ASSERT_TRUE(
      coll().CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  auto reply = coll().CollMod(
      R"({"index": {"name": "at_1", "expireAfterSeconds": 3600}})");
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(Json(*reply->Get("expireAfterSeconds_old")), "60");
  EXPECT_EQ(Json(*reply->Get("expireAfterSeconds_new")), "3600");
  const absl::Time now = clock_.WallNow();
  ASSERT_TRUE(
      coll()
          .InsertOne(absl::StrCat(R"({"_id": 1, "at": )",
                                  DateJson(now - absl::Seconds(120)), "}"))
          .ok());
  // Not expired under the new period.
  EXPECT_EQ(*coll().CountDocuments(), 1);
  auto missing =
      coll().CollMod(R"({"index": {"name": "nope", "expireAfterSeconds": 1}})");
  EXPECT_EQ(ErrorCode(missing.status()), kIndexNotFound) << missing.status();
}

TEST_P(BackendTest, TouchSetsTheDate) {
  ASSERT_TRUE(
      coll()
          .InsertOne(R"({"_id": 1, "at": {"$date": "2020-01-01T00:00:00Z"}})")
          .ok());
  clock_.Advance(absl::Seconds(5));
  auto r = coll().Touch(R"({"_id": 1})", "at");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(r->modified_count, 1);
  EXPECT_EQ(coll().FindById(Value::Int32(1))->Get("at")->date_millis(),
            absl::ToUnixMillis(clock_.WallNow()));
}

// Options::touch_min_interval: a touch within the interval writes nothing
// (matched, not modified).
class TouchIntervalTest : public BackendTest {
  void AdjustOptions(Options* options) override {
    options->touch_min_interval = absl::Seconds(60);
  }
};

TEST_P(TouchIntervalTest, TouchWithinTheIntervalWritesNothing) {
  const absl::Time start = clock_.WallNow();
  ASSERT_TRUE(
      coll()
          .InsertOne(absl::StrCat(R"({"_id": 1, "at": )", DateJson(start), "}"))
          .ok());
  clock_.Advance(absl::Seconds(10));
  auto r = coll().Touch(R"({"_id": 1})", "at");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(r->modified_count, 0);
  EXPECT_EQ(coll().FindById(Value::Int32(1))->Get("at")->date_millis(),
            absl::ToUnixMillis(start));
  clock_.Advance(absl::Seconds(61));
  r = coll().Touch(R"({"_id": 1})", "at");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(r->modified_count, 1);
  EXPECT_EQ(coll().FindById(Value::Int32(1))->Get("at")->date_millis(),
            absl::ToUnixMillis(clock_.WallNow()));
}

INSTANTIATE_TEST_SUITE_P(Backends, TouchIntervalTest,
                         ::testing::Values(Backend::kEmbedded,
                                           Backend::kRemote),
                         BackendName);

// ---- Collections -----------------------------------------------------------

TEST_P(BackendTest, CollectionsDropRename) {
  ASSERT_TRUE(db_->CreateCollection("a").ok());
  ASSERT_TRUE(db_->collection("b").InsertOne(R"({"_id": 1})").ok());
  EXPECT_EQ(*db_->ListCollectionNames(), (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(db_->RenameCollection("b", "c").ok());
  EXPECT_EQ(*db_->collection("c").CountDocuments(), 1);
  EXPECT_EQ(*db_->collection("b").CountDocuments(), 0);
  absl::Status s = db_->RenameCollection("nope", "d");
  EXPECT_TRUE(absl::IsNotFound(s)) << s;
  EXPECT_EQ(ErrorCode(s), kNamespaceNotFound);
  s = db_->RenameCollection("a", "c");
  EXPECT_TRUE(absl::IsAlreadyExists(s)) << s;
  EXPECT_EQ(ErrorCode(s), kNamespaceExists);
  EXPECT_TRUE(db_->RenameCollection("a", "c", /*drop_target=*/true).ok());
  EXPECT_EQ(*db_->collection("c").CountDocuments(), 0);
  EXPECT_TRUE(*db_->DropCollection("c"));
  EXPECT_FALSE(*db_->DropCollection("c"));
  EXPECT_TRUE(db_->ListCollectionNames()->empty());
}

TEST_P(BackendTest, ValidationOptions) {
  ValidationOptions v;
  v.validator = Doc(R"({"n": {"$type": "int"}})");
  ASSERT_TRUE(db_->CreateCollection("v", v).ok());
  absl::Status s = db_->collection("v").InsertOne(R"({"n": "x"})").status();
  EXPECT_EQ(ErrorCode(s), kDocumentValidationFailure) << s;
  WriteOptions bypass;
  bypass.bypass_document_validation = true;
  EXPECT_TRUE(db_->collection("v").InsertOne(R"({"n": "x"})", bypass).ok());
  auto opts = db_->collection("v").Options();
  ASSERT_TRUE(opts.ok()) << opts.status();
  EXPECT_EQ(Json(*opts->Get("validator")), R"({"n":{"$type":"int"}})");
}

// collMod of the validation options: the new validator applies to the
// next write, and Options() shows it.
TEST_P(BackendTest, CollModChangesTheValidator) {
  ASSERT_TRUE(db_->collection("v").InsertOne(R"({"_id": 1, "n": 1})").ok());
  auto reply = db_->collection("v").CollMod(
      R"({"validator": {"n": {"$type": "int"}}, "validationAction": "error"})");
  ASSERT_TRUE(reply.ok()) << reply.status();
  absl::Status s = db_->collection("v").InsertOne(R"({"n": "x"})").status();
  EXPECT_EQ(ErrorCode(s), kDocumentValidationFailure) << s;
  auto opts = db_->collection("v").Options();
  ASSERT_TRUE(opts.ok()) << opts.status();
  EXPECT_EQ(Json(*opts->Get("validator")), R"({"n":{"$type":"int"}})");
  auto missing = db_->collection("nope").CollMod(R"({"validator": {}})");
  EXPECT_EQ(ErrorCode(missing.status()), kNamespaceNotFound)
      << missing.status();
}

// A number field of a reply, -1 when it is absent or no number.
double Num(const Value& doc, absl::string_view name) {
  const Value* v = doc.Get(name);
  return v != nullptr && v->is_number() ? v->AsDouble() : -1;
}

// collStats and dbStats: the counts both backends report alike (the sizes
// are each storage's own: docs/migrating.md section 6).
TEST_P(BackendTest, StatsCountDocumentsAndIndexes) {
  ASSERT_TRUE(coll().CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(coll()
                  .InsertMany({R"({"_id": 1, "a": 1})", R"({"_id": 2, "a": 2})",
                               R"({"_id": 3, "a": 3})"})
                  .ok());
  auto stats = coll().Stats();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(Num(*stats, "count"), 3) << Json(*stats);
  EXPECT_EQ(Num(*stats, "nindexes"), 2) << Json(*stats);
  EXPECT_GT(Num(*stats, "size"), 0) << Json(*stats);
  const Value* sizes = stats->Get("indexSizes");
  ASSERT_NE(sizes, nullptr) << Json(*stats);
  EXPECT_NE(sizes->Get("_id_"), nullptr) << Json(*stats);
  EXPECT_NE(sizes->Get("a_1"), nullptr) << Json(*stats);
  EXPECT_EQ(stats->Get("ok"), nullptr);

  auto db_stats = db_->Stats();
  ASSERT_TRUE(db_stats.ok()) << db_stats.status();
  EXPECT_EQ(Num(*db_stats, "collections"), 1) << Json(*db_stats);
  EXPECT_EQ(Num(*db_stats, "objects"), 3) << Json(*db_stats);
  EXPECT_EQ(Num(*db_stats, "indexes"), 2) << Json(*db_stats);
  EXPECT_EQ(ErrorCode(db_->Stats(0).status()), 51024) << db_->Stats(0).status();
}

TEST_P(BackendTest, CloseEndsCursorsAndCalls) {
  ASSERT_TRUE(coll().InsertMany({R"({"_id": 1})", R"({"_id": 2})"}).ok());
  auto cursor = coll().Find("{}");
  ASSERT_TRUE(cursor.ok());
  ASSERT_TRUE(db_->Close().ok());
  EXPECT_TRUE(absl::IsFailedPrecondition((*cursor)->Next().status()));
  EXPECT_TRUE(absl::IsFailedPrecondition(coll().InsertOne("{}").status()));
  EXPECT_TRUE(db_->Close().ok());
}

INSTANTIATE_TEST_SUITE_P(Backends, BackendTest,
                         ::testing::Values(Backend::kEmbedded,
                                           Backend::kRemote),
                         BackendName);

}  // namespace
}  // namespace ttldb
