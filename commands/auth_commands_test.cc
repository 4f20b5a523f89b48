// Access control through the command layer: the localhost exception,
// refusal of unauthenticated commands, SCRAM-SHA-256 logins driven by a
// client written here from RFC 5802, roles, and user storage that never
// holds a password. Expected answers: src/mongo/db/commands.cpp ("Command
// find requires authentication", 13), auth/sasl_commands.cpp (18
// "Authentication failed."), commands/user_management_commands.cpp
// (51003, 11), auth/authorization_session_impl.cpp (localhost exception).
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/sha256.h"
#include "commands/auth_test_util.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

TEST_F(AuthTest, UnauthenticatedCommandsAreRefused) {
  Value r = Run("test", R"({"find": "c"})");
  EXPECT_EQ(Code(r), 13);
  EXPECT_EQ(Errmsg(r), "Command find requires authentication");
  EXPECT_EQ(r.Get("codeName")->string_value(), "Unauthorized");
  EXPECT_EQ(Code(Run("test", R"({"insert": "c", "documents": [{}]})")), 13);
  EXPECT_EQ(Code(Run("admin", R"({"listDatabases": 1})")), 13);
  // The handshake and auth commands run.
  EXPECT_TRUE(Ok(Run("admin", R"({"hello": 1})")));
  EXPECT_TRUE(Ok(Run("admin", R"({"isMaster": 1})")));
  EXPECT_TRUE(Ok(Run("admin", R"({"ping": 1})")));
  EXPECT_TRUE(Ok(Run("admin", R"({"buildInfo": 1})")));
  EXPECT_TRUE(Ok(Run("admin", R"({"connectionStatus": 1})")));
  // Unknown commands are still 59 first.
  EXPECT_EQ(Code(Run("test", R"({"nosuch": 1})")), 59);
}

TEST_F(AuthTest, LocalhostExceptionCreatesOnlyTheFirstUserInAdmin) {
  // Not from a remote peer.
  auto remote = runner_->NewConnection();
  remote->set_local(false);
  EXPECT_EQ(
      Code(Run("admin", R"({"createUser": "a", "pwd": "p", "roles": ["root"]})",
               remote.get())),
      13);
  // Not in another database.
  EXPECT_EQ(
      Code(Run("test", R"({"createUser": "a", "pwd": "p", "roles": []})")), 13);
  CreateAdmin();
  // Closed once a user exists.
  Value r = Run("admin", R"({"createUser": "b", "pwd": "p", "roles": []})");
  EXPECT_EQ(Code(r), 13);
  EXPECT_EQ(Errmsg(r), "Command createUser requires authentication");
}

TEST_F(AuthTest, ScramLoginThenCommandsRun) {
  CreateAdmin();
  Value bad = Login(conn_.get(), "root", "wrong");
  EXPECT_EQ(Code(bad), 18);
  EXPECT_EQ(Errmsg(bad), "Authentication failed.");
  EXPECT_EQ(bad.Get("codeName")->string_value(), "AuthenticationFailed");
  EXPECT_EQ(Code(Run("test", R"({"find": "c"})")), 13);
  EXPECT_EQ(Code(Login(conn_.get(), "nobody", "rootpw")), 18);
  // The user lives in admin: authenticating against test fails.
  EXPECT_EQ(Code(Login(conn_.get(), "root", "rootpw", "test")), 18);

  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  EXPECT_TRUE(Ok(Run("test", R"({"insert": "c", "documents": [{"_id": 1}]})")));
  EXPECT_EQ(
      RunJson("admin", R"({"connectionStatus": 1})"),
      R"({"authInfo":{"authenticatedUsers":[{"user":"root","db":"admin"}],)"
      R"("authenticatedUserRoles":[{"role":"root","db":"admin"}]},"ok":1.0})");
  EXPECT_TRUE(Ok(Run("admin", R"({"logout": 1})")));
  EXPECT_EQ(Code(Run("test", R"({"find": "c"})")), 13);
  // saslContinue without a conversation: 17 ProtocolError.
  EXPECT_EQ(Code(Run("admin", R"({"saslContinue": 1, "conversationId": 1,
                                  "payload": ""})")),
            17);
  EXPECT_EQ(Code(Run("admin", R"({"saslStart": 1, "mechanism": "PLAIN",
                                  "payload": ""})")),
            334);
}

TEST_F(AuthTest, RolesSeparateReadWriteAndUserAdmin) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "reader", "pwd": "p",
      "roles": [{"role": "read", "db": "test"}]})")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "writer", "pwd": "p",
      "roles": [{"role": "readWrite", "db": "test"}]})")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "ua", "pwd": "p",
      "roles": ["userAdminAnyDatabase"]})")));
  ASSERT_TRUE(Ok(Run("test", R"({"createUser": "owner", "pwd": "p",
      "roles": ["dbOwner"]})")));
  // Every built-in role exists (builtin_roles.yml); the admin-only ones
  // on admin only, and no role that is not built in.
  EXPECT_TRUE(Ok(Run("admin", R"({"createUser": "monitor", "pwd": "p",
      "roles": ["clusterMonitor"]})")));
  EXPECT_EQ(Code(Run("test", R"({"createUser": "x", "pwd": "p",
      "roles": ["clusterMonitor"]})")),
            31);
  EXPECT_EQ(Code(Run("admin", R"({"createUser": "x", "pwd": "p",
      "roles": ["__system"]})")),
            31);
  EXPECT_EQ(Errmsg(Run("test", R"({"createUser": "x", "pwd": "p",
      "roles": ["root"]})")),
            "Could not find role: root@test");
  ASSERT_TRUE(Ok(Run("test", R"({"insert": "c", "documents": [{"_id": 1}]})")));

  auto reader = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(reader.get(), "reader", "p")));
  EXPECT_TRUE(Ok(Run("test", R"({"find": "c"})", reader.get())));
  Value r = Run("test", R"({"insert": "c", "documents": [{}]})", reader.get());
  EXPECT_EQ(Code(r), 13);
  EXPECT_TRUE(absl::StartsWith(
      Errmsg(r), "not authorized on test to execute command { insert: \"c\""))
      << Errmsg(r);
  EXPECT_EQ(Code(Run("other", R"({"find": "c"})", reader.get())), 13);
  EXPECT_EQ(Code(Run("admin", R"({"serverStatus": 1})", reader.get())), 13);

  auto writer = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(writer.get(), "writer", "p")));
  EXPECT_TRUE(
      Ok(Run("test", R"({"insert": "c", "documents": [{}]})", writer.get())));
  EXPECT_TRUE(Ok(Run("test", R"({"createIndexes": "c",
      "indexes": [{"key": {"a": 1}, "name": "a_1"}]})",
                     writer.get())));
  EXPECT_EQ(Code(Run("test", R"({"dropDatabase": 1})", writer.get())), 13);
  EXPECT_EQ(Code(Run("test", R"({"createUser": "y", "pwd": "p", "roles": []})",
                     writer.get())),
            13);

  auto ua = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(ua.get(), "ua", "p")));
  EXPECT_TRUE(Ok(Run("test", R"({"createUser": "y", "pwd": "p", "roles": []})",
                     ua.get())));
  EXPECT_EQ(Code(Run("test", R"({"find": "c"})", ua.get())), 13);

  auto owner = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(owner.get(), "owner", "p", "test")));
  EXPECT_TRUE(Ok(Run("test", R"({"find": "c"})", owner.get())));
  EXPECT_TRUE(Ok(Run("test", R"({"dropUser": "y"})", owner.get())));
  EXPECT_EQ(Code(Run("other", R"({"find": "c"})", owner.get())), 13);
  EXPECT_TRUE(Ok(Run("test", R"({"dropDatabase": 1})", owner.get())));
}

