// PlanCatalogRepair's decisions (docs/operations.md, "Repair"), with the
// report lines `ttldb repair` prints. tests/reliability/repair_test.cc runs
// the same rules end to end on damaged databases.
#include "catalog/catalog_repair.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

proto::CollectionInfo Entry(const std::string& name, uint32_t id) {
  proto::CollectionInfo info;
  info.set_name(name);
  info.set_id(id);
  info.set_next_index_id(1);
  return info;
}

bool NoneTaken(const std::string&) { return false; }

TEST(CatalogRepairTest, AParsedEntryKeepsItsDocumentsAndIndexesThatCompile) {
  proto::CollectionInfo info = Entry("a", 3);
  proto::IndexSpec* good = info.add_indexes();
  good->set_id(1);
  good->set_name("x_1");
  good->add_key()->set_path("x");
  good->mutable_key(0)->set_direction(1);
  proto::IndexSpec* bad = info.add_indexes();
  bad->set_id(2);
  bad->set_name("broken");
  bad->add_key()->set_path("y");
  bad->mutable_key(0)->set_direction(1);
  bad->set_partial_filter_json("{not json");  // does not compile
  info.set_next_index_id(3);
  CatalogRepairInput input;
  input.damage["a"] = "its entry names a missing index";
  input.damaged_entries["a"] = info.SerializeAsString();
  input.document_ids = {{3, 10}};
  input.next_collection_id = 4;
  CatalogRepairPlan plan = PlanCatalogRepair(input, NoneTaken);
  ASSERT_EQ(plan.entries.size(), 1u);
  EXPECT_EQ(plan.entries[0].id(), 3u);
  ASSERT_EQ(plan.entries[0].indexes_size(), 1);
  EXPECT_EQ(plan.entries[0].indexes(0).name(), "x_1");
  EXPECT_EQ(plan.entries[0].next_index_id(), 3u);
  EXPECT_THAT(plan.report,
              ElementsAre("collection 'a': its entry names a missing index; "
                          "kept its documents (id 3); indexes dropped: "
                          "broken"));
  EXPECT_EQ(plan.next_collection_id, 4u);
}

TEST(CatalogRepairTest, EntriesSharingAnIdLeaveItsDocumentsToTheFirstByName) {
  CatalogRepairInput input;
  input.damage = {{"b", "shares id 5"}, {"a", "shares id 5"}};
  input.damaged_entries["a"] = Entry("a", 5).SerializeAsString();
  input.damaged_entries["b"] = Entry("b", 5).SerializeAsString();
  input.document_ids = {{5, 2}};
  input.next_collection_id = 9;
  CatalogRepairPlan plan = PlanCatalogRepair(input, NoneTaken);
  ASSERT_EQ(plan.entries.size(), 2u);
  EXPECT_EQ(plan.entries[0].name(), "a");
  EXPECT_EQ(plan.entries[0].id(), 5u);
  EXPECT_EQ(plan.entries[1].name(), "b");
  EXPECT_EQ(plan.entries[1].id(), 9u);
  EXPECT_EQ(plan.report[1],
            "collection 'b': shares id 5; the documents under id 5 stay in "
            "'a'; it is now empty (id 9)");
  EXPECT_EQ(plan.next_collection_id, 10u);
}

TEST(CatalogRepairTest, OneUnreadableEntryGetsTheOnlyUnnamedDocuments) {
  CatalogRepairInput input;
  input.damage["a"] = "its entry does not parse";
  input.damaged_entries["a"] = std::string("\xff\xff", 2);
  input.known_ids = {1};
  input.document_ids = {{1, 4}, {7, 3}};
  CatalogRepairPlan plan = PlanCatalogRepair(input, NoneTaken);
  ASSERT_EQ(plan.entries.size(), 1u);
  EXPECT_EQ(plan.entries[0].id(), 7u);
  EXPECT_EQ(plan.report[0],
            "collection 'a': its entry does not parse; given back the 3 "
            "documents stored under id 7, the only id no catalog entry "
            "names; its indexes (other than _id) are lost: create them again");
}

TEST(CatalogRepairTest, OtherUnnamedDocumentsGoToLostAndFound) {
  CatalogRepairInput input;
  input.damage["a"] = "its entry does not parse";
  input.damaged_entries["a"] = std::nullopt;  // unreadable
  input.document_ids = {{7, 3}, {8, 1}};
  input.index_ids = {{8, 2}, {12, 5}};
  input.next_collection_id = 20;
  CatalogRepairPlan plan = PlanCatalogRepair(
      input,
      [](const std::string& name) { return name == "lost_and_found.8"; });
  ASSERT_EQ(plan.entries.size(), 3u);
  EXPECT_EQ(plan.entries[0].name(), "a");
  EXPECT_EQ(plan.entries[0].id(), 20u);  // two ids unnamed: it is empty
  EXPECT_EQ(plan.entries[1].name(), "lost_and_found.7");
  EXPECT_EQ(plan.entries[2].name(), "lost_and_found.8_2");
  EXPECT_EQ(plan.report[2],
            "documents under id 8, which no catalog entry names: 1 kept in "
            "new collection 'lost_and_found.8_2'");
  // Id 8 now names a collection: only id 12's index entries are garbage.
  EXPECT_THAT(plan.garbage_index_ids, ElementsAre(Pair(12u, 5)));
  EXPECT_EQ(GarbageIndexLine(12, 5),
            "5 index entries under id 12, which no catalog entry names: "
            "deleted");
}

TEST(CatalogRepairTest, AHealthyCatalogNeedsNothing) {
  CatalogRepairInput input;
  input.known_ids = {1, 2};
  input.document_ids = {{1, 4}};
  input.index_ids = {{2, 3}};
  CatalogRepairPlan plan = PlanCatalogRepair(input, NoneTaken);
  EXPECT_THAT(plan.entries, IsEmpty());
  EXPECT_THAT(plan.report, IsEmpty());
  EXPECT_THAT(plan.garbage_index_ids, IsEmpty());
}

}  // namespace
}  // namespace ttldb
