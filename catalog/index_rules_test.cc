// The rules of index DDL, with MongoDB's codes and messages:
// IndexCatalogImpl::_doesSpecConflictWithExisting
// (src/mongo/db/catalog/index_catalog_impl.cpp; jstests/core/ddl/
// index_signature.js and jstests/core/index/index_options.js check them
// through createIndexes), collMod's index argument (coll_mod.cpp,
// jstests/core/ddl/collmod_*.js), and the 64-index limit.
#include "catalog/index_rules.h"

#include <memory>
#include <string>

#include "base/status.h"
#include "catalog/compile.h"
#include "catalog/index_spec_proto.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "index/index_spec.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

using ::testing::HasSubstr;

Value Json(absl::string_view text) {
  absl::StatusOr<Value> v = ParseValue(text);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : Value();
}

IndexSpec Spec(absl::string_view keys, absl::string_view options = "{}") {
  absl::StatusOr<IndexSpec> spec = ParseIndexSpec(Json(keys), Json(options));
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? *spec : IndexSpec();
}

// A collection "c" with the given indexes (ids from 1).
std::shared_ptr<const CollectionState> Collection(
    const std::vector<IndexSpec>& specs) {
  proto::CollectionInfo info;
  info.set_name("c");
  info.set_id(1);
  uint32_t id = 0;
  for (IndexSpec spec : specs) {
    spec.id = ++id;
    IndexSpecToProto(spec, info.add_indexes());
  }
  info.set_next_index_id(id + 1);
  auto state = CompileCollection(info);
  EXPECT_TRUE(state.ok()) << state.status();
  return *state;
}

std::vector<const IndexState*> Existing(const CollectionState& state) {
  std::vector<const IndexState*> out;
  for (const auto& idx : state.indexes) out.push_back(idx.get());
  return out;
}

TEST(IndexRulesTest, SameNameAndOptionsIsANoOpOtherwiseAConflict) {
  auto state = Collection({Spec(R"({"a": 1})")});
  const IndexSpec same = Spec(R"({"a": 1})");
  EXPECT_TRUE(CheckIndexConflicts(same, "{}", Existing(*state)).ok());
  // Same name and key, another non-identifying option: 85 (sparse, unique,
  // a partial filter or a collation identify an index:
  // IndexDescriptor::compareIndexOptions).
  absl::Status s = CheckIndexConflicts(
      Spec(R"({"a": 1})", R"({"hidden": true})"), "<spec>", Existing(*state));
  EXPECT_EQ(ErrorCode(s), kIndexOptionsConflict);
  EXPECT_THAT(s.message(),
              HasSubstr("An equivalent index already exists with the same "
                        "name but different options. Requested index: <spec>"));
  // Same name, another key: 86.
  s = CheckIndexConflicts(Spec(R"({"b": 1})", R"({"name": "a_1"})"), "<spec>",
                          Existing(*state));
  EXPECT_EQ(ErrorCode(s), kIndexKeySpecsConflict);
  // Same key and options, another name: 85.
  s = CheckIndexConflicts(Spec(R"({"a": 1})", R"({"name": "other"})"), "<spec>",
                          Existing(*state));
  EXPECT_EQ(ErrorCode(s), kIndexOptionsConflict);
  EXPECT_EQ(s.message(), "Index already exists with a different name: a_1");
  // The _id index's name for another key: 86, naming the _id index.
  s = CheckIndexConflicts(Spec(R"({"b": 1})", R"({"name": "_id_"})"), "<spec>",
                          {});
  EXPECT_EQ(ErrorCode(s), kIndexKeySpecsConflict);
  EXPECT_THAT(s.message(), HasSubstr(R"("name":"_id_")"));
  // Another key beside it: no conflict.
  EXPECT_TRUE(
      CheckIndexConflicts(Spec(R"({"b": 1})"), "{}", Existing(*state)).ok());
}

TEST(IndexRulesTest, SixtyFourIndexesIncludingId) {
  EXPECT_TRUE(CheckIndexCount(62, "c", Json(R"({"x": 1})")).ok());
  absl::Status s = CheckIndexCount(63, "c", Json(R"({"x": 1})"));
  EXPECT_EQ(ErrorCode(s), kCannotCreateIndex);
  EXPECT_EQ(s.message(),
            R"(add index fails, too many indexes for c key:{"x":1})");
}

TEST(IndexRulesTest, TheIdIndexIsNeitherUniqueSparseNorPartial) {
  EXPECT_TRUE(IsIdIndexKey(Spec(R"({"_id": -1})")));
  EXPECT_FALSE(IsIdIndexKey(Spec(R"({"_id": "hashed"})")));
  EXPECT_FALSE(IsIdIndexKey(Spec(R"({"_id": 1, "a": 1})")));
  EXPECT_TRUE(CheckIdIndexOptions(Spec(R"({"_id": 1})"), "{}").ok());
  EXPECT_EQ(ErrorCode(CheckIdIndexOptions(
                Spec(R"({"_id": 1})", R"({"sparse": true})"), "{}")),
            kInvalidIndexSpecificationOption);
}

