// Views and hashed indexes through the public API (Database::CreateView,
// Collection reads on a view; {a: "hashed"} indexes), on a real database.
// Expected answers: MongoDB's jstests/core/views/*.js and
// jstests/core/index/hashed/*.js, src/mongo/db/views/view_graph.cpp,
// src/mongo/db/hasher_test.cpp, as cited at each test.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "tests/db_fixture.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

using ViewsTest = DbTest;

std::vector<std::string> Json(absl::StatusOr<std::unique_ptr<Cursor>> c) {
  EXPECT_TRUE(c.ok()) << c.status();
  std::vector<std::string> out;
  if (!c.ok()) return out;
  auto docs = (*c)->ToVector();
  EXPECT_TRUE(docs.ok()) << docs.status();
  if (!docs.ok()) return out;
  for (const Value& d : *docs) out.push_back(ToJson(d));
  return out;
}

void Seed(Database* db) {
  Collection& c = db->collection("coll");
  for (const char* d : {R"({"_id": "New York", "state": "NY", "pop": 7})",
                        R"({"_id": "Newark", "state": "NJ", "pop": 3})",
                        R"({"_id": "Palo Alto", "state": "CA", "pop": 10})",
                        R"({"_id": "San Francisco", "state": "CA", "pop": 4})",
                        R"({"_id": "Trenton", "state": "NJ", "pop": 5})"}) {
    ASSERT_TRUE(c.InsertOne(d).ok());
  }
}

// jstests/core/views/views_basic.js: a view of the cities of one state,
// read by find, count, distinct and aggregate.
TEST_F(ViewsTest, ReadsThroughTheView) {
  Seed(db_.get());
  ASSERT_TRUE(db_->CreateView("largeStates", "coll",
                              R"([{"$match": {"pop": {"$gt": 4}}}])")
                  .ok());
  Collection& v = db_->collection("largeStates");
  FindOptions sorted;
  sorted.sort = *ParseDocument(R"({"_id": 1})");
  sorted.projection = *ParseDocument(R"({"state": 1})");
  EXPECT_EQ(Json(v.Find("{}", sorted)),
            (std::vector<std::string>{R"({"_id":"New York","state":"NY"})",
                                      R"({"_id":"Palo Alto","state":"CA"})",
                                      R"({"_id":"Trenton","state":"NJ"})"}));
  // views_find.js: skip and limit apply after the view's pipeline.
  FindOptions page = sorted;
  page.skip = 1;
  page.limit = 1;
  EXPECT_EQ(Json(v.Find(R"({"state": {"$ne": "NY"}})", page)),
            (std::vector<std::string>{R"({"_id":"Trenton","state":"NJ"})"}));
  EXPECT_EQ(*v.CountDocuments(R"({"state": "CA"})"), 1);
  EXPECT_EQ(*v.EstimatedDocumentCount(), 3);  // views_count.js: all three
  auto states = v.Distinct("state");
  ASSERT_TRUE(states.ok()) << states.status();
  EXPECT_EQ(states->size(), 3u);
  EXPECT_EQ(Json(v.Aggregate(
                R"([{"$group": {"_id": null, "n": {"$sum": "$pop"}}}])")),
            (std::vector<std::string>{R"({"_id":null,"n":22})"}));
  auto one = v.FindById(Value::String("Trenton"));
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(ToJson(*one), R"({"_id":"Trenton","state":"NJ","pop":5})");
  EXPECT_EQ(v.FindById(Value::String("Newark")).status().code(),
            absl::StatusCode::kNotFound);
}

