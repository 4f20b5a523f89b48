// Where the users live: the admin database's system.users collection, as
// mongod keeps them (issue 28 item 5). Expected answers:
//   - the document's shape: src/mongo/db/commands/user_management_commands.cpp
//     (createUser: _id "<db>.<user>", userId, user, db, credentials,
//     customData, roles) and src/mongo/db/auth/user_document_parser.cpp;
//   - the index: src/mongo/db/catalog/system_index.cpp (user_1_db_1,
//     unique, on {user: 1, db: 1});
//   - who may read it: jstests/auth/clac_system_colls.js (a find privilege
//     on the whole database does not cover system collections; one that
//     names the collection does) and builtin_roles.yml (userAdminAnyDatabase,
//     backup and root name admin.system.users);
//   - 13 Unauthorized "not authorized on admin to execute command ...":
//     src/mongo/db/commands.cpp.
#include <leveldb/db.h>

#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "commands/auth_test_util.h"
#include "commands/scram.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

std::string Users(const std::string& root) { return root + "/system.users"; }

class AuthStoreTest : public AuthTest {
 protected:
  // Creates `user`@admin with `role`@admin, as root.
  void CreateUser(const std::string& user, const std::string& role) {
    ASSERT_TRUE(Ok(Run("admin", absl::StrCat(R"({"createUser": ")", user,
                                             R"(", "pwd": "pw", "roles": [")",
                                             role, R"("]})"))));
  }
};

TEST_F(AuthStoreTest, UsersAreDocumentsOfAdminSystemUsers) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  ASSERT_TRUE(Ok(Run("admin", R"({"createUser": "ann", "pwd": "annpw",
      "customData": {"team": 7}, "roles": ["read", {"role": "readWrite",
      "db": "app"}]})")));
  // No store of its own beside the databases any more.
  EXPECT_FALSE(std::filesystem::exists(Users(root_)));

  Value found = Run("admin", R"({"find": "system.users",
      "filter": {"user": "ann"}})");
  ASSERT_TRUE(Ok(found)) << ToJson(found);
  const Value& ann = found.Get("cursor")->Get("firstBatch")->array_items()[0];
  std::vector<std::string> fields;
  for (const Field& f : ann.object_fields()) fields.push_back(f.first);
  EXPECT_EQ(fields,
            (std::vector<std::string>{"_id", "userId", "user", "db",
                                      "credentials", "customData", "roles"}));
  EXPECT_EQ(ann.Get("_id")->string_value(), "admin.ann");
  EXPECT_EQ(ann.Get("userId")->binary_value().subtype, 4);
  EXPECT_EQ(ann.Get("userId")->binary_value().data.size(), 16u);
  EXPECT_EQ(ToJson(*ann.Get("customData")), R"({"team":7})");
  EXPECT_EQ(
      ToJson(*ann.Get("roles")),
      R"([{"role":"read","db":"admin"},{"role":"readWrite","db":"app"}])");
  const Value* scram = ann.Get("credentials")->Get("SCRAM-SHA-256");
  ASSERT_NE(scram, nullptr);
  EXPECT_EQ(ToJson(*scram->Get("iterationCount")), "15000");
  std::string salt, stored, server;
  ASSERT_TRUE(absl::Base64Unescape(scram->Get("salt")->string_value(), &salt));
  ASSERT_TRUE(
      absl::Base64Unescape(scram->Get("storedKey")->string_value(), &stored));
  ASSERT_TRUE(
      absl::Base64Unescape(scram->Get("serverKey")->string_value(), &server));
  EXPECT_EQ(stored.size(), 32u);
  EXPECT_EQ(server.size(), 32u);
  EXPECT_EQ(MakeScramSha256Credentials("annpw", salt, 15000).stored_key,
            stored);

  // mongod's index, and the collection in listCollections.
  std::string indexes = ToJson(Run("admin", R"({"listIndexes":
      "system.users"})"));
  EXPECT_NE(indexes.find(R"({"v":2,"key":{"user":1,"db":1},)"
                         R"("name":"user_1_db_1","unique":true})"),
            std::string::npos)
      << indexes;
  std::string names = ToJson(Run("admin", R"({"listCollections": 1,
      "nameOnly": true})"));
  EXPECT_NE(names.find(R"({"name":"system.users","type":"collection"})"),
            std::string::npos)
      << names;