TEST(IndexRulesTest, PartialFiltersUseOnlyThePartialOperators) {
  EXPECT_TRUE(CheckPartialFilterSpec(
                  Spec(R"({"a": 1})",
                       R"({"partialFilterExpression": {"a": {"$gt": 1}}})"),
                  "<spec>")
                  .ok());
  absl::Status s = CheckPartialFilterSpec(
      Spec(R"({"a": 1})", R"({"partialFilterExpression": {"a": {"$ne": 1}}})"),
      "<spec>");
  EXPECT_EQ(ErrorCode(s), kCannotCreateIndex);
  EXPECT_THAT(s.message(),
              HasSubstr("Error in specification <spec> :: caused by :: "));
}

TEST(IndexRulesTest, LifetimeOptionsNeedATtlIndex) {
  EXPECT_EQ(ErrorCode(CheckLifetimeOptions(
                Spec(R"({"a": 1})", R"({"rejectExpired": true})"),
                kCannotCreateIndex)),
            kCannotCreateIndex);
  EXPECT_TRUE(CheckLifetimeOptions(
                  Spec(R"({"a": 1})",
                       R"({"expireAfterSeconds": 60, "rejectExpired": true})"),
                  kCannotCreateIndex)
                  .ok());
}

TEST(IndexRulesTest, CollModNamesOneIndexByNameOrKeyPattern) {
  EXPECT_EQ(ErrorCode(ParseCollModIndex(Json("5")).status()), kInvalidOptions);
  EXPECT_EQ(ErrorCode(ParseCollModIndex(
                          Json(R"({"name": "a_1", "keyPattern": {"a": 1},
                                   "hidden": true})"))
                          .status()),
            kInvalidOptions);
  EXPECT_EQ(ErrorCode(ParseCollModIndex(
                          Json(R"({"name": "a_1", "expireAfterSeconds": "x"})"))
                          .status()),
            kTypeMismatch);
  EXPECT_EQ(ErrorCode(ParseCollModIndex(Json(R"({"name": "a_1"})")).status()),
            kInvalidOptions);  // nothing to change

  auto state =
      Collection({Spec(R"({"a": 1})"), Spec(R"({"b": 1})", R"({"name": "b1",
                                "partialFilterExpression": {"x": 1}})"),
                  Spec(R"({"b": 1})", R"({"name": "b2",
                                "partialFilterExpression": {"y": 1}})")});
  const Value by_name = Json(R"({"name": "a_1", "hidden": true})");
  auto request = ParseCollModIndex(by_name);
  ASSERT_TRUE(request.ok()) << request.status();
  auto found = FindCollModIndex(*state, *request, "c");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ((*found)->name, "a_1");

  const Value ambiguous = Json(R"({"keyPattern": {"b": 1}, "hidden": true})");
  request = ParseCollModIndex(ambiguous);
  ASSERT_TRUE(request.ok());
  EXPECT_EQ(ErrorCode(FindCollModIndex(*state, *request, "c").status()),
            kAmbiguousIndexKeyPattern);

  const Value missing = Json(R"({"name": "zz", "hidden": true})");
  request = ParseCollModIndex(missing);
  ASSERT_TRUE(request.ok());
  absl::Status s = FindCollModIndex(*state, *request, "c").status();
  EXPECT_EQ(ErrorCode(s), kIndexNotFound);
  EXPECT_EQ(s.message(), R"(cannot find index "zz" for ns c)");

  const Value id = Json(R"({"name": "_id_", "hidden": true})");
  request = ParseCollModIndex(id);
  ASSERT_TRUE(request.ok());
  s = FindCollModIndex(*state, *request, "c").status();
  EXPECT_EQ(ErrorCode(s), kBadValue);
  EXPECT_EQ(s.message(), "can't hide _id index");
}

TEST(IndexRulesTest, ApplyingCollModKeepsTheStoredSpecAndReportsOldAndNew) {
  auto state =
      Collection({Spec(R"({"at": 1})", R"({"expireAfterSeconds": 60})")});
  const Value arg = Json(R"({"name": "at_1", "expireAfterSeconds": 120})");
  auto request = ParseCollModIndex(arg);
  ASSERT_TRUE(request.ok()) << request.status();
  proto::CollectionInfo info = state->info;
  auto reply =
      ApplyCollModIndex(state->indexes[0]->spec, *request, absl::ZeroDuration(),
                        "c", info.mutable_indexes(0));
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(ToJson(Value::MakeObject(*reply)),
            R"({"expireAfterSeconds_old":60,"expireAfterSeconds_new":120})");
  EXPECT_EQ(info.indexes(0).expire_after_seconds(), 120);
}

}  // namespace
}  // namespace ttldb
