// A CommandTest with --auth on and a SCRAM-SHA-256 client written from
// RFC 5802 (Login), for the tests of access control.
#ifndef TTLDB_COMMANDS_AUTH_TEST_UTIL_H_
#define TTLDB_COMMANDS_AUTH_TEST_UTIL_H_

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/sha256.h"
#include "commands/command_test_util.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {

inline Value Bin(const std::string& s) { return Value::Bin(Binary{0, s}); }

inline int Code(const Value& reply) {
  const Value* c = reply.Get("code");
  return c == nullptr ? 0 : static_cast<int>(c->AsDouble());
}
inline std::string Errmsg(const Value& reply) {
  const Value* m = reply.Get("errmsg");
  return m == nullptr ? "" : m->string_value();
}
inline bool Ok(const Value& reply) { return reply.Get("ok")->AsDouble() == 1; }

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
    const std::string sp = Pbkdf2HmacSha256(pwd, salt, iterations);
    std::string client_key = HmacSha256(sp, "Client Key");
    const std::string without_proof = absl::StrCat("c=biws,r=", nonce);
    const std::string auth_message =
        absl::StrCat(bare, ",", server_first, ",", without_proof);
    std::string proof = HmacSha256(Sha256(client_key), auth_message);
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
      EXPECT_EQ(
          f.Get("payload")->binary_value().data,
          absl::StrCat("v=", absl::Base64Escape(HmacSha256(
                                 HmacSha256(sp, "Server Key"), auth_message))));
    }
    return f;
  }

  // The userId usersInfo shows for admin user `user`, as storage JSON.
  std::string UserIdJson(const std::string& user) {
    Value r = Run("admin", absl::StrCat(R"({"usersInfo": ")", user, "\"}"));
    const Value* id = r.Get("users")->array_items()[0].Get("userId");
    if (id == nullptr) return "null";
    EXPECT_EQ(id->binary_value().subtype, 4);
    EXPECT_EQ(id->binary_value().data.size(), 16u);
    return ToJson(*id, JsonFormat::kStorage);
  }

  void CreateAdmin() {
    ASSERT_EQ(RunJson("admin",
                      R"({"createUser": "root", "pwd": "rootpw",
                          "roles": ["root"]})"),
              R"({"ok":1.0})");
  }
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_AUTH_TEST_UTIL_H_