  // Updates and drops reach the collection.
  ASSERT_TRUE(Ok(Run("admin", R"({"updateUser": "ann", "roles": []})")));
  EXPECT_EQ(ToJson(*Run("admin", R"({"find": "system.users",
      "filter": {"_id": "admin.ann"}, "projection": {"roles": 1}})")
                        .Get("cursor")
                        ->Get("firstBatch")),
            R"([{"_id":"admin.ann","roles":[]}])");
  ASSERT_TRUE(Ok(Run("admin", R"({"dropUser": "ann"})")));
  EXPECT_EQ(ToJson(Run("admin", R"({"count": "system.users"})")),
            R"({"n":1,"ok":1.0})");
}

// Only roles that name system.users may read it; nobody writes it but the
// user-management commands.
TEST_F(AuthStoreTest, SystemUsersIsReadByUserAdminsOnlyAndNeverWritten) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  CreateUser("reader", "read");
  CreateUser("writer", "readWrite");
  CreateUser("owner", "dbOwner");
  CreateUser("uaany", "userAdminAnyDatabase");
  ASSERT_TRUE(Ok(Run("admin", R"({"insert": "plain",
      "documents": [{"_id": 1}]})")));

  const std::string refused =
      R"(not authorized on admin to execute command { find: "system.users", )"
      R"($db: "admin" })";
  for (const char* user : {"reader", "writer", "owner"}) {
    auto c = runner_->NewConnection();
    ASSERT_TRUE(Ok(Login(c.get(), user, "pw")));
    Value r = Run("admin", R"({"find": "system.users"})", c.get());
    EXPECT_EQ(Code(r), 13) << user;
    EXPECT_EQ(Errmsg(r), refused) << user;
    EXPECT_EQ(Code(Run("admin", R"({"count": "system.users"})", c.get())), 13)
        << user;
    // A $lookup from it is refused as well; the plain collection reads.
    EXPECT_EQ(Code(Run("admin", R"({"aggregate": "plain", "cursor": {},
        "pipeline": [{"$lookup": {"from": "system.users", "pipeline": [],
        "as": "u"}}]})",
                       c.get())),
              13)
        << user;
    EXPECT_TRUE(Ok(Run("admin", R"({"find": "plain"})", c.get()))) << user;
  }
  {
    auto c = runner_->NewConnection();
    ASSERT_TRUE(Ok(Login(c.get(), "uaany", "pw")));
    EXPECT_EQ(ToJson(Run("admin", R"({"count": "system.users"})", c.get())),
              R"({"n":5,"ok":1.0})");
  }
  // Writes: refused for a readWrite user by its privileges (13), for root
  // by the namespace (73); nothing changes.
  {
    auto c = runner_->NewConnection();
    ASSERT_TRUE(Ok(Login(c.get(), "writer", "pw")));
    EXPECT_EQ(Code(Run("admin", R"({"insert": "system.users",
        "documents": [{"_id": "admin.x"}]})",
                       c.get())),
              13);
  }
  Value insert = Run("admin", R"({"insert": "system.users",
      "documents": [{"_id": "admin.x", "user": "x", "db": "admin"}]})");
  EXPECT_EQ(Code(insert), 73);
  EXPECT_EQ(Errmsg(insert), "cannot write to 'admin.system.users'");
  EXPECT_EQ(Code(Run("admin", R"({"delete": "system.users",
      "deletes": [{"q": {}, "limit": 0}]})")),
            73);
  EXPECT_EQ(Code(Run("admin", R"({"update": "system.users",
      "updates": [{"q": {}, "u": {"$set": {"roles": []}}}]})")),
            73);
  EXPECT_EQ(Code(Run("admin", R"({"drop": "system.users"})")), 73);
  EXPECT_EQ(Code(Run("admin", R"({"renameCollection": "admin.system.users",
      "to": "admin.stolen"})")),
            73);
  EXPECT_EQ(Code(Run("admin", R"({"renameCollection": "admin.plain",
      "to": "admin.system.users", "dropTarget": true})")),
            73);
  EXPECT_EQ(Code(Run("admin", R"({"aggregate": "plain", "cursor": {},
      "pipeline": [{"$out": "system.users"}]})")),
            73);
  EXPECT_EQ(Code(Run("test", R"({"create": "system.users"})")), 73);
  EXPECT_EQ(ToJson(Run("admin", R"({"count": "system.users"})")),
            R"({"n":5,"ok":1.0})");
  auto c = runner_->NewConnection();
  EXPECT_TRUE(Ok(Login(c.get(), "reader", "pw")));
}

// dropDatabase of admin takes the users with it (they are its documents):
// the cache follows, and the localhost exception opens again.
TEST_F(AuthStoreTest, DroppingAdminDropsTheUsers) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  ASSERT_TRUE(Ok(Run("admin", R"({"dropDatabase": 1})")));
  auto c = runner_->NewConnection();
  EXPECT_EQ(Code(Login(c.get(), "root", "rootpw")), 18);
  EXPECT_TRUE(Ok(Run("admin", R"({"createUser": "again", "pwd": "p",
      "roles": ["root"]})",
                     c.get())));
}

