// AggregatePrivileges: the privileges of a pipeline, stage by stage, as
// mongod computes them. Expected answers: src/mongo/db/auth/
// authorization_checks.cpp getPrivilegesForAggregate, and the stages'
// requiredPrivileges in src/mongo/db/pipeline/: document_source_out.h,
// merge_processor.cpp (getMergeStrategyDescriptors),
// document_source_lookup.cpp, document_source_union_with.cpp,
// document_source_graph_lookup.cpp, document_source_facet.cpp.
//
// BuiltinRolesEnforceMongoDbPrivileges: which built-in roles may run which
// command, through the runner, with the expected roles of MongoDB's own
// table of them, jstests/auth/lib/commands_lib.js (its testcases' `roles`:
// roles_read, roles_write, roles_dbAdmin, roles_monitoring, ... on
// firstDbName "roles_commands_1" and adminDbName).
#include "commands/authorization.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "commands/auth_test_util.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

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

TEST(AggregatePrivilegesTest, ChangeStreamsNeedChangeStreamAndFind) {
  // document_source_change_stream.h: find and changeStream on the
  // collection (a database's stream: on the database).
  EXPECT_EQ(Privileges(R"([{"$changeStream": {}}, {"$match": {}}])"),
            "test.c: changeStream,find");
  std::vector<std::string> db_wide;
  for (const Privilege& p : AggregatePrivileges(
           "test", "", *ParseValue(R"([{"$changeStream": {}}])"), false)) {
    db_wide.push_back(absl::StrCat(p.db, ".", p.coll, ":", p.actions.size()));
  }
  EXPECT_EQ(absl::StrJoin(db_wide, ";"), "test.:2");
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

// RequiredPrivileges: "resource: a,b | ..." for each alternative, joined
// by " OR ", for `cmd` (JSON) on database "test".
std::string Needed(const std::string& cmd) {
  absl::StatusOr<Value> v = ParseValue(cmd);
  EXPECT_TRUE(v.ok()) << cmd;
  const CommandPrivileges needed =
      RequiredPrivileges("test", v.ok() ? *v : Value::Null());
  if (needed.kind == CommandPrivileges::Kind::kNone) return "none";
  if (needed.kind == CommandPrivileges::Kind::kAuthenticated) {
    return "authenticated";
  }
  std::vector<std::string> alternatives;
  for (const std::vector<Privilege>& alt : needed.alternatives) {
    std::vector<std::string> out;
    for (const Privilege& p : alt) {
      std::vector<std::string> actions;
      for (ActionType a : p.actions) actions.push_back(ActionTypeName(a));
      const std::string resource =
          p.resource == ResourceKind::kCluster     ? "cluster"
          : p.resource == ResourceKind::kAnyNormal ? "anyNormal"
          : p.resource == ResourceKind::kDatabase  ? p.db
                                                   : p.db + "." + p.coll;
      out.push_back(absl::StrCat(resource, ": ", absl::StrJoin(actions, ",")));
    }
    alternatives.push_back(absl::StrJoin(out, " | "));
  }
  return absl::StrJoin(alternatives, " OR ");
}

// Each command's checkAuthForOperation / doCheckAuthorization in
// src/mongo/db/commands/ (authorization.h lists them).
// auth_helpers.cpp checkAuthForCreateOrModifyView: createCollection (or
// collMod) on the view, find on viewOn and on what its pipeline reads.
TEST(RequiredPrivilegesTest, ViewsNeedFindOnWhatTheyRead) {
  EXPECT_EQ(Needed(R"({"create": "v", "viewOn": "c", "pipeline": [
                       {"$lookup": {"from": "o", "localField": "a",
                                    "foreignField": "b", "as": "x"}}]})"),
            "test.v: createCollection | test.c: find | test.o: find");
  EXPECT_EQ(Needed(R"({"collMod": "v", "viewOn": "c",
                       "pipeline": [{"$unionWith": "u"}]})"),
            "test.v: collMod | test.c: find | test.u: find");
}