// bulkWrite runs against admin and needs the write role on every database
// its nsInfo names (bulk_write_common.cpp getPrivileges).
TEST_F(AuthTest, BulkWriteNeedsWriteOnEachNamespace) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "writer", "pwd": "p",
      "roles": [{"role": "readWrite", "db": "test"}]})")));
  auto writer = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(writer.get(), "writer", "p")));
  EXPECT_TRUE(Ok(Run("admin", R"({"bulkWrite": 1, "ops": [{"insert": 0,
      "document": {"_id": 1}}], "nsInfo": [{"ns": "test.c"}]})",
                     writer.get())));
  Value r = Run("admin", R"({"bulkWrite": 1, "ops": [{"insert": 0,
      "document": {"_id": 2}}, {"insert": 1, "document": {"_id": 2}}],
      "nsInfo": [{"ns": "test.c"}, {"ns": "other.c"}]})",
                writer.get());
  EXPECT_EQ(Code(r), 13);
  EXPECT_TRUE(absl::StartsWith(Errmsg(r), "not authorized on other"))
      << Errmsg(r);
  EXPECT_EQ(ToJson(Run("test", R"({"count": "c"})", writer.get()),
                   JsonFormat::kStorage),
            R"({"n":1,"ok":1.0})");
}

TEST_F(AuthTest, UserManagement) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  Value dup =
      Run("admin", R"({"createUser": "root", "pwd": "x", "roles": []})");
  EXPECT_EQ(Code(dup), 51003);
  EXPECT_EQ(Errmsg(dup), "User \"root@admin\" already exists");
  EXPECT_EQ(Code(Run("admin", R"({"createUser": "n", "roles": []})")), 2);
  EXPECT_EQ(Code(Run("admin", R"({"createUser": "n", "pwd": ""})")), 40414);
  EXPECT_EQ(Code(Run("admin", R"({"createUser": "n", "pwd": "caf\u00e9",
                                  "roles": []})")),
            2);
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "ann", "pwd": "old",
      "roles": [{"role": "readWrite", "db": "test"}],
      "customData": {"team": "x"}})")));
  EXPECT_EQ(
      RunJson("admin", R"({"usersInfo": "ann"})"),
      absl::StrCat(
          R"({"users":[{"_id":"admin.ann","userId":)", UserIdJson("ann"),
          R"(,"user":"ann","db":"admin",)"
          R"("customData":{"team":"x"},"roles":[{"role":"readWrite","db":"test"}],)"
          R"("mechanisms":["SCRAM-SHA-256"]}],"ok":1.0})"));
  EXPECT_EQ(RunJson("admin", R"({"usersInfo": {"user": "zz", "db": "admin"}})"),
            R"({"users":[],"ok":1.0})");

  // updateUser changes the password: the old one fails, the new one works.
  ASSERT_TRUE(Ok(Run("admin", R"({"updateUser": "ann", "pwd": "new"})")));
  auto c = runner_->NewConnection();
  EXPECT_EQ(Code(Login(c.get(), "ann", "old")), 18);
  EXPECT_TRUE(Ok(Login(c.get(), "ann", "new")));
  // A user sees itself, not others.
  EXPECT_TRUE(Ok(Run("admin", R"({"usersInfo": "ann"})", c.get())));
  EXPECT_EQ(Code(Run("admin", R"({"usersInfo": "root"})", c.get())), 13);
  Value nf = Run("admin", R"({"updateUser": "zz", "pwd": "x"})");
  EXPECT_EQ(Code(nf), 11);
  EXPECT_EQ(Errmsg(nf), "User 'zz@admin' not found");
  EXPECT_EQ(Code(Run("admin", R"({"updateUser": "ann"})")), 2);

  ASSERT_TRUE(Ok(Run("admin", R"({"dropUser": "ann"})")));
  EXPECT_EQ(Code(Run("admin", R"({"dropUser": "ann"})")), 11);
  // Its sessions lose their rights; new logins fail.
  EXPECT_EQ(Code(Run("test", R"({"find": "c"})", c.get())), 13);
  EXPECT_EQ(Code(Login(runner_->NewConnection().get(), "ann", "new")), 18);
}

// dropAllUsersFromDatabase (user_management_commands.cpp): the users of
// the command's database go, {n: 2}; another database's stay
// (jstests/core/administrative/profile/profile3.js calls
// db.dropAllUsers()).
TEST_F(AuthTest, DropAllUsersFromDatabase) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  for (const char* u : {"a", "b"}) {
    ASSERT_TRUE(
        Ok(Run("test", absl::StrCat(R"({"createUser": ")", u,
                                    R"(", "pwd": "p", "roles": []})"))));
  }
  EXPECT_EQ(RunJson("test", R"({"dropAllUsersFromDatabase": 1})"),
            R"({"n":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"usersInfo": 1})"), R"({"users":[],"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"dropAllUsersFromDatabase": 1})"),
            R"({"n":0,"ok":1.0})");
  EXPECT_TRUE(Ok(Run("admin", R"({"usersInfo": "root"})")));
}

