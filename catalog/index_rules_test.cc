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

// createIndexes' checks of the request alone: a TTL index's
// expireAfterSeconds is stored truncated (ttl/ttl_spec.h), {_id: 1} and
// {_id: -1} name the _id index (index_descriptor.cpp isIdIndexPattern;
// jstests/core/index/index_id_desc.js), whose options are refused as
// jstests/core/index/index_id_options.js expects.
TEST(IndexRulesTest, PrepareCreateIndexNormalizesAndRecognizesTheIdIndex) {
  absl::StatusOr<CreateIndexRequest> ttl = PrepareCreateIndex(
      Json(R"({"t": 1})"), Json(R"({"expireAfterSeconds": 10.7})"),
      absl::ZeroDuration(), "c");
  ASSERT_TRUE(ttl.ok()) << ttl.status();
  EXPECT_EQ(*ttl->spec.expire_after_seconds, 10);
  EXPECT_FALSE(ttl->id_index);
  EXPECT_EQ(ttl->spec.name, "t_1");

  absl::StatusOr<CreateIndexRequest> id = PrepareCreateIndex(
      Json(R"({"_id": -1})"), Json("{}"), absl::ZeroDuration(), "c");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_TRUE(id->id_index);

  absl::StatusOr<CreateIndexRequest> unique_id =
      PrepareCreateIndex(Json(R"({"_id": 1})"), Json(R"({"unique": true})"),
                         absl::ZeroDuration(), "c");
  EXPECT_EQ(ErrorCode(unique_id.status()), kInvalidIndexSpecificationOption);

  // The touch interval must be at most half of expireAfterSeconds
  // (ttl/touch_interval.h): 67 for a create.
  absl::StatusOr<CreateIndexRequest> too_short = PrepareCreateIndex(
      Json(R"({"t": 1})"), Json(R"({"expireAfterSeconds": 10})"),
      absl::Seconds(6), "c");
  EXPECT_EQ(ErrorCode(too_short.status()), kCannotCreateIndex);

  // A partial filter with an operator partial indexes do not allow.
  absl::StatusOr<CreateIndexRequest> partial = PrepareCreateIndex(
      Json(R"({"a": 1})"),
      Json(R"({"partialFilterExpression": {"a": {"$nin": [1]}}})"),
      absl::ZeroDuration(), "c");
  EXPECT_EQ(ErrorCode(partial.status()), kCannotCreateIndex);
}

// index_catalog_impl.cpp _isSpecOk: no TTL index on a capped collection;
// index_key_validate.cpp: an index without a collation takes the
// collection's.
TEST(IndexRulesTest, TheCollectionGivesItsCollationAndRefusesTtlWhenCapped) {
  proto::CollectionInfo info;
  info.set_name("c");
  info.set_id(1);
  info.set_next_index_id(1);
  info.set_collation_json(R"({"locale":"fr"})");
  auto state = CompileCollection(info);
  ASSERT_TRUE(state.ok()) << state.status();
  IndexSpec spec = Spec(R"({"a": 1})");
  ASSERT_TRUE(ApplyCollectionToIndex(**state, Json("{}"), &spec).ok());
  EXPECT_EQ(spec.collation_json, R"({"locale":"fr"})");
  IndexSpec simple = Spec(R"({"a": 1})");
  ASSERT_TRUE(
      ApplyCollectionToIndex(
          **state, Json(R"({"collation": {"locale": "simple"}})"), &simple)
          .ok());
  EXPECT_EQ(simple.collation_json, "");

  info.set_collation_json("");
  info.set_capped(true);
  info.set_capped_size(4096);
  state = CompileCollection(info);
  ASSERT_TRUE(state.ok()) << state.status();
  IndexSpec ttl = Spec(R"({"t": 1})", R"({"expireAfterSeconds": 5})");
  absl::Status capped = ApplyCollectionToIndex(**state, Json("{}"), &ttl);
  EXPECT_EQ(ErrorCode(capped), kCannotCreateIndex);
  EXPECT_THAT(capped.message(),
              HasSubstr("Cannot create TTL index on a capped collection"));
}

// drop_indexes.cpp: the _id index is never dropped (72), a missing
// collection is 26, a missing name 27 (jstests/core/ddl/drop_indexes.js).
TEST(IndexRulesTest, DropIndexesFindsItsIndexByNameOrKey) {
  auto state =
      Collection({Spec(R"({"a": 1})"), Spec(R"({"a": 1})", R"({"name": "a_fr",
                                "collation": {"locale": "fr"}})"),
                  Spec(R"({"b": 1})")});
  absl::StatusOr<const IndexState*> b =
      FindIndexToDrop(state.get(), "c", "b_1");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ((*b)->spec.id, 3u);
  EXPECT_EQ(ErrorCode(FindIndexToDrop(state.get(), "c", "_id_").status()),
            kInvalidOptions);
  EXPECT_EQ(ErrorCode(FindIndexToDrop(nullptr, "c", "b_1").status()),
            kNamespaceNotFound);
  absl::StatusOr<const IndexState*> missing =
      FindIndexToDrop(state.get(), "c", "z_1");
  EXPECT_EQ(ErrorCode(missing.status()), kIndexNotFound);
  EXPECT_EQ(missing.status().message(), "index not found with name [z_1]");

  EXPECT_EQ(*IndexNameForKey(state.get(), Json(R"({"b": 1})")), "b_1");
  EXPECT_EQ(*IndexNameForKey(state.get(), Json(R"({"_id": 1})")), "_id_");
  absl::StatusOr<std::string> ambiguous =
      IndexNameForKey(state.get(), Json(R"({"a": 1})"));
  EXPECT_EQ(ErrorCode(ambiguous.status()), kAmbiguousIndexKeyPattern);
  EXPECT_THAT(ambiguous.status().message(),
              HasSubstr("2 indexes found for key: "));
  absl::StatusOr<std::string> none =
      IndexNameForKey(state.get(), Json(R"({"z": 1})"));
  EXPECT_EQ(ErrorCode(none.status()), kIndexNotFound);
  EXPECT_EQ(ErrorCode(IndexNameForKey(nullptr, Json(R"({"b": 1})")).status()),
            kIndexNotFound);
}

}  // namespace
}  // namespace ttldb