TEST(RequiredPrivilegesTest, FollowsEachCommandsCheck) {
  EXPECT_EQ(Needed(R"({"ping": 1})"), "none");
  EXPECT_EQ(Needed(R"({"getMore": 1, "collection": "c"})"), "authenticated");
  EXPECT_EQ(Needed(R"({"find": "c"})"), "test.c: find");
  EXPECT_EQ(Needed(R"({"update": "c", "updates": [{"q": {}, "u": {},
                       "upsert": true}], "bypassDocumentValidation": true})"),
            "test.c: update,insert,bypassDocumentValidation");
  EXPECT_EQ(Needed(R"({"delete": "c", "deletes": []})"), "test.c: remove");
  EXPECT_EQ(Needed(R"({"findAndModify": "c", "remove": true})"),
            "test.c: find,remove");
  EXPECT_EQ(Needed(R"({"findAndModify": "c", "update": {}, "upsert": true})"),
            "test.c: find,update,insert");
  EXPECT_EQ(Needed(R"({"create": "c"})"),
            "test.c: createCollection OR test.c: insert");
  EXPECT_EQ(Needed(R"({"profile": -1})"),
            "test: enableProfiler OR test.system.profile: find");
  EXPECT_EQ(Needed(R"({"profile": 1})"), "test: enableProfiler");
  EXPECT_EQ(Needed(R"({"explain": {"count": "c"}})"), "test.c: find");
  EXPECT_EQ(Needed(R"({"serverStatus": 1})"), "cluster: serverStatus");
  EXPECT_EQ(Needed(R"({"fsyncUnlock": 1})"), "cluster: unlock");
  EXPECT_EQ(Needed(R"({"createUser": "u", "pwd": "p",
                       "roles": ["read", {"role": "read", "db": "other"}]})"),
            "test: createUser | test: grantRole | other: grantRole");
  EXPECT_EQ(Needed(R"({"updateUser": "u", "pwd": "p", "roles": []})"),
            "test: changePassword | anyNormal: revokeRole");
  EXPECT_EQ(Needed(R"({"bulkWrite": 1, "ops": [{"insert": 0, "document": {}},
                       {"update": 1, "filter": {}, "updateMods": {},
                       "upsert": true}, {"delete": 0, "filter": {}}],
                       "nsInfo": [{"ns": "a.x"}, {"ns": "b.y"}]})"),
            "a.x: insert,remove | b.y: update,insert");
  EXPECT_EQ(Needed(R"({"createBackup": 1})"),
            "anyNormal: find | admin.system.users: find");
  // Fail closed: what no entry maps needs what only root holds.
  EXPECT_EQ(Needed(R"({"someNewCommand": 1})"), "cluster: useTenant");
}

// The roles a user is created with, one user per role: the database ones
// on roles_commands_1, the admin-only ones on admin.
const char* const kDbRoles[] = {"read", "readWrite", "dbAdmin", "dbOwner",
                                "userAdmin"};
const char* const kAdminRoles[] = {"clusterMonitor",
                                   "clusterManager",
                                   "clusterAdmin",
                                   "hostManager",
                                   "backup",
                                   "restore",
                                   "readAnyDatabase",
                                   "readWriteAnyDatabase",
                                   "dbAdminAnyDatabase",
                                   "userAdminAnyDatabase",
                                   "root"};

struct Case {
  const char* db;
  const char* command;  // JSON
  // The roles of kDbRoles / kAdminRoles that may run it (commands_lib.js);
  // every other one gets 13 Unauthorized.
  std::set<std::string> allowed;
};