// views_basic.js / views_all_commands.js: writes to a view fail with
// CommandNotSupportedOnView (166) and change nothing.
TEST_F(ViewsTest, WritesAreRefused) {
  Seed(db_.get());
  ASSERT_TRUE(db_->CreateView("v", "coll", "[]").ok());
  Collection& v = db_->collection("v");
  EXPECT_EQ(ErrorCode(v.InsertOne(R"({"_id": 1})").status()),
            kCommandNotSupportedOnView);
  EXPECT_EQ(v.InsertOne(R"({"_id": 1})").status().message(),
            "Namespace v is a view, not a collection");
  EXPECT_EQ(ErrorCode(v.UpdateOne("{}", R"({"$set": {"x": 1}})").status()),
            kCommandNotSupportedOnView);
  UpdateOptions upsert;
  upsert.upsert = true;
  EXPECT_EQ(
      ErrorCode(v.UpdateOne(R"({"_id": 9})", R"({"$set": {"x": 1}})", upsert)
                    .status()),
      kCommandNotSupportedOnView);
  EXPECT_EQ(ErrorCode(v.DeleteMany("{}").status()), kCommandNotSupportedOnView);
  EXPECT_EQ(ErrorCode(v.FindOneAndDelete("{}").status()),
            kCommandNotSupportedOnView);
  EXPECT_EQ(ErrorCode(v.CreateIndex(R"({"a": 1})").status()),
            kCommandNotSupportedOnView);
  EXPECT_EQ(ErrorCode(v.ListIndexes().status()), kCommandNotSupportedOnView);
  EXPECT_EQ(*db_->collection("coll").CountDocuments(), 5);
  // The name is taken: a collection of that name is 48 NamespaceExists.
  EXPECT_EQ(ErrorCode(db_->CreateCollection("v")), kNamespaceExists);
  EXPECT_EQ(ErrorCode(db_->CreateView("coll", "v", "[]")), kNamespaceExists);
}

// A view is in the catalog: it survives a reopen, and a drop removes it
// (views_drop.js).
TEST_F(ViewsTest, DurableAndDroppable) {
  Seed(db_.get());
  ASSERT_TRUE(
      db_->CreateView("ca", "coll", R"([{"$match": {"state": "CA"}}])").ok());
  ASSERT_TRUE(db_->CreateView("caBig", "ca", R"([{"$match": {"pop": 10}}])")
                  .ok());  // a view on a view
  Open();
  auto views = db_->ListViews();
  ASSERT_TRUE(views.ok());
  ASSERT_EQ(views->size(), 2u);
  EXPECT_EQ((*views)[0].name, "ca");
  EXPECT_EQ((*views)[0].view_on, "coll");
  EXPECT_EQ(ToJson((*views)[0].pipeline), R"([{"$match":{"state":"CA"}}])");
  EXPECT_EQ(*db_->collection("caBig").CountDocuments(), 1);
  EXPECT_EQ(*db_->ListCollectionNames(), std::vector<std::string>{"coll"});
  // collMod's viewOn/pipeline (views_change.js).
  ASSERT_TRUE(
      db_->ModifyView("ca", "coll", R"([{"$match": {"state": "NJ"}}])").ok());
  EXPECT_EQ(*db_->collection("ca").CountDocuments(), 2);
  EXPECT_EQ(*db_->collection("caBig").CountDocuments(), 0);
  EXPECT_EQ(ErrorCode(db_->ModifyView("nope", "coll", "[]")),
            kNamespaceNotFound);
  EXPECT_TRUE(*db_->DropCollection("caBig"));
  Open();
  views = db_->ListViews();
  ASSERT_EQ(views->size(), 1u);
  EXPECT_EQ(*db_->collection("caBig").CountDocuments(), 0);  // empty again
}