TEST_F(AuthTest, HelloSaslSupportedMechsAndSpeculativeAuthenticate) {
  CreateAdmin();
  Value h = Run("admin", R"({"hello": 1, "saslSupportedMechs": "admin.root"})");
  EXPECT_EQ(ToJson(*h.Get("saslSupportedMechs")), R"(["SCRAM-SHA-256"])");
  h = Run("admin", R"({"hello": 1, "saslSupportedMechs": "admin.nobody"})");
  EXPECT_EQ(h.Get("saslSupportedMechs"), nullptr);
  Value spec = Value::MakeObject(
      {{"hello", Value::Int32(1)},
       {"speculativeAuthenticate",
        Value::MakeObject(
            {{"saslStart", Value::Int32(1)},
             {"mechanism", Value::String("SCRAM-SHA-256")},
             {"payload", Bin("n,,n=root,r=abcdef")},
             {"options",
              Value::MakeObject({{"skipEmptyExchange", Value::Bool(true)}})},
             {"db", Value::String("admin")}})}});
  h = RunCmd(conn_.get(), "admin", spec);
  const Value* sa = h.Get("speculativeAuthenticate");
  ASSERT_NE(sa, nullptr);
  EXPECT_EQ(sa->Get("conversationId")->AsDouble(), 1);
  EXPECT_FALSE(sa->Get("done")->bool_value());
  EXPECT_TRUE(
      absl::StartsWith(sa->Get("payload")->binary_value().data, "r=abcdef"));
  // The conversation hello started goes on with saslContinue (the
  // drivers' speculative authentication).
  EXPECT_EQ(Code(Run("test", R"({"find": "c"})")), 13);
  ASSERT_TRUE(
      Ok(Finish(conn_.get(), "admin", "n=root,r=abcdef", *sa, "rootpw")));
  EXPECT_TRUE(Ok(Run("test", R"({"find": "c"})")));
}

// The password never reaches the disk: every file under the root (the
// admin database's LevelDB log, tables, manifest) is searched for it.
TEST_F(AuthTest, NoClearPasswordOnDisk) {
  const std::string pwd = "Zq8-unlikely-Password-71";
  ASSERT_TRUE(Ok(Run("admin", absl::StrCat(R"({"createUser": "root", "pwd": ")",
                                           pwd, R"(", "roles": ["root"]})"))));
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", pwd)));
  ASSERT_TRUE(Ok(Run("admin", absl::StrCat(R"({"updateUser": "root", "pwd": ")",
                                           pwd, R"(2"})"))));
  conn_.reset();
  ASSERT_TRUE(runner_->Close().ok());
  runner_.reset();
  int files = 0;
  bool saw_record = false;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root_)) {
    if (!e.is_regular_file()) continue;
    ++files;
    std::ifstream in(e.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes.find(pwd), std::string::npos) << e.path();
    saw_record = saw_record || bytes.find("storedKey") != std::string::npos;
  }
  EXPECT_GT(files, 0);
  EXPECT_TRUE(saw_record);
  // The user survives a restart.
  Open();
  EXPECT_EQ(Code(Login(conn_.get(), "root", pwd)), 18);
  EXPECT_TRUE(Ok(Login(conn_.get(), "root", pwd + "2")));
}

