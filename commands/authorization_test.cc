// AggregatePrivileges: the privileges of a pipeline, stage by stage, as
// mongod computes them. Expected answers: src/mongo/db/auth/
// authorization_checks.cpp getPrivilegesForAggregate, and the stages'
// requiredPrivileges in src/mongo/db/pipeline/: document_source_out.h,
// merge_processor.cpp (getMergeStrategyDescriptors),
// document_source_lookup.cpp, document_source_union_with.cpp,
// document_source_graph_lookup.cpp, document_source_facet.cpp.
#include "commands/authorization.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "document/json.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace commands {
namespace {

// "db.coll: a,b; ..." for `pipeline` (JSON) aggregated over test.c.
std::string Privileges(const std::string& pipeline, bool bypass = false) {
  absl::StatusOr<Value> p = ParseValue(pipeline);
  EXPECT_TRUE(p.ok()) << pipeline;
  std::vector<std::string> out;
  for (const Privilege& priv :
       AggregatePrivileges("test", "c", p.ok() ? *p : Value::Null(), bypass)) {
    std::vector<std::string> actions;
    for (ActionType a : priv.actions) actions.push_back(ActionTypeName(a));
    out.push_back(absl::StrCat(priv.db, ".", priv.coll, ": ",
                               absl::StrJoin(actions, ",")));
  }
  return absl::StrJoin(out, "; ");
}

TEST(AggregatePrivilegesTest, ReadsNeedFindOnTheCollection) {
  EXPECT_EQ(Privileges("[]"), "test.c: find");
  EXPECT_EQ(Privileges(R"([{"$match": {}}, {"$group": {"_id": 1}}])"),
            "test.c: find");
  // An initial source reads no collection.
  EXPECT_EQ(Privileges(R"([{"$documents": [{}]}])"), "");
  // Malformed: the collection's find; the parse reports the rest.
  EXPECT_EQ(Privileges("5"), "test.c: find");
  EXPECT_EQ(Privileges(R"([5, {}])"), "test.c: find");
}

TEST(AggregatePrivilegesTest, OutNeedsInsertAndRemoveOnItsTarget) {
  EXPECT_EQ(Privileges(R"([{"$out": "t"}])"),
            "test.c: find; test.t: insert,remove");
  EXPECT_EQ(Privileges(R"([{"$out": {"db": "archive", "coll": "t"}}])"),
            "test.c: find; archive.t: insert,remove");
  EXPECT_EQ(Privileges(R"([{"$out": "t"}])", /*bypass=*/true),
            "test.c: find; test.t: insert,remove,bypassDocumentValidation");
  // $out onto the collection it reads: one privilege for the namespace.
  EXPECT_EQ(Privileges(R"([{"$out": "c"}])"), "test.c: find,insert,remove");
}

TEST(AggregatePrivilegesTest, MergeActionsFollowItsModes) {
  EXPECT_EQ(Privileges(R"([{"$merge": "t"}])"),
            "test.c: find; test.t: insert,update");
  EXPECT_EQ(Privileges(R"([{"$merge": {"into": {"db": "a", "coll": "t"}}}])"),
            "test.c: find; a.t: insert,update");
  EXPECT_EQ(Privileges(R"([{"$merge": {"into": {"coll": "t"}}}])"),
            "test.c: find; test.t: insert,update");
  EXPECT_EQ(Privileges(R"([{"$merge": {"into": "t", "whenMatched": "fail"}}])"),
            "test.c: find; test.t: insert");
  EXPECT_EQ(Privileges(R"([{"$merge": {"into": "t",
                          "whenMatched": "keepExisting"}}])"),
            "test.c: find; test.t: insert,update");
  for (const char* matched : {"replace", "merge"}) {
    for (const char* not_matched : {"fail", "discard"}) {
      EXPECT_EQ(Privileges(absl::StrCat(
                    R"([{"$merge": {"into": "t", "whenMatched": ")", matched,
                    R"(", "whenNotMatched": ")", not_matched, R"("}}])")),
                "test.c: find; test.t: update")
          << matched << "/" << not_matched;
    }
  }
  EXPECT_EQ(Privileges(R"([{"$merge": {"into": "t", "whenMatched":
                          [{"$set": {"x": 1}}], "whenNotMatched": "discard"}}])"),
            "test.c: find; test.t: update");
}

TEST(AggregatePrivilegesTest, ForeignCollectionsNeedFind) {
  EXPECT_EQ(Privileges(R"([{"$lookup": {"from": "o", "localField": "a",
                          "foreignField": "b", "as": "x"}}])"),
            "test.c: find; test.o: find");
  // A sub-pipeline that starts with $documents reads no foreign
  // collection; its own stages still count.
  EXPECT_EQ(Privileges(R"([{"$lookup": {"from": "o", "as": "x", "pipeline":
                          [{"$documents": [{}]}, {"$lookup": {"from": "p",
                          "pipeline": [], "as": "y"}}]}}])"),
            "test.c: find; test.p: find");
  EXPECT_EQ(Privileges(R"([{"$unionWith": "u"}])"),
            "test.c: find; test.u: find");
  EXPECT_EQ(Privileges(R"([{"$unionWith": {"coll": "u", "pipeline":
                          [{"$lookup": {"from": "v", "localField": "a",
                          "foreignField": "b", "as": "x"}}]}}])"),
            "test.c: find; test.u: find; test.v: find");
  EXPECT_EQ(Privileges(R"([{"$graphLookup": {"from": "g", "startWith": "$a",
                          "connectFromField": "a", "connectToField": "b",
                          "as": "x"}}])"),
            "test.c: find; test.g: find");
  EXPECT_EQ(Privileges(R"([{"$facet": {"one": [{"$lookup": {"from": "o",
                          "localField": "a", "foreignField": "b",
                          "as": "x"}}], "two": [{"$unionWith": "u"}]}}])"),
            "test.c: find; test.o: find; test.u: find");
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