const std::vector<Case>& Cases() {
  static const auto* cases = new std::vector<Case>{
      // "find": roles_read.
      {"roles_commands_1",
       R"({"find": "foo"})",
       {"read", "readWrite", "dbOwner", "readAnyDatabase",
        "readWriteAnyDatabase", "backup", "root"}},
      // "count", "distinct": roles_read.
      {"roles_commands_1",
       R"({"count": "foo"})",
       {"read", "readWrite", "dbOwner", "readAnyDatabase",
        "readWriteAnyDatabase", "backup", "root"}},
      // "insert": roles_write.
      {"roles_commands_1",
       R"({"insert": "foo", "documents": [{}]})",
       {"readWrite", "dbOwner", "readWriteAnyDatabase", "restore", "root"}},
      // "update": readWrite, readWriteAnyDatabase, dbOwner, root.
      {"roles_commands_1",
       R"({"update": "foo", "updates": [{"q": {}, "u": {"$set": {"a": 1}}}]})",
       {"readWrite", "dbOwner", "readWriteAnyDatabase", "root"}},
      // An upsert needs insert too: restore has insert, not update.
      {"roles_commands_1",
       R"({"update": "foo", "updates": [{"q": {}, "u": {"$set": {"a": 1}},
           "upsert": true}]})",
       {"readWrite", "dbOwner", "readWriteAnyDatabase", "root"}},
      // "delete": readWrite, readWriteAnyDatabase, dbOwner, root.
      {"roles_commands_1",
       R"({"delete": "foo", "deletes": [{"q": {}, "limit": 0}]})",
       {"readWrite", "dbOwner", "readWriteAnyDatabase", "root"}},
      // "findAndModify": readWrite, readWriteAnyDatabase, dbOwner, root.
      {"roles_commands_1",
       R"({"findAndModify": "foo", "query": {}, "update": {"$set": {"b": 1}}})",
       {"readWrite", "dbOwner", "readWriteAnyDatabase", "root"}},
      // "createIndexes": roles_writeDbAdmin + restore.
      {"roles_commands_1",
       R"({"createIndexes": "foo", "indexes": [{"key": {"a": 1},
           "name": "a_1"}]})",
       {"readWrite", "dbAdmin", "dbOwner", "readWriteAnyDatabase",
        "dbAdminAnyDatabase", "restore", "root"}},
      // "collMod": roles_dbAdmin + restore.
      {"roles_commands_1",
       R"({"collMod": "foo"})",
       {"dbAdmin", "dbOwner", "dbAdminAnyDatabase", "restore", "root"}},
      // "validate": roles_dbAdmin.
      {"roles_commands_1",
       R"({"validate": "foo"})",
       {"dbAdmin", "dbOwner", "dbAdminAnyDatabase", "root"}},
      // "collStats": roles_read + the dbAdmins, clusterMonitor,
      // clusterAdmin.
      {"roles_commands_1",
       R"({"collStats": "foo"})",
       {"read", "readWrite", "dbAdmin", "dbOwner", "readAnyDatabase",
        "readWriteAnyDatabase", "dbAdminAnyDatabase", "clusterMonitor",
        "clusterAdmin", "backup", "root"}},
      // "dbStats".
      {"roles_commands_1",
       R"({"dbStats": 1})",
       {"read", "readWrite", "dbAdmin", "dbOwner", "readAnyDatabase",
        "readWriteAnyDatabase", "dbAdminAnyDatabase", "clusterMonitor",
        "clusterAdmin", "root"}},
      // "listCollections": roles_readDbAdmin (+ backup, restore: their
      // listCollections on anyResource).
      {"roles_commands_1",
       R"({"listCollections": 1})",
       {"read", "readWrite", "dbAdmin", "dbOwner", "readAnyDatabase",
        "readWriteAnyDatabase", "dbAdminAnyDatabase", "backup", "restore",
        "root"}},
      // "profile" {profile: 0}: roles_dbAdmin.
      {"roles_commands_1",
       R"({"profile": 0})",
       {"dbAdmin", "dbOwner", "dbAdminAnyDatabase", "root"}},
      // "profileGetLevel" {profile: -1}: find on system.profile is enough
      // (clusterMonitor's and backup's on every database).
      {"roles_commands_1",
       R"({"profile": -1})",
       {"dbAdmin", "dbOwner", "dbAdminAnyDatabase", "clusterMonitor",
        "clusterAdmin", "backup", "root"}},
      // "renameCollection_sameDb": roles_writeDbAdmin.
      {"admin",
       R"({"renameCollection": "roles_commands_1.foo",
           "to": "roles_commands_1.bar"})",
       {"readWrite", "dbAdmin", "dbOwner", "readWriteAnyDatabase",
        "dbAdminAnyDatabase", "root"}},
      // "drop": roles_writeDbAdmin + restore.
      {"roles_commands_1",
       R"({"drop": "bar"})",
       {"readWrite", "dbAdmin", "dbOwner", "readWriteAnyDatabase",
        "dbAdminAnyDatabase", "restore", "root"}},
      // "createUser": roles_userAdmin.
      {"roles_commands_1",
       R"({"createUser": "someone", "pwd": "p", "roles": []})",
       {"userAdmin", "dbOwner", "userAdminAnyDatabase", "restore", "root"}},
      // "dropDatabase": the dbAdmins, dbOwner, clusterAdmin, root.
      {"roles_commands_1",
       R"({"dropDatabase": 1})",
       {"dbAdmin", "dbOwner", "dbAdminAnyDatabase", "clusterAdmin", "root"}},
      // "serverStatus": roles_monitoring, and backup (builtin_roles.yml
      // grants it serverStatus on the cluster).
      {"admin",
       R"({"serverStatus": 1})",
       {"clusterMonitor", "clusterAdmin", "backup", "root"}},
      // "getLog", "hostInfo": roles_monitoring.
      {"admin",
       R"({"getLog": "*"})",
       {"clusterMonitor", "clusterAdmin", "root"}},
      {"admin",
       R"({"hostInfo": 1})",
       {"clusterMonitor", "clusterAdmin", "root"}},
      // "currentOp": roles_monitoring (inprog).
      {"admin",
       R"({"currentOp": 1})",
       {"clusterMonitor", "clusterAdmin", "root"}},
      // "setParameter": roles_hostManager.
      {"admin",
       R"({"setParameter": 1, "quiet": 1})",
       {"hostManager", "clusterAdmin", "root"}},
      // "getParameter": roles_monitoring, restore, backup
      // (__queryableBackup).
      {"admin",
       R"({"getParameter": 1, "quiet": 1})",
       {"clusterMonitor", "clusterAdmin", "backup", "restore", "root"}},
      // "listDatabases": roles_all.
      {"admin",
       R"({"listDatabases": 1})",
       {"read", "readWrite", "dbAdmin", "dbOwner", "userAdmin",
        "clusterMonitor", "clusterManager", "clusterAdmin", "hostManager",
        "backup", "restore", "readAnyDatabase", "readWriteAnyDatabase",
        "dbAdminAnyDatabase", "userAdminAnyDatabase", "root"}},
  };
  return *cases;
}