// aggregate is authorized by its stages (reliability-3.md N2: a read user
// emptied and rewrote collections with $out/$merge). Expected answers:
// src/mongo/db/auth/authorization_checks.cpp getPrivilegesForAggregate
// (find on the collection, then each stage's), document_source_out.h ($out:
// insert + remove on the target), merge_processor.cpp ($merge: insert +
// update for whenNotMatched insert), and commands.cpp CommandInvocation::
// checkAuthorization (13 "not authorized on <db> to execute command ...").
TEST_F(AuthTest, AggregateStagesNeedTheirPrivileges) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "reader", "pwd": "p",
      "roles": [{"role": "read", "db": "test"}]})")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "writer", "pwd": "p",
      "roles": [{"role": "readWrite", "db": "test"}]})")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "mover", "pwd": "p",
      "roles": [{"role": "read", "db": "test"},
                {"role": "readWrite", "db": "archive"}]})")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "archivist", "pwd": "p",
      "roles": [{"role": "readWrite", "db": "archive"}]})")));
  ASSERT_TRUE(Ok(Run("test", R"({"insert": "c", "documents": [{"_id": 1},
      {"_id": 2}, {"_id": 3}]})")));
  ASSERT_TRUE(Ok(Run("test", R"({"insert": "secret", "documents": [
      {"_id": 1, "v": "s"}, {"_id": 2, "v": "s"}]})")));
  const std::string secret = RunJson("test", R"({"find": "secret"})");

  auto reader = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(reader.get(), "reader", "p")));
  auto refused = [&](Connection* c, const std::string& db,
                     const std::string& cmd) {
    Value r = Run(db, cmd, c);
    EXPECT_EQ(Code(r), 13) << cmd << " " << ToJson(r);
    EXPECT_EQ(
        r.Get("codeName") == nullptr ? "" : r.Get("codeName")->string_value(),
        "Unauthorized");
    EXPECT_TRUE(absl::StartsWith(
        Errmsg(r), absl::StrCat("not authorized on ", db,
                                " to execute command { aggregate: ")))
        << Errmsg(r);
  };
  // Reads, $lookup of the same database and $facet are a read's.
  EXPECT_TRUE(Ok(Run("test", R"({"aggregate": "c", "pipeline": [
      {"$lookup": {"from": "secret", "localField": "_id",
                   "foreignField": "_id", "as": "s"}},
      {"$facet": {"n": [{"$count": "n"}]}}], "cursor": {}})",
                     reader.get())));
  // $out creates, replaces or empties; $merge updates: not for a reader.
  refused(reader.get(), "test",
          R"({"aggregate": "c", "pipeline": [{"$out": "ro_out"}],
              "cursor": {}})");
  refused(reader.get(), "test",
          R"({"aggregate": "c", "pipeline": [{"$project": {"v": "x"}},
              {"$merge": {"into": "secret", "whenMatched": "merge"}}],
              "cursor": {}})");
  refused(reader.get(), "test",
          R"({"aggregate": "c", "pipeline": [{"$match": {"_id": -1}},
              {"$out": "secret"}], "cursor": {}})");
  refused(reader.get(), "test",
          R"({"aggregate": "c", "pipeline": [{"$merge": {"into": "secret",
              "whenMatched": "replace", "whenNotMatched": "discard"}}],
              "cursor": {}})");
  // explain: true is authorized as the pipeline it explains.
  refused(reader.get(), "test",
          R"({"aggregate": "c", "pipeline": [{"$out": "ro_out"}],
              "explain": true})");
  EXPECT_EQ(RunJson("test", R"({"find": "secret"})"), secret);
  EXPECT_EQ(RunJson("test", R"({"listCollections": 1, "nameOnly": true,
                               "filter": {"name": "ro_out"}})"),
            R"({"cursor":{"id":{"$numberLong":"0"},"ns":"test.$cmd.)"
            R"(listCollections","firstBatch":[]},"ok":1.0})");

  // readWrite writes its own database, not another.
  auto writer = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(writer.get(), "writer", "p")));
  EXPECT_TRUE(Ok(Run("test", R"({"aggregate": "c", "pipeline": [
      {"$out": "w_out"}], "cursor": {}})",
                     writer.get())));
  EXPECT_EQ(RunJson("test", R"({"count": "w_out"})"), R"({"n":3,"ok":1.0})");
  refused(writer.get(), "test",
          R"({"aggregate": "c", "pipeline": [{"$out": {"db": "archive",
              "coll": "x"}}], "cursor": {}})");
  refused(writer.get(), "test",
          R"({"aggregate": "c", "pipeline": [{"$merge": {"into": {"db":
              "archive", "coll": "x"}}}], "cursor": {}})");
  // bypassDocumentValidation is dbAdmin's action, not readWrite's
  // (builtin_roles.yml).
  refused(writer.get(), "test",
          R"({"aggregate": "c", "pipeline": [{"$out": "w_out"}],
              "bypassDocumentValidation": true, "cursor": {}})");

  // Read on test, readWrite on archive: $out from one to the other.
  auto mover = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(mover.get(), "mover", "p")));
  EXPECT_TRUE(Ok(Run("test", R"({"aggregate": "c", "pipeline": [
      {"$out": {"db": "archive", "coll": "c"}}], "cursor": {}})",
                     mover.get())));
  EXPECT_EQ(RunJson("archive", R"({"count": "c"})"), R"({"n":3,"ok":1.0})");
  // Writing archive is not reading test.
  auto archivist = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(archivist.get(), "archivist", "p")));
  refused(archivist.get(), "test",
          R"({"aggregate": "c", "pipeline": [{"$out": {"db": "archive",
              "coll": "c2"}}], "cursor": {}})");
}

// A cursor belongs to the user that opened it (reliability-3.md N8).
// getMore of another user's cursor: 13 "cursor id <id> was not created by
// the authenticated user" (src/mongo/db/commands/getmore_cmd.cpp
// validateAuthorization); killCursors of it fails the command with
// commands.cpp's message (killcursors_common.h doCheckAuthorization,
// authorization_checks.cpp checkAuthForKillCursors).
TEST_F(AuthTest, CursorsBelongToTheUserThatOpenedThem) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  for (const char* name : {"alice", "bob"}) {
    ASSERT_TRUE(Ok(Run(
        "admin", absl::StrCat(R"({"createUser": ")", name,
                              R"(", "pwd": "p", "roles": [)",
                              R"({"role": "read", "db": )", R"("test"}]})"))));
  }
  ASSERT_TRUE(Ok(Run("test", R"({"insert": "c", "documents": [{"_id": 1},
      {"_id": 2}, {"_id": 3}, {"_id": 4}, {"_id": 5}]})")));
  auto alice = runner_->NewConnection();
  auto bob = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(alice.get(), "alice", "p")));
  ASSERT_TRUE(Ok(Login(bob.get(), "bob", "p")));
  Value first = Run("test", R"({"find": "c", "sort": {"_id": 1},
                                "batchSize": 2})",
                    alice.get());
  const int64_t id = first.Get("cursor")->Get("id")->int64_value();
  ASSERT_NE(id, 0);
  const std::string get_more = absl::StrCat(R"({"getMore": {"$numberLong": ")",
                                            id, R"("}, "collection": "c",
          "batchSize": 2})");
  Value r = Run("test", get_more, bob.get());
  EXPECT_EQ(Code(r), 13);
  EXPECT_EQ(Errmsg(r), absl::StrCat("cursor id ", id,
                                    " was not created by the authenticated "
                                    "user"));
  const std::string kill = absl::StrCat(
      R"({"killCursors": "c", "cursors": [{"$numberLong": ")", id, R"("}]})");
  r = Run("test", kill, bob.get());
  EXPECT_EQ(Code(r), 13);
  EXPECT_TRUE(absl::StartsWith(
      Errmsg(r), "not authorized on test to execute command { killCursors: "))
      << Errmsg(r);
  // An id that is no cursor is reported, not refused.
  EXPECT_EQ(
      RunJson("test", R"({"killCursors": "c", "cursors": [
                     {"$numberLong": "12345"}]})",
              bob.get()),
      R"({"cursorsKilled":[],"cursorsNotFound":[{"$numberLong":"12345"}],)"
      R"("cursorsAlive":[],"cursorsUnknown":[],"ok":1.0})");
  // The cursor is untouched: alice reads on, from another connection too.
  EXPECT_EQ(RunJson("test", get_more, alice.get()),
            absl::StrCat(R"({"cursor":{"nextBatch":[{"_id":3},{"_id":4}],)",
                         R"("id":{"$numberLong":")", id,
                         R"("},"ns":"test.c"},"ok":1.0})"));
  // root holds killAnyCursor (hostManager, through clusterAdmin).
  EXPECT_EQ(RunJson("test", kill),
            absl::StrCat(R"({"cursorsKilled":[{"$numberLong":")", id,
                         R"("}],"cursorsNotFound":[],"cursorsAlive":[],)",
                         R"("cursorsUnknown":[],"ok":1.0})"));
}