// views_creation.js and view_graph.cpp: what a view may not be.
TEST_F(ViewsTest, InvalidDefinitions) {
  // "You cannot create a view with a $out stage" (167
  // OptionNotSupportedOnView), nested in $lookup (51047) or $facet (40600).
  EXPECT_EQ(ErrorCode(db_->CreateView("w", "coll", R"([{"$out": "x"}])")),
            kOptionNotSupportedOnView);
  EXPECT_EQ(
      ErrorCode(db_->CreateView("w", "coll", R"([{"$merge": {"into": "x"}}])")),
      kOptionNotSupportedOnView);
  EXPECT_EQ(ErrorCode(db_->CreateView(
                "w", "coll",
                R"([{"$lookup": {"from": "o", "pipeline": [{"$out": "x"}],
                                 "as": "r"}}])")),
            51047);
  EXPECT_EQ(ErrorCode(db_->CreateView(
                "w", "coll", R"([{"$facet": {"o": [{"$out": "x"}]}}])")),
            40600);
  // Names as collection names (views_creation.js: "dollar$", system.*).
  EXPECT_EQ(ErrorCode(db_->CreateView("dollar$", "coll", "[]")),
            kInvalidNamespace);
  EXPECT_EQ(ErrorCode(db_->CreateView("system.foo", "coll", "[]")),
            kInvalidNamespace);
  // Cycles: 5 GraphContainsCycle (error_codes.yml) (view_graph_test.cpp).
  ASSERT_TRUE(db_->CreateView("a", "b", "[]").ok());
  EXPECT_EQ(ErrorCode(db_->CreateView("b", "a", "[]")), kGraphContainsCycle);
  EXPECT_EQ(db_->CreateView("b", "a", "[]").message(),
            "View cycle detected: b => a => b");
  EXPECT_EQ(ErrorCode(db_->CreateView(
                "b", "c", R"([{"$lookup": {"from": "a", "localField": "x",
                                             "foreignField": "y",
                                             "as": "z"}}])")),
            kGraphContainsCycle);
  EXPECT_EQ(db_->ListViews()->size(), 1u);  // only "a"
  // Depth: 20 views in a chain, not 21 (ViewGraph::kMaxViewDepth;
  // views_validation.js).
  ASSERT_TRUE(db_->CreateView("d1", "base", "[]").ok());
  for (int i = 2; i <= 20; ++i) {
    ASSERT_TRUE(
        db_->CreateView(absl::StrCat("d", i), absl::StrCat("d", i - 1), "[]")
            .ok())
        << i;
  }
  EXPECT_EQ(ErrorCode(db_->CreateView("d21", "d20", "[]")),
            kViewDepthLimitExceeded);
  // Reading through 20 views is one too many (resolveView stops at
  // kMaxViewDepth lookups; views_validation.js: an aggregate of v10 with
  // $unionWith of v1 fails with 165); through 19 it reads.
  EXPECT_EQ(ErrorCode(db_->collection("d20").CountDocuments().status()),
            kViewDepthLimitExceeded);
  EXPECT_EQ(*db_->collection("d19").CountDocuments(), 0);
  EXPECT_EQ(db_->ListViews()->size(), 21u);  // a, d1..d20: nothing added
}

// ---- Hashed indexes -----------------------------------------------------

using HashedTest = DbTest;

// hashed_index_queries.js: equality uses the index, its bounds are the
// value's hash (hasher_test.cpp: 1 -> 5902408780260971510); ranges do not.
TEST_F(HashedTest, EqualityUsesTheHash) {
  Collection& c = db_->collection("h");
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(c.InsertOne(Value::MakeObject({Field("_id", Value::Int32(i)),
                                               Field("a", Value::Int32(i))}))
                    .ok());
  }
  auto name = c.CreateIndex(R"({"a": "hashed"})");
  ASSERT_TRUE(name.ok()) << name.status();
  EXPECT_EQ(*name, "a_hashed");
  auto indexes = c.ListIndexes();
  EXPECT_EQ(ToJson((*indexes)[1]),
            R"({"v":2,"key":{"a":"hashed"},"name":"a_hashed"})");
  auto plan = c.Explain(R"({"a": 1})");
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Value* winning = plan->Get("queryPlanner")->Get("winningPlan");
  EXPECT_EQ(winning->Get("stage")->string_value(), "IXSCAN");
  EXPECT_EQ(ToJson(*winning->Get("indexBounds")),
            R"({"a":["[5902408780260971510, 5902408780260971510]"]})");
  EXPECT_EQ(ToJson(*winning->Get("keyPattern")), R"({"a":"hashed"})");
  EXPECT_EQ(*c.CountDocuments(R"({"a": 1})"), 1);
  EXPECT_EQ(*c.CountDocuments(R"({"a": {"$in": [1, 2, 3.5]}})"), 2);
  plan = c.Explain(R"({"a": {"$gt": 5}})");
  EXPECT_EQ(plan->Get("queryPlanner")
                ->Get("winningPlan")
                ->Get("stage")
                ->string_value(),
            "COLLSCAN");
  EXPECT_EQ(*c.CountDocuments(R"({"a": {"$gt": 5}})"), 4);
  // hashed_index_sort.js: a sort on the hashed field is a blocking sort.
  FindOptions sort;
  sort.sort = *ParseDocument(R"({"a": 1})");
  plan = c.Explain(R"({"a": {"$in": [3, 1]}})", sort);
  EXPECT_EQ(plan->Get("queryPlanner")
                ->Get("winningPlan")
                ->Get("stage")
                ->string_value(),
            "SORT");
  EXPECT_TRUE(Valid(c));
}

