// Access control through the command layer: the localhost exception,
// refusal of unauthenticated commands, SCRAM-SHA-256 logins driven by a
// client written here from RFC 5802, roles, and user storage that never
// holds a password. Expected answers: src/mongo/db/commands.cpp ("Command
// find requires authentication", 13), auth/sasl_commands.cpp (18
// "Authentication failed."), commands/user_management_commands.cpp
// (51003, 11), auth/authorization_session_impl.cpp (localhost exception).
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "commands/command_test_util.h"
#include "document/json.h"

namespace ttldb {
namespace commands {
namespace {

std::string Hmac(absl::string_view key, absl::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out,
       &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

Value Bin(const std::string& s) { return Value::Bin(Binary{0, s}); }

int Code(const Value& reply) {
  const Value* c = reply.Get("code");
  return c == nullptr ? 0 : static_cast<int>(c->AsDouble());
}
std::string Errmsg(const Value& reply) {
  const Value* m = reply.Get("errmsg");
  return m == nullptr ? "" : m->string_value();
}
bool Ok(const Value& reply) { return reply.Get("ok")->AsDouble() == 1; }

class AuthTest : public CommandTest {
 protected:
  void SetUp() override {
    options_.auth = true;
    Open();
  }

  Value RunCmd(Connection* c, const std::string& db, Value cmd) {
    return runner_->Run(c, db, cmd);
  }

  // A full SCRAM-SHA-256 login (RFC 5802 client side); the last reply.
  Value Login(Connection* c, const std::string& user, const std::string& pwd,
              const std::string& db = "admin") {
    const std::string client_nonce = "fyko+d2lbbFgONRv9qkxdawL";
    const std::string bare = absl::StrCat("n=", user, ",r=", client_nonce);
    Value r = RunCmd(
        c, db,
        Value::MakeObject(
            {{"saslStart", Value::Int32(1)},
             {"mechanism", Value::String("SCRAM-SHA-256")},
             {"payload", Bin("n,," + bare)},
             {"options",
              Value::MakeObject({{"skipEmptyExchange", Value::Bool(true)}})}}));
    if (!Ok(r)) return r;
    return Finish(c, db, bare, r, pwd);
  }

  // Sends client-final for the server-first in `r` (a saslStart reply or
  // hello's speculativeAuthenticate); the saslContinue reply.
  Value Finish(Connection* c, const std::string& db, const std::string& bare,
               const Value& r, const std::string& pwd) {
    const std::string client_nonce = bare.substr(bare.find(",r=") + 3);
    const std::string server_first = r.Get("payload")->binary_value().data;
    std::string nonce, salt;
    int iterations = 0;
    for (absl::string_view part : absl::StrSplit(server_first, ',')) {
      if (absl::StartsWith(part, "r=")) nonce = std::string(part.substr(2));
      if (absl::StartsWith(part, "s=")) {
        EXPECT_TRUE(absl::Base64Unescape(part.substr(2), &salt));
      }
      if (absl::StartsWith(part, "i=")) {
        iterations = std::stoi(std::string(part.substr(2)));
      }
    }
    EXPECT_TRUE(absl::StartsWith(nonce, client_nonce));
    unsigned char salted[32];
    PKCS5_PBKDF2_HMAC(pwd.data(), static_cast<int>(pwd.size()),
                      reinterpret_cast<const unsigned char*>(salt.data()),
                      static_cast<int>(salt.size()), iterations, EVP_sha256(),
                      32, salted);
    std::string sp(reinterpret_cast<char*>(salted), 32);
    std::string client_key = Hmac(sp, "Client Key");
    unsigned char stored[32];
    SHA256(reinterpret_cast<const unsigned char*>(client_key.data()), 32,
           stored);
    const std::string without_proof = absl::StrCat("c=biws,r=", nonce);
    const std::string auth_message =
        absl::StrCat(bare, ",", server_first, ",", without_proof);
    std::string proof =
        Hmac(std::string(reinterpret_cast<char*>(stored), 32), auth_message);
    for (int i = 0; i < 32; ++i) proof[i] ^= client_key[i];
    Value f = RunCmd(
        c, db,
        Value::MakeObject(
            {{"saslContinue", Value::Int32(1)},
             {"conversationId", *r.Get("conversationId")},
             {"payload", Bin(absl::StrCat(without_proof, ",p=",
                                          absl::Base64Escape(proof)))}}));
    if (Ok(f)) {
      EXPECT_TRUE(f.Get("done")->bool_value());
      EXPECT_EQ(f.Get("payload")->binary_value().data,
                absl::StrCat("v=", absl::Base64Escape(Hmac(
                                       Hmac(sp, "Server Key"), auth_message))));
    }
    return f;
  }

  void CreateAdmin() {
    ASSERT_EQ(RunJson("admin",
                      R"({"createUser": "root", "pwd": "rootpw",
                          "roles": ["root"]})"),
              R"({"ok":1.0})");
  }
};

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
  EXPECT_EQ(Code(Run("admin", R"({"createUser": "x", "pwd": "p",
      "roles": ["clusterMonitor"]})")),
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
      R"({"users":[{"_id":"admin.ann","user":"ann","db":"admin",)"
      R"("customData":{"team":"x"},"roles":[{"role":"readWrite","db":"test"}],)"
      R"("mechanisms":["SCRAM-SHA-256"]}],"ok":1.0})");
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
// user store's LevelDB log, tables, manifest) is searched for it.
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