// A cursor belongs to the logical session that opened it too (issue 28
// item 3). Under --auth a getMore from another session, or without one, is
// 13 "Cursor session id (<lsid> - <uid> -  - ) is not the same as the
// operation context's session id (...)", "none" for no session, where uid
// is the base64 SHA-256 of "user@db"
// (authorization_session_impl.cpp checkCursorSessionPrivilege, checked
// before the user: cursor_manager.cpp pinCursor; logical_session_id_
// helpers.cpp getLogicalSessionUserDigestFor). The same lsid id sent by
// another user is another session. A failed check leaves the cursor open.
TEST_F(AuthTest, CursorsBelongToTheSessionThatOpenedThem) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  for (const char* name : {"alice", "bob"}) {
    ASSERT_TRUE(Ok(Run(
        "admin", absl::StrCat(R"({"createUser": ")", name,
                              R"(", "pwd": "p", "roles": [)",
                              R"({"role": "read", "db": )", R"("test"}]})"))));
  }
  ASSERT_TRUE(Ok(Run("test", R"({"insert": "c", "documents": [{"_id": 1},
      {"_id": 2}, {"_id": 3}, {"_id": 4}, {"_id": 5}]})")));
  auto alice = runner_->NewConnection();
  auto bob = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(alice.get(), "alice", "p")));
  ASSERT_TRUE(Ok(Login(bob.get(), "bob", "p")));
  const std::string s1 =
      R"({"id": {"$binary": {"base64": "AAECAwQFBgcICQoLDA0ODw==",)"
      R"( "subType": "04"}}})";
  const std::string s2 =
      R"({"id": {"$binary": {"base64": "EREREREREREREREREREREQ==",)"
      R"( "subType": "04"}}})";
  const std::string uid_alice = absl::Base64Escape(Sha256("alice@admin"));
  const std::string uid_bob = absl::Base64Escape(Sha256("bob@admin"));
  const std::string alice_s1 =
      "00010203-0405-0607-0809-0a0b0c0d0e0f - " + uid_alice + " -  - ";
  Value first = Run("test",
                    absl::StrCat(R"({"find": "c", "sort": {"_id": 1},)",
                                 R"( "batchSize": 1, "lsid": )", s1, "}"),
                    alice.get());
  const int64_t id = first.Get("cursor")->Get("id")->int64_value();
  ASSERT_NE(id, 0);
  auto get_more = [&](const std::string& lsid) {
    return absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                        R"("}, "collection": "c", "batchSize": 1)",
                        lsid.empty() ? "" : absl::StrCat(R"(, "lsid": )", lsid),
                        "}");
  };
  auto refused = [&](Connection* c, const std::string& lsid,
                     const std::string& theirs) {
    Value r = Run("test", get_more(lsid), c);
    EXPECT_EQ(Code(r), 13) << ToJson(r);
    EXPECT_EQ(Errmsg(r),
              absl::StrCat("Cursor session id (", alice_s1,
                           ") is not the same as the operation context's "
                           "session id (",
                           theirs, ")"));
  };
  refused(alice.get(), s2,
          "11111111-1111-1111-1111-111111111111 - " + uid_alice + " -  - ");
  refused(alice.get(), "", "none");
  refused(bob.get(), s1,
          "00010203-0405-0607-0809-0a0b0c0d0e0f - " + uid_bob + " -  - ");
  // Alice in her session reads on, from another connection too.
  auto again = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(again.get(), "alice", "p")));
  EXPECT_EQ(RunJson("test", get_more(s1), again.get()),
            absl::StrCat(R"({"cursor":{"nextBatch":[{"_id":2}],)",
                         R"("id":{"$numberLong":")", id,
                         R"("},"ns":"test.c"},"ok":1.0})"));
  // A cursor opened without a session is refused to a getMore in one.
  Value plain = Run("test", R"({"find": "c", "batchSize": 1})", alice.get());
  const int64_t id2 = plain.Get("cursor")->Get("id")->int64_value();
  Value r = Run("test",
                absl::StrCat(R"({"getMore": {"$numberLong": ")", id2,
                             R"("}, "collection": "c", "lsid": )", s1, "}"),
                alice.get());
  EXPECT_EQ(Code(r), 13);
  EXPECT_EQ(Errmsg(r), absl::StrCat("Cursor session id (none) is not the "
                                    "same as the operation context's "
                                    "session id (",
                                    alice_s1, ")"));
}

// The localhost exception admits exactly one first user (reliability-3.md
// L1: ten concurrent createUser made ten root users). The others get the
// answer of an unauthenticated createUser once a user exists.
TEST_F(AuthTest, LocalhostExceptionAdmitsOneOfConcurrentCreateUsers) {
  constexpr int kClients = 10;
  std::vector<Value> replies(kClients);
  std::vector<std::unique_ptr<Connection>> conns;
  for (int i = 0; i < kClients; ++i) conns.push_back(runner_->NewConnection());
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&, i] {
      replies[i] = Run("admin",
                       absl::StrCat(R"({"createUser": "u)", i,
                                    R"(", "pwd": "p", "roles": ["root"]})"),
                       conns[i].get());
    });
  }
  for (std::thread& t : threads) t.join();
  int created = -1;
  for (int i = 0; i < kClients; ++i) {
    if (Ok(replies[i])) {
      EXPECT_EQ(created, -1) << "u" << created << " and u" << i;
      created = i;
    } else {
      EXPECT_EQ(Code(replies[i]), 13) << ToJson(replies[i]);
      EXPECT_EQ(Errmsg(replies[i]),
                "Command createUser requires authentication");
    }
  }
  ASSERT_NE(created, -1);
  ASSERT_TRUE(Ok(Login(conn_.get(), absl::StrCat("u", created), "p")));
  Value users = Run("admin", R"({"usersInfo": 1})");
  EXPECT_EQ(users.Get("users")->array_items().size(), 1u) << ToJson(users);
}

