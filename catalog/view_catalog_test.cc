// The view catalog's rules, as MongoDB's src/mongo/db/views/
// view_graph_test.cpp and jstests/core/views/views_creation.js check them:
// a cycle is 5 GraphContainsCycle, a chain of more than 20 views 165
// ViewDepthLimitExceeded (ViewGraph::kMaxViewDepth), a second create of a
// name 48 NamespaceExists; resolveView prepends each view's pipeline.
#include "catalog/view_catalog.h"

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Value Json(absl::string_view text) {
  absl::StatusOr<Value> v = ParseValue(text);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : Value();
}

ViewDefinition View(std::string name, std::string on,
                    absl::string_view pipeline = "[]") {
  return ViewDefinition{std::move(name), std::move(on), Json(pipeline)};
}

TEST(ViewCatalogTest, ResolvePrependsEachViewsPipelineInnermostFirst) {
  ViewCatalog views;
  views.Set({View("v1", "c", R"([{"$match": {"a": 1}}])"),
             View("v2", "v1", R"([{"$project": {"a": 1}}])")});
  auto resolved = views.Resolve("v2");
  ASSERT_TRUE(resolved.ok()) << resolved.status();
  ASSERT_TRUE(resolved->has_value());
  EXPECT_EQ((*resolved)->collection, "c");
  EXPECT_EQ(ToJson((*resolved)->pipeline),
            R"([{"$match":{"a":1}},{"$project":{"a":1}}])");
  auto not_a_view = views.Resolve("c");
  ASSERT_TRUE(not_a_view.ok());
  EXPECT_FALSE(not_a_view->has_value());
}

TEST(ViewCatalogTest, ACycleIsRefusedWithThePath) {
  ViewCatalog views;
  views.Put(View("a", "b"));
  absl::Status s = views.CheckPut(View("b", "a"), /*replace=*/false);
  EXPECT_EQ(ErrorCode(s), kGraphContainsCycle);
  EXPECT_EQ(s.message(), "View cycle detected: b => a => b");
  // Through a $lookup's foreign collection too.
  s = views.CheckPut(View("b", "c", R"([{"$lookup": {"from": "a", "as": "x",
                         "localField": "k", "foreignField": "k"}}])"),
                     /*replace=*/false);
  EXPECT_EQ(ErrorCode(s), kGraphContainsCycle);
}

TEST(ViewCatalogTest, TwentyViewsDeepIsTheLimit) {
  ViewCatalog views;
  // v1 on c, v2 on v1, ..., v20 on v19: 20 views.
  for (int i = 1; i <= 20; ++i) {
    ViewDefinition v =
        View(absl::StrCat("v", i), i == 1 ? "c" : absl::StrCat("v", i - 1));
    ASSERT_TRUE(views.CheckPut(v, false).ok()) << i;
    views.Put(std::move(v));
  }
  absl::Status s = views.CheckPut(View("v21", "v20"), false);
  EXPECT_EQ(ErrorCode(s), kViewDepthLimitExceeded);
  EXPECT_THAT(s.message(), HasSubstr("maximum depth is 20"));
  // view_catalog_helpers.cpp resolveView looks up at most 20 namespaces:
  // v19's chain ends at c within them, v20's does not, so MongoDB creates
  // the twentieth view and then refuses to read it.
  auto v19 = views.Resolve("v19");
  ASSERT_TRUE(v19.ok()) << v19.status();
  EXPECT_EQ((*v19)->collection, "c");
  auto v20 = views.Resolve("v20");
  EXPECT_EQ(ErrorCode(v20.status()), kViewDepthLimitExceeded);
  EXPECT_EQ(v20.status().message(),
            "View depth too deep or view cycle detected; maximum depth is 20");
}

TEST(ViewCatalogTest, ANameIsCreatedOnceAndReplacedByModify) {
  ViewCatalog views;
  views.Put(View("v", "c"));
  EXPECT_EQ(ErrorCode(views.CheckPut(View("v", "d"), false)), kNamespaceExists);
  EXPECT_TRUE(views.CheckPut(View("v", "d"), /*replace=*/true).ok());
  views.Put(View("v", "d"));
  EXPECT_EQ(views.Get("v")->view_on, "d");
  EXPECT_TRUE(views.Contains("v"));
  views.Erase("v");
  EXPECT_FALSE(views.Contains("v"));
  EXPECT_FALSE(views.Get("v").has_value());
  views.Erase("v");  // nothing to erase
  EXPECT_TRUE(views.List().empty());
}

TEST(ViewCatalogTest, ListIsByName) {
  ViewCatalog views;
  views.Set({View("b", "c"), View("a", "c")});
  std::vector<std::string> names;
  for (const ViewDefinition& v : views.List()) names.push_back(v.name);
  EXPECT_THAT(names, ElementsAre("a", "b"));
}

TEST(ViewCatalogTest, InvolvedCollectionsFollowsSubPipelines) {
  std::set<std::string> out;
  InvolvedCollections(Json(R"([
      {"$lookup": {"from": "l", "as": "x", "pipeline": [
          {"$unionWith": {"coll": "u", "pipeline": [
              {"$graphLookup": {"from": {"db": "d", "coll": "g"}}}]}}]}},
      {"$unionWith": "u2"},
      {"$facet": {"f": [{"$lookup": {"from": "fl", "as": "y"}}]}},
      {"$match": {"from": "not a collection"}}])"),
                      &out);
  EXPECT_THAT(out, ElementsAre("fl", "g", "l", "u", "u2"));
}

}  // namespace
}  // namespace ttldb
