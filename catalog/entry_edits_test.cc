// The edits DDL makes to a catalog entry: ids are handed out once, a build
// moves from building to built (or to abandoned and then away), a drop
// removes only its index, a rename keeps the id, and every edit keeps the
// fields it does not name.
#include "catalog/entry_edits.h"

#include <memory>
#include <string>

#include "base/status.h"
#include "catalog/compile.h"
#include "gtest/gtest.h"
#include "index/index_spec.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

IndexSpec Spec(absl::string_view keys) {
  absl::StatusOr<Value> k = ParseValue(keys);
  EXPECT_TRUE(k.ok());
  absl::StatusOr<IndexSpec> spec = ParseIndexSpec(*k, Value::MakeObject());
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? *spec : IndexSpec();
}

proto::CollectionInfo Entry() {
  proto::CollectionInfo info = NewCollectionEntry("c");
  info.set_id(7);
  info.set_validator_json(R"({"a":{"$gt":0}})");  // not named by any edit
  return info;
}

TEST(EntryEditsTest, NewEntriesStartAtIndexIdOne) {
  proto::CollectionInfo plain = NewCollectionEntry("c");
  EXPECT_EQ(plain.name(), "c");
  EXPECT_EQ(plain.id(), 0u);  // the commit gives it one
  EXPECT_EQ(plain.next_index_id(), 1u);
  EXPECT_EQ(plain.indexes_size(), 0);

  IndexSpec first = Spec(R"({"a": 1})");
  first.id = 9;
  first.multikey = true;
  proto::CollectionInfo with_index = NewCollectionEntry("c", &first);
  ASSERT_EQ(with_index.indexes_size(), 1);
  EXPECT_EQ(with_index.indexes(0).id(), 1u);
  EXPECT_EQ(with_index.indexes(0).name(), "a_1");
  EXPECT_FALSE(with_index.indexes(0).multikey());
  EXPECT_EQ(with_index.next_index_id(), 2u);
}

TEST(EntryEditsTest, ABuildIsRegisteredThenBuiltWithItsMultikeyFlag) {
  proto::CollectionInfo info = Entry();
  IndexSpec a = Spec(R"({"a": 1})"), b = Spec(R"({"b": 1})");
  AddBuildingIndex(&a, &info);
  AddBuildingIndex(&b, &info);
  EXPECT_EQ(a.id, 1u);
  EXPECT_EQ(b.id, 2u);
  EXPECT_EQ(info.next_index_id(), 3u);
  ASSERT_EQ(info.building_indexes_size(), 2);

  EXPECT_TRUE(MarkIndexBuilt(2, /*multikey=*/true, &info));
  ASSERT_EQ(info.indexes_size(), 1);
  EXPECT_EQ(info.indexes(0).name(), "b_1");
  EXPECT_TRUE(info.indexes(0).multikey());
  ASSERT_EQ(info.building_indexes_size(), 1);
  EXPECT_EQ(info.building_indexes(0).id(), 1u);
  EXPECT_FALSE(MarkIndexBuilt(2, false, &info));  // no longer building
  EXPECT_EQ(FindStoredIndex(&info, 2), &*info.mutable_indexes()->begin());
  EXPECT_EQ(FindStoredIndex(&info, 1), nullptr);  // building, not built
  EXPECT_EQ(info.validator_json(), R"({"a":{"$gt":0}})");

  // The compiled entry lists one index built and one building.
  auto state = CompileCollection(info);
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_EQ((*state)->indexes.size(), 1u);
  EXPECT_EQ((*state)->building.size(), 1u);
}