// Granting a role needs the grantRole action on the role's database
// (reliability-3.md N1: a userAdmin of A made a root user). Expected
// answers: src/mongo/db/commands/user_management_commands_common.cpp
// (createUser: checkAuthorizedToGrantRoles for each role; updateUser with
// roles: revokeRole on any resource, then the same), builtin_roles.yml
// (grantRole/revokeRole: userAdmin on its database, userAdminAnyDatabase
// on all), and commands.cpp's message for the failed check.
TEST_F(AuthTest, GrantingARoleNeedsUserAdminOnItsDatabase) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  ASSERT_TRUE(Ok(Run("A", R"({"createUser": "ua", "pwd": "p",
      "roles": ["userAdmin"]})")));
  ASSERT_TRUE(Ok(Run("A", R"({"createUser": "own", "pwd": "p",
      "roles": ["dbOwner"]})")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "uaany", "pwd": "p",
      "roles": ["userAdminAnyDatabase"]})")));
  auto refused = [&](Connection* c, const std::string& db,
                     const std::string& cmd, const std::string& name) {
    Value r = Run(db, cmd, c);
    EXPECT_EQ(Code(r), 13) << cmd << " " << ToJson(r);
    EXPECT_TRUE(absl::StartsWith(
        Errmsg(r), absl::StrCat("not authorized on ", db,
                                " to execute command { ", name, ": ")))
        << Errmsg(r);
  };

  auto ua = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(ua.get(), "ua", "p", "A")));
  refused(ua.get(), "A", R"({"createUser": "evil", "pwd": "p",
      "roles": [{"role": "root", "db": "admin"}]})",
          "createUser");
  refused(ua.get(), "A", R"({"createUser": "evil", "pwd": "p",
      "roles": ["read", {"role": "readWrite", "db": "B"}]})",
          "createUser");
  // Roles of its own database it grants.
  EXPECT_TRUE(Ok(Run("A", R"({"createUser": "app", "pwd": "p",
      "roles": ["readWrite", {"role": "read", "db": "A"}]})",
                     ua.get())));
  // Setting a user's roles may revoke any role: userAdminAnyDatabase's.
  refused(ua.get(), "A", R"({"updateUser": "app", "roles": ["read"]})",
          "updateUser");
  EXPECT_TRUE(Ok(Run("A", R"({"updateUser": "app", "pwd": "q"})", ua.get())));

  auto own = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(own.get(), "own", "p", "A")));
  refused(own.get(), "A", R"({"updateUser": "own", "roles": ["dbOwner",
      {"role": "readWriteAnyDatabase", "db": "admin"}]})",
          "updateUser");
  refused(own.get(), "A", R"({"createUser": "evil", "pwd": "p",
      "roles": [{"role": "readWrite", "db": "B"}]})",
          "createUser");
  refused(ua.get(), "A", R"({"grantRolesToUser": "app",
      "roles": [{"role": "root", "db": "admin"}]})",
          "grantRolesToUser");
  refused(own.get(), "A", R"({"grantRolesToUser": "own",
      "roles": [{"role": "readWriteAnyDatabase", "db": "admin"}]})",
          "grantRolesToUser");
  refused(own.get(), "A", R"({"revokeRolesFromUser": "app",
      "roles": [{"role": "readWrite", "db": "B"}]})",
          "revokeRolesFromUser");
  // Roles of A: granted and revoked by A's user administrators.
  EXPECT_TRUE(Ok(Run(
      "A", R"({"grantRolesToUser": "app", "roles": ["dbOwner"]})", ua.get())));
  EXPECT_EQ(ToJson(*Run("A", R"({"usersInfo": "app"})", ua.get())
                        .Get("users")
                        ->array_items()[0]
                        .Get("roles")),
            R"([{"role":"readWrite","db":"A"},{"role":"read","db":"A"},)"
            R"({"role":"dbOwner","db":"A"}])");
  EXPECT_TRUE(Ok(Run("A", R"({"revokeRolesFromUser": "app",
      "roles": ["dbOwner", "readWrite"]})",
                     own.get())));
  EXPECT_EQ(ToJson(*Run("A", R"({"usersInfo": "app"})", ua.get())
                        .Get("users")
                        ->array_items()[0]
                        .Get("roles")),
            R"([{"role":"read","db":"A"}])");
  Value empty =
      Run("A", R"({"grantRolesToUser": "app", "roles": []})", ua.get());
  EXPECT_EQ(Code(empty), 2);
  EXPECT_EQ(Errmsg(empty),
            "grantRolesToUser command requires a non-empty \"roles\" array");
  Value nobody =
      Run("A", R"({"grantRolesToUser": "zz", "roles": ["read"]})", ua.get());
  EXPECT_EQ(Code(nobody), 11);
  EXPECT_EQ(Errmsg(nobody), "Could not find user \"zz\" for db \"A\"");
  EXPECT_EQ(RunJson("admin", R"({"usersInfo": {"user": "evil", "db": "A"}})"),
            R"({"users":[],"ok":1.0})");
  EXPECT_EQ(ToJson(*Run("admin", R"({"usersInfo": {"user": "own",
                                    "db": "A"}})")
                        .Get("users")
                        ->array_items()[0]
                        .Get("roles")),
            R"([{"role":"dbOwner","db":"A"}])");

  // userAdminAnyDatabase and root grant anything.
  auto uaany = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(uaany.get(), "uaany", "p")));
  EXPECT_TRUE(Ok(Run("A", R"({"createUser": "ops", "pwd": "p",
      "roles": [{"role": "readWrite", "db": "B"}]})",
                     uaany.get())));
  EXPECT_TRUE(
      Ok(Run("A", R"({"updateUser": "app", "roles": ["read"]})", uaany.get())));
  EXPECT_TRUE(Ok(Run("A", R"({"updateUser": "own", "roles": ["dbOwner",
      {"role": "read", "db": "B"}]})")));
}