// A store written by an older ttldb (its own LevelDB at <root>/system.users,
// key "<db>.<user>", value the user document as storage JSON) is imported
// once into admin.system.users and renamed aside, with a log line.
TEST_F(AuthStoreTest, ImportsTheOldUserStoreOnce) {
  conn_.reset();
  ASSERT_TRUE(runner_->Close().ok());
  runner_.reset();
  const ScramCredentials creds =
      MakeScramSha256Credentials("oldpw", "0123456789abcdef0123456789", 15000);
  {
    leveldb::Options o;
    o.create_if_missing = true;
    leveldb::DB* raw = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(o, Users(root_), &raw).ok());
    std::unique_ptr<leveldb::DB> old(raw);
    const std::string doc = absl::StrCat(
        R"({"_id":"admin.old","user":"old","db":"admin","credentials":)",
        R"({"SCRAM-SHA-256":{"iterationCount":15000,"salt":")",
        absl::Base64Escape(creds.salt), R"(","storedKey":")",
        absl::Base64Escape(creds.stored_key), R"(","serverKey":")",
        absl::Base64Escape(creds.server_key),
        R"("}},"roles":[{"role":"root","db":"admin"}]})");
    ASSERT_TRUE(old->Put(leveldb::WriteOptions(), "admin.old", doc).ok());
  }
  Open();
  EXPECT_FALSE(std::filesystem::exists(Users(root_)));
  EXPECT_TRUE(std::filesystem::exists(Users(root_) + ".imported"));
  // The old user logs in and is a document of admin.system.users.
  ASSERT_TRUE(Ok(Login(conn_.get(), "old", "oldpw")));
  EXPECT_EQ(ToJson(*Run("admin", R"({"find": "system.users",
      "projection": {"user": 1, "roles": 1}})")
                        .Get("cursor")
                        ->Get("firstBatch")),
            R"([{"_id":"admin.old","user":"old",)"
            R"("roles":[{"role":"root","db":"admin"}]})"
            R"(])");
  std::string log = ToJson(Run("admin", R"({"getLog": "global"})"));
  EXPECT_NE(log.find("imported 1 users from the old user store"),
            std::string::npos)
      << log;

  // Once: a restart neither imports again nor loses the user.
  ASSERT_TRUE(Ok(Run("admin", R"({"updateUser": "old", "pwd": "newpw"})")));
  conn_.reset();
  ASSERT_TRUE(runner_->Close().ok());
  runner_.reset();
  Open();
  EXPECT_EQ(Code(Login(conn_.get(), "old", "oldpw")), 18);
  EXPECT_TRUE(Ok(Login(conn_.get(), "old", "newpw")));
}

// createBackup copies the users (they are in the admin database): the copy,
// served with --auth, takes the same logins.
TEST_F(AuthStoreTest, CreateBackupCarriesTheUsers) {
  CreateAdmin();
  ASSERT_TRUE(Ok(Login(conn_.get(), "root", "rootpw")));
  CreateUser("reader", "readAnyDatabase");
  ASSERT_TRUE(Ok(Run("app", R"({"insert": "c", "documents": [{"_id": 1}]})")));
  const std::string dest = root_ + ".backup";
  Value reply = Run("admin", absl::StrCat(R"({"createBackup": 1,
      "backupDir": ")",
                                          dest, R"("})"));
  ASSERT_TRUE(Ok(reply)) << ToJson(reply);
  EXPECT_EQ(ToJson(*reply.Get("databases")), R"(["admin","app"])");

  auto copy = CommandRunner::Open(dest, options_);
  ASSERT_TRUE(copy.ok()) << copy.status();
  std::swap(runner_, *copy);
  auto c = runner_->NewConnection();
  EXPECT_EQ(Code(Run("app", R"({"find": "c"})", c.get())), 13);
  EXPECT_EQ(Code(Login(c.get(), "reader", "wrong")), 18);
  ASSERT_TRUE(Ok(Login(c.get(), "reader", "pw")));
  EXPECT_TRUE(Ok(Run("app", R"({"find": "c"})", c.get())));
  // No localhost exception on the copy: it has users.
  auto anon = runner_->NewConnection();
  EXPECT_EQ(Code(Run("admin", R"({"createUser": "x", "pwd": "p",
      "roles": ["root"]})",
                     anon.get())),
            13);
  c.reset();
  anon.reset();
  ASSERT_TRUE(runner_->Close().ok());
  std::swap(runner_, *copy);
  std::error_code ec;
  std::filesystem::remove_all(dest, ec);
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
