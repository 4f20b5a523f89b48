#include "catalog/collection_catalog.h"

#include <memory>
#include <string>
#include <utility>

#include "catalog/compile.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

std::shared_ptr<const CollectionState> State(const std::string& name,
                                             uint32_t id) {
  proto::CollectionInfo info;
  info.set_name(name);
  info.set_id(id);
  info.set_next_index_id(1);
  auto state = CompileCollection(info);
  EXPECT_TRUE(state.ok()) << state.status();
  return *state;
}

TEST(CollectionCatalogTest, PublishedStatesAreFoundByNameAndId) {
  CollectionCatalog catalog;
  EXPECT_EQ(catalog.Get("a"), nullptr);
  auto a = State("a", 1);
  auto b = State("b", 2);
  catalog.Publish("b", b);
  catalog.Publish("a", a);
  EXPECT_EQ(catalog.Get("a"), a);
  EXPECT_EQ(catalog.GetById(2), b);
  EXPECT_EQ(catalog.GetById(3), nullptr);
  EXPECT_THAT(catalog.Names(), ElementsAre("a", "b"));
  EXPECT_THAT(catalog.Snapshot(), ElementsAre(Pair("a", a), Pair("b", b)));
}

TEST(CollectionCatalogTest, ANewStateReplacesTheOldAndReadersKeepTheirs) {
  CollectionCatalog catalog;
  auto first = State("a", 1);
  catalog.Publish("a", first);
  std::shared_ptr<const CollectionState> held = catalog.Get("a");
  auto second = State("a", 1);
  catalog.Publish("a", second);
  EXPECT_EQ(catalog.Get("a"), second);
  EXPECT_EQ(held, first);  // a reader's version is not changed under it
  catalog.Publish("a", nullptr);
  EXPECT_EQ(catalog.Get("a"), nullptr);
  EXPECT_TRUE(catalog.Names().empty());
}

TEST(CollectionCatalogTest, DamagedEntriesAndTheIdsTheReclaimerMustKeep) {
  CollectionCatalog catalog;
  catalog.Publish("a", State("a", 1));
  proto::CollectionInfo damaged_info;
  damaged_info.set_name("bad");
  damaged_info.set_id(7);
  CatalogIds damaged_ids;
  damaged_ids.Add(damaged_info, /*damaged=*/true);
  catalog.SetDamaged({{"bad", "its catalog entry is corrupt"}},
                     std::move(damaged_ids));
  EXPECT_EQ(catalog.Damage("bad"), "its catalog entry is corrupt");
  EXPECT_EQ(catalog.Damage("a"), std::nullopt);
  EXPECT_THAT(catalog.AllDamage(),
              ElementsAre(Pair("bad", "its catalog entry is corrupt")));

  CatalogIds ids = catalog.Ids();
  ASSERT_EQ(ids.collections.count(1), 1u);
  ASSERT_EQ(ids.collections.count(7), 1u);
  EXPECT_FALSE(ids.collections[1].damaged);
  EXPECT_TRUE(ids.collections[7].damaged);

  EXPECT_TRUE(catalog.ForgetDamaged("bad"));
  EXPECT_FALSE(catalog.ForgetDamaged("bad"));
  EXPECT_EQ(catalog.Damage("bad"), std::nullopt);
  // Its id stays known until the next open: its data may still be there.
  EXPECT_EQ(catalog.Ids().collections.count(7), 1u);
}

}  // namespace
}  // namespace ttldb