// usersInfo as mongod 8.0 answers it
// (src/mongo/db/auth/authorization_backend_local.cpp lookupUsers:
// performNoPrivilegeNoRestrictionsLookup sorts by user then db, $unsets
// credentials and customData unless shown, adds mechanisms, then applies
// `filter`; showPrivileges needs exact names, 20 IllegalOperation
// "Privilege or restriction details require exact-match usersInfo
// queries"), and its authorization (user_management_commands_common.cpp:
// viewUser on the database, or the user itself).
TEST_F(AuthTest, UsersInfoShowsCredentialsPrivilegesAndFilters) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  ASSERT_TRUE(Ok(Run("test", R"({"createUser": "bob", "pwd": "p",
      "roles": ["read"], "customData": {"n": 1}})")));
  ASSERT_TRUE(Ok(Run("test", R"({"createUser": "amy", "pwd": "p",
      "roles": ["readWrite", {"role": "read", "db": "other"}]})")));

  // usersInfo: 1 lists the database's users by name; filter matches the
  // documents shown.
  Value all = Run("test", R"({"usersInfo": 1, "showCustomData": false})");
  ASSERT_TRUE(Ok(all)) << ToJson(all);
  ASSERT_EQ(all.Get("users")->array_items().size(), 2u);
  EXPECT_EQ(all.Get("users")->array_items()[0].Get("user")->string_value(),
            "amy");
  EXPECT_EQ(all.Get("users")->array_items()[1].Get("customData"), nullptr);
  Value filtered = Run("test", R"({"usersInfo": 1,
      "filter": {"roles.db": "other"}})");
  ASSERT_EQ(filtered.Get("users")->array_items().size(), 1u);
  EXPECT_EQ(filtered.Get("users")->array_items()[0].Get("_id")->string_value(),
            "test.amy");
  EXPECT_EQ(Run("admin", R"({"usersInfo": {"forAllDBs": true},
      "filter": {"user": {"$in": ["root", "bob"]}}})")
                .Get("users")
                ->array_items()
                .size(),
            2u);

  // showCredentials: the stored SCRAM-SHA-256 credentials.
  Value creds = Run("test", R"({"usersInfo": "bob", "showCredentials": true})");
  const Value* scram = creds.Get("users")
                           ->array_items()[0]
                           .Get("credentials")
                           ->Get("SCRAM-SHA-256");
  ASSERT_NE(scram, nullptr) << ToJson(creds);
  EXPECT_EQ(scram->Get("iterationCount")->AsDouble(), 15000);
  for (const char* f : {"salt", "storedKey", "serverKey"}) {
    EXPECT_TRUE(scram->Get(f)->is_string()) << f;
  }

  // showPrivileges: inheritedRoles and the roles' privileges, as
  // builtin_roles.yml defines read (database + system.js).
  Value privs = Run("test", R"({"usersInfo": "bob", "showPrivileges": true,
      "showCustomData": false})");
  ASSERT_TRUE(Ok(privs)) << ToJson(privs);
  const Value& bob = privs.Get("users")->array_items()[0];
  std::vector<std::string> names;
  for (const Field& f : bob.object_fields()) names.push_back(f.first);
  EXPECT_EQ(absl::StrJoin(names, ","),
            "_id,userId,user,db,mechanisms,roles,inheritedRoles,"
            "inheritedPrivileges,inheritedAuthenticationRestrictions");
  EXPECT_EQ(ToJson(*bob.Get("inheritedRoles")),
            R"([{"role":"read","db":"test"}])");
  const std::string read_actions =
      R"(["changeStream","collStats","dbHash","dbStats","find",)"
      R"("killCursors","listCollections","listIndexes","listSearchIndexes",)"
      R"("planCacheRead"])";
  EXPECT_EQ(
      ToJson(*bob.Get("inheritedPrivileges")),
      absl::StrCat(R"([{"resource":{"db":"test","collection":""},)",
                   R"("actions":)", read_actions, "},",
                   R"({"resource":{"db":"test","collection":"system.js"},)",
                   R"("actions":)", read_actions, "}]"));
  for (const char* bad :
       {R"({"usersInfo": 1, "showPrivileges": true})",
        R"({"usersInfo": "bob", "showPrivileges": true, "filter": {}})",
        R"({"usersInfo": "bob", "showAuthenticationRestrictions": true,
            "filter": {}})"}) {
    Value r = Run("test", bad);
    EXPECT_EQ(Code(r), 20) << bad;
    EXPECT_EQ(Errmsg(r),
              "Privilege or restriction details require exact-match "
              "usersInfo queries");
  }

  // A user sees itself; usersInfo: 1 needs viewUser on the database.
  auto c = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(c.get(), "bob", "p", "test")));
  EXPECT_TRUE(Ok(
      Run("test", R"({"usersInfo": "bob", "showPrivileges": true})", c.get())));
  EXPECT_EQ(Code(Run("test", R"({"usersInfo": 1})", c.get())), 13);
  EXPECT_EQ(Code(Run("test", R"({"usersInfo": "amy"})", c.get())), 13);
  EXPECT_EQ(
      Code(Run("admin", R"({"usersInfo": {"forAllDBs": true}})", c.get())), 13);
}