// hashed_index_with_arrays.js: an array on the hashed path is 16766, at
// insert and at the build; unique is 16764 (hash_access_method.cpp).
TEST_F(HashedTest, ArraysAndUnique) {
  Collection& c = db_->collection("h");
  ASSERT_TRUE(c.CreateIndex(R"({"a.b": "hashed", "c": 1})").ok());
  auto bad = c.InsertOne(R"({"_id": 1, "a": [{"b": 1}]})");
  EXPECT_EQ(ErrorCode(bad.status()), 16766);
  EXPECT_TRUE(absl::EndsWith(
      bad.status().message(),
      "Error: hashed indexes do not currently support array values. "
      "Found array at path: a"))
      << bad.status();
  // Nor may its other fields (hashed_index_with_arrays.js: "None of the
  // index fields can be an array").
  EXPECT_EQ(
      ErrorCode(c.InsertOne(R"({"_id": 2, "a": {"b": 1}, "c": [1]})").status()),
      16766);
  EXPECT_TRUE(c.InsertOne(R"({"_id": 3, "a": {"b": [1]}, "x": [1]})").ok() ==
              false);
  EXPECT_TRUE(
      c.InsertOne(R"({"_id": 4, "a": {"b": 1}, "c": 2, "x": [1]})").ok());
  EXPECT_EQ(*c.CountDocuments(), 1);
  EXPECT_EQ(
      ErrorCode(
          c.CreateIndex(R"({"x": "hashed"})", R"({"unique": true})").status()),
      16764);
  EXPECT_EQ(
      ErrorCode(c.CreateIndex(R"({"x": "hashed", "y": "hashed"})").status()),
      31303);
  EXPECT_EQ(ErrorCode(c.CreateIndex(R"({"x": "hashed"})",
                                    R"({"expireAfterSeconds": 10})")
                          .status()),
            kCannotCreateIndex);
  Collection& d = db_->collection("d");
  ASSERT_TRUE(d.InsertOne(R"({"_id": 1, "a": [1]})").ok());
  EXPECT_EQ(ErrorCode(d.CreateIndex(R"({"a": "hashed"})").status()), 16766);
  EXPECT_TRUE(Valid(c));
}

// $toHashedIndexKey (expression.cpp ExpressionToHashedIndexKey): the same
// hash, a long; missing hashes as null.
TEST_F(HashedTest, ToHashedIndexKey) {
  Collection& c = db_->collection("h");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 42})").ok());
  EXPECT_EQ(Json(c.Aggregate(
                R"([{"$project": {"_id": 0, "h": {"$toHashedIndexKey": "$a"},
                            "s": {"$toHashedIndexKey": "abc"}}}])")),
            (std::vector<std::string>{
                R"({"h":-944302157085130861,"s":8478485326885698097})"}));
}

}  // namespace
}  // namespace ttldb