TEST_F(AuthTest, BuiltinRolesEnforceMongoDbPrivileges) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  std::map<std::string, std::unique_ptr<Connection>> users;
  auto add = [&](const std::string& role, const std::string& db) {
    ASSERT_TRUE(Ok(
        Run(db, absl::StrCat(R"({"createUser": "u_)", role,
                             R"(", "pwd": "p", "roles": [")", role, R"("]})"))))
        << role;
    users[role] = runner_->NewConnection();
    ASSERT_TRUE(Ok(Login(users[role].get(), "u_" + role, "p", db))) << role;
  };
  for (const char* r : kDbRoles) add(r, "roles_commands_1");
  for (const char* r : kAdminRoles) add(r, "admin");
  for (const Case& c : Cases()) {
    ASSERT_TRUE(Ok(Run("roles_commands_1",
                       R"({"insert": "foo", "documents": [{"a": 0}]})")));
    for (const auto& [role, conn] : users) {
      Value r = Run(c.db, c.command, conn.get());
      const bool allowed = c.allowed.count(role) > 0;
      if (allowed) {
        EXPECT_NE(Code(r), 13) << role << " " << c.command << " " << ToJson(r);
      } else {
        EXPECT_EQ(Code(r), 13) << role << " " << c.command << " " << ToJson(r);
        // renameCollection names the database refused (command_runner.cc).
        const std::string msg_db =
            absl::StartsWith(c.command, R"({"renameCollection")")
                ? "roles_commands_1"
                : c.db;
        EXPECT_TRUE(absl::StartsWith(Errmsg(r),
                                     absl::StrCat("not authorized on ", msg_db,
                                                  " to execute command {")))
            << Errmsg(r);
      }
    }
  }
}

TEST_F(AuthTest, EveryBuiltinRoleIsGrantableWhereItExists) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  for (const char* r : kDbRoles) {
    EXPECT_TRUE(
        Ok(Run("roles_commands_1",
               absl::StrCat(R"({"createUser": "g_)", r,
                            R"(", "pwd": "p", "roles": [")", r, R"("]})"))))
        << r;
  }
  for (const char* r : kAdminRoles) {
    EXPECT_TRUE(Ok(Run(
        "admin", absl::StrCat(R"({"createUser": "g_)", r,
                              R"(", "pwd": "p", "roles": [")", r, R"("]})"))))
        << r;
    // Admin-only: not a role of another database.
    Value refused =
        Run("roles_commands_1",
            absl::StrCat(R"({"createUser": "h_)", r,
                         R"(", "pwd": "p", "roles": [")", r, R"("]})"));
    EXPECT_EQ(Code(refused), 31) << r;
    EXPECT_EQ(Errmsg(refused),
              absl::StrCat("Could not find role: ", r, "@roles_commands_1"));
  }
  EXPECT_TRUE(Ok(Run("roles_commands_1", R"({"grantRolesToUser": "g_read",
      "roles": [{"role": "hostManager", "db": "admin"}]})")));
}

// listCollections' authorizedCollections with nameOnly: any privilege in
// the database admits the command, which lists the collections the user
// holds a privilege on (list_collections.cpp; the manual's listCollections
// page). Without them it needs the listCollections action.
TEST_F(AuthTest, ListCollectionsAuthorizedCollections) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  ASSERT_TRUE(
      Ok(Run("roles_commands_1", R"({"insert": "foo", "documents": [{}]})")));
  ASSERT_TRUE(
      Ok(Run("roles_commands_2", R"({"insert": "bar", "documents": [{}]})")));
  ASSERT_TRUE(Ok(Run("roles_commands_1", R"({"createUser": "ua", "pwd": "p",
      "roles": ["userAdmin"]})")));
  auto ua = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(ua.get(), "ua", "p", "roles_commands_1")));
  EXPECT_EQ(
      Code(Run("roles_commands_1", R"({"listCollections": 1})", ua.get())), 13);
  Value r = Run("roles_commands_1", R"({"listCollections": 1,
      "authorizedCollections": true, "nameOnly": true})",
                ua.get());
  ASSERT_TRUE(Ok(r)) << ToJson(r);
  EXPECT_EQ(ToJson(*r.Get("cursor")->Get("firstBatch")),
            R"([{"name":"foo","type":"collection"}])");
  EXPECT_EQ(Code(Run("roles_commands_2", R"({"listCollections": 1,
      "authorizedCollections": true, "nameOnly": true})",
                     ua.get())),
            13);
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