// rolesInfo for the built-in roles (authorization_backend_local.cpp
// getRoleDescriptionsForDB / getRolesDescription; privileges from
// builtin_roles.yml).
TEST_F(AuthTest, RolesInfoShowsTheBuiltinRoles) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  // Without showBuiltinRoles a database has no (user-defined) roles.
  EXPECT_EQ(RunJson("test", R"({"rolesInfo": 1})"), R"({"roles":[],"ok":1.0})");
  Value listed = Run("test", R"({"rolesInfo": 1, "showBuiltinRoles": true})");
  std::vector<std::string> names;
  for (const Value& r : listed.Get("roles")->array_items()) {
    names.push_back(r.Get("role")->string_value());
  }
  EXPECT_EQ(absl::StrJoin(names, ","),
            "dbAdmin,dbOwner,enableSharding,read,readWrite,userAdmin");
  Value admin_roles =
      Run("admin", R"({"rolesInfo": 1, "showBuiltinRoles": true})");
  EXPECT_EQ(admin_roles.Get("roles")->array_items().size(), 19u);

  EXPECT_EQ(
      RunJson("test", R"({"rolesInfo": "userAdmin", "showPrivileges": true})"),
      R"({"roles":[{"role":"userAdmin","db":"test","isBuiltin":true,)"
      R"("roles":[],"inheritedRoles":[],"privileges":[{"resource":)"
      R"({"db":"test","collection":""},"actions":["changeCustomData",)"
      R"("changePassword","createRole","createUser","dropRole","dropUser",)"
      R"("grantRole","revokeRole","setAuthenticationRestriction","viewRole",)"
      R"("viewUser"]}],"inheritedPrivileges":[{"resource":{"db":"test",)"
      R"("collection":""},"actions":["changeCustomData","changePassword",)"
      R"("createRole","createUser","dropRole","dropUser","grantRole",)"
      R"("revokeRole","setAuthenticationRestriction","viewRole","viewUser"]}]}],)"
      R"("ok":1.0})");
  // A role that does not exist is left out; root exists on admin only.
  EXPECT_EQ(RunJson("test", R"({"rolesInfo": ["nope", "root"]})"),
            R"({"roles":[],"ok":1.0})");
  // root: the cluster, every database, and anyResource for validate.
  Value root = Run("admin", R"({"rolesInfo": "root", "showPrivileges": true})");
  bool any_validate = false, cluster_shutdown = false, any_drop_db = false;
  for (const Value& p :
       root.Get("roles")->array_items()[0].Get("privileges")->array_items()) {
    const std::string res = ToJson(*p.Get("resource"));
    const std::string acts = ToJson(*p.Get("actions"));
    any_validate |= res == R"({"anyResource":true})" &&
                    acts.find("\"validate\"") != std::string::npos;
    cluster_shutdown |= res == R"({"cluster":true})" &&
                        acts.find("\"shutdown\"") != std::string::npos;
    any_drop_db |= res == R"({"db":"","collection":""})" &&
                   acts.find("\"dropDatabase\"") != std::string::npos;
  }
  EXPECT_TRUE(any_validate && cluster_shutdown && any_drop_db) << ToJson(root);
  // dbOwner is readWrite + dbAdmin + userAdmin in one role.
  Value owner = Run("test", R"({"rolesInfo": {"role": "dbOwner", "db": "test"},
      "showPrivileges": "asUserFragment"})");
  const Value* frag = owner.Get("userFragment");
  ASSERT_NE(frag, nullptr) << ToJson(owner);
  const std::string db_actions = ToJson(
      *frag->Get("inheritedPrivileges")->array_items()[0].Get("actions"));
  for (const char* a : {"\"insert\"", "\"dropDatabase\"", "\"createUser\""}) {
    EXPECT_NE(db_actions.find(a), std::string::npos) << a;
  }
  EXPECT_EQ(Code(Run("test", R"({"rolesInfo": 1,
      "showPrivileges": "asUserFragment"})")),
            20);

  // A user sees the roles it holds, not others.
  ASSERT_TRUE(Ok(Run("test", R"({"createUser": "r", "pwd": "p",
      "roles": ["read"]})")));
  auto c = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(c.get(), "r", "p", "test")));
  EXPECT_TRUE(Ok(Run("test", R"({"rolesInfo": "read"})", c.get())));
  EXPECT_EQ(Code(Run("test", R"({"rolesInfo": "readWrite"})", c.get())), 13);
  EXPECT_EQ(Code(Run("test", R"({"rolesInfo": 1})", c.get())), 13);
}

// listDatabases under --auth (jstests/auth/list_databases.js): a user
// without the listDatabases action sees the databases it holds a role on
// and may not ask for authorizedDatabases: false; one with it sees all,
// or its own with authorizedDatabases: true.
TEST_F(AuthTest, ListDatabasesShowsWhatTheUserMaySee) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(Ok(Run(absl::StrCat("db", i),
                       R"({"insert": "foo", "documents": [{"bar": "baz"}]})")));
  }
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "user1", "pwd": "p",
      "roles": [{"role": "read", "db": "db0"}, {"role": "read", "db": "db2"},
                {"role": "read", "db": "db4"}, {"role": "read", "db": "db6"}]})")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "user4", "pwd": "p",
      "roles": [{"role": "read", "db": "db4"}, "readAnyDatabase"]})")));
  auto names = [&](Connection* c, const std::string& cmd) {
    Value r = Run("admin", cmd, c);
    if (!Ok(r)) return absl::StrCat("error ", Code(r), ": ", Errmsg(r));
    std::vector<std::string> out;
    for (const Value& d : r.Get("databases")->array_items()) {
      out.push_back(d.Get("name")->string_value());
    }
    return absl::StrJoin(out, ",");
  };
  // admin holds the users (admin.system.users), as on mongod.
  const std::string all = "admin,db0,db1,db2,db3,db4,db5,db6,db7";
  auto u1 = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(u1.get(), "user1", "p")));
  EXPECT_EQ(names(u1.get(), R"({"listDatabases": 1})"), "db0,db2,db4,db6");
  EXPECT_EQ(names(u1.get(), R"({"listDatabases": 1, "nameOnly": true,
      "authorizedDatabases": true})"),
            "db0,db2,db4,db6");
  EXPECT_EQ(names(u1.get(), R"({"listDatabases": 1,
      "filter": {"name": {"$gt": "db2"}}})"),
            "db4,db6");
  EXPECT_EQ(names(u1.get(), R"({"listDatabases": 1,
      "authorizedDatabases": false})"),
            "error 13: Insufficient permissions to list all databases");
  // readAnyDatabase holds listDatabases, and a privilege on every database.
  auto u4 = runner_->NewConnection();
  ASSERT_TRUE(Ok(Login(u4.get(), "user4", "p")));
  EXPECT_EQ(names(u4.get(), R"({"listDatabases": 1})"), all);
  EXPECT_EQ(names(u4.get(), R"({"listDatabases": 1,
      "authorizedDatabases": false})"),
            all);
  EXPECT_EQ(names(conn_.get(), R"({"listDatabases": 1,
      "authorizedDatabases": true})"),
            all);
}

class AuthOffTest : public CommandTest {};

TEST_F(AuthOffTest, UsersWithoutAuthDoNotRestrict) {
  // Without --auth, createUser works and nothing is refused (mongod).
  EXPECT_EQ(RunJson("admin", R"({"createUser": "u", "pwd": "p",
                                 "roles": ["read"]})"),
            R"({"ok":1.0})");
  EXPECT_TRUE(Ok(Run("test", R"({"insert": "c", "documents": [{}]})")));
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