TEST(EntryEditsTest, AFailedBuildIsAbandonedThenForgotten) {
  proto::CollectionInfo info = Entry();
  IndexSpec a = Spec(R"({"a": 1})"), b = Spec(R"({"b": 1})");
  AddBuildingIndex(&a, &info);
  AddBuildingIndex(&b, &info);
  EXPECT_TRUE(AbandonBuildingIndex(1, &info));
  EXPECT_FALSE(AbandonBuildingIndex(1, &info));
  ASSERT_EQ(info.abandoned_index_ids_size(), 1);
  EXPECT_EQ(info.abandoned_index_ids(0), 1u);
  EXPECT_EQ(info.building_indexes_size(), 1);

  // An open after a crash abandons what is still building.
  std::vector<proto::IndexSpec> interrupted = AbandonAllBuildingIndexes(&info);
  ASSERT_EQ(interrupted.size(), 1u);
  EXPECT_EQ(interrupted[0].name(), "b_1");
  EXPECT_EQ(info.building_indexes_size(), 0);
  ASSERT_EQ(info.abandoned_index_ids_size(), 2);

  EXPECT_TRUE(ForgetAbandonedIndex(1, &info));
  EXPECT_FALSE(ForgetAbandonedIndex(1, &info));
  ASSERT_EQ(info.abandoned_index_ids_size(), 1);
  EXPECT_EQ(info.abandoned_index_ids(0), 2u);
  // Ids are never handed out again.
  IndexSpec c = Spec(R"({"c": 1})");
  AddBuildingIndex(&c, &info);
  EXPECT_EQ(c.id, 3u);
}

TEST(EntryEditsTest, RemoveIndexRemovesOnlyThatIndex) {
  proto::CollectionInfo info = Entry();
  for (const char* keys : {R"({"a": 1})", R"({"b": 1})", R"({"c": 1})"}) {
    IndexSpec spec = Spec(keys);
    AddBuildingIndex(&spec, &info);
    ASSERT_TRUE(MarkIndexBuilt(spec.id, false, &info));
  }
  EXPECT_TRUE(RemoveIndex(2, &info));
  EXPECT_FALSE(RemoveIndex(2, &info));
  ASSERT_EQ(info.indexes_size(), 2);
  EXPECT_EQ(info.indexes(0).name(), "a_1");
  EXPECT_EQ(info.indexes(1).name(), "c_1");
  EXPECT_EQ(info.next_index_id(), 4u);
  EXPECT_EQ(info.validator_json(), R"({"a":{"$gt":0}})");
}

// rename_collection.cpp checkSourceAndTargetNamespaces;
// jstests/core/rename_collection_to_itself.js for the rename onto itself.
TEST(EntryEditsTest, RenameChecksSourceAndTargetAndKeepsTheId) {
  auto source = CompileCollection(Entry());
  ASSERT_TRUE(source.ok()) << source.status();
  proto::CollectionInfo other = NewCollectionEntry("d");
  other.set_id(8);
  auto target = CompileCollection(other);
  ASSERT_TRUE(target.ok()) << target.status();

  absl::StatusOr<proto::CollectionInfo> renamed =
      RenamedEntry("c", "e", source->get(), nullptr, false);
  ASSERT_TRUE(renamed.ok()) << renamed.status();
  EXPECT_EQ(renamed->name(), "e");
  EXPECT_EQ(renamed->id(), 7u);
  EXPECT_EQ(renamed->validator_json(), R"({"a":{"$gt":0}})");

  EXPECT_EQ(
      ErrorCode(
          RenamedEntry("c", "c", source->get(), source->get(), true).status()),
      kIllegalOperation);
  absl::StatusOr<proto::CollectionInfo> missing =
      RenamedEntry("x", "e", nullptr, nullptr, false);
  EXPECT_EQ(ErrorCode(missing.status()), kNamespaceNotFound);
  EXPECT_EQ(missing.status().message(), "Source collection x does not exist");
  EXPECT_EQ(
      ErrorCode(
          RenamedEntry("c", "d", source->get(), target->get(), false).status()),
      kNamespaceExists);
  absl::StatusOr<proto::CollectionInfo> over =
      RenamedEntry("c", "d", source->get(), target->get(), true);
  ASSERT_TRUE(over.ok()) << over.status();
  EXPECT_EQ(over->id(), 7u);
}

}  // namespace
}  // namespace ttldb
