// SCRAM-SHA-256 against RFC 7677's test vector (section 3): user "user",
// password "pencil", salt W22ZaJ0SNY7soEsUEjb6gQ==, 4096 iterations, and
// the RFC's client and server nonces; the exact server-first and
// server-final messages are the RFC's.
#include "commands/scram.h"

#include <string>

#include "absl/strings/escaping.h"
#include "base/status.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace commands {
namespace {

constexpr char kClientFirst[] = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
constexpr char kServerNonce[] = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
constexpr char kServerFirst[] =
    "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
    "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
constexpr char kClientFinal[] =
    "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
    "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
constexpr char kServerFinal[] =
    "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

ScramCredentials RfcCredentials() {
  std::string salt;
  EXPECT_TRUE(absl::Base64Unescape("W22ZaJ0SNY7soEsUEjb6gQ==", &salt));
  return MakeScramSha256Credentials("pencil", salt, 4096);
}

ScramSha256Server::Lookup OnlyUser() {
  return [](const std::string& name) -> absl::StatusOr<ScramCredentials> {
    if (name != "user") return absl::NotFoundError("no such user");
    return RfcCredentials();
  };
}

TEST(ScramTest, Rfc7677TestVector) {
  ScramSha256Server server(OnlyUser(), kServerNonce);
  absl::StatusOr<std::string> first = server.Step(kClientFirst);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(*first, kServerFirst);
  EXPECT_FALSE(server.authenticated());
  absl::StatusOr<std::string> final_msg = server.Step(kClientFinal);
  ASSERT_TRUE(final_msg.ok()) << final_msg.status();
  EXPECT_EQ(*final_msg, kServerFinal);
  EXPECT_TRUE(server.authenticated());
  EXPECT_EQ(server.user(), "user");
  EXPECT_FALSE(server.done());
  // mongod's empty third exchange.
  absl::StatusOr<std::string> last = server.Step("");
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(*last, "");
  EXPECT_TRUE(server.done());
  EXPECT_FALSE(server.Step("").ok());
}

TEST(ScramTest, SkipEmptyExchangeIsDoneAfterServerFinal) {
  ScramSha256Server server(OnlyUser(), kServerNonce);
  server.set_skip_empty_exchange(true);
  ASSERT_TRUE(server.Step(kClientFirst).ok());
  ASSERT_TRUE(server.Step(kClientFinal).ok());
  EXPECT_TRUE(server.done());
}

TEST(ScramTest, WrongProofFails) {
  // The RFC's final message with one proof byte changed (another password).
  std::string bad = kClientFinal;
  bad[bad.size() - 3] = bad[bad.size() - 3] == 'A' ? 'B' : 'A';
  ScramSha256Server server(OnlyUser(), kServerNonce);
  ASSERT_TRUE(server.Step(kClientFirst).ok());
  absl::StatusOr<std::string> r = server.Step(bad);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(server.authenticated());
  // The conversation is over after a failure.
  EXPECT_FALSE(server.Step(kClientFinal).ok());
}

TEST(ScramTest, UnknownUserFailsAtFirstStep) {
  ScramSha256Server server(OnlyUser(), kServerNonce);
  EXPECT_FALSE(server.Step("n,,n=nobody,r=abc").ok());
}

TEST(ScramTest, MalformedMessagesFail) {
  for (const char* m : {"", "n,,", "x,,n=user,r=a", "p=tls-unique,,n=user,r=a",
                        "n,,m=ext,n=user,r=a", "n,,n=,r=a", "n,,n=user,r=",
                        "n,,n=us=er,r=a", "n,a=other,n=user,r=a"}) {
    ScramSha256Server server(OnlyUser(), kServerNonce);
    EXPECT_FALSE(server.Step(m).ok()) << m;
  }
  // The nonce must be the combined one; the channel binding "n,,".
  for (const char* m :
       {"c=biws,r=rOprNGfwEbeRWgbNEkqO,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz"
        "7AndVQ=",
        "c=eSws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZap"
        "WIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=!!",
        // Non-canonical base64 of the right proof: unpadded, and with the
        // unused low bits set (found by fuzz/scram_fuzz).
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZap"
        "WIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ",
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZap"
        "WIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVS=",
        "c=biws=,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZ"
        "apWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
        "c=biws", ""}) {
    ScramSha256Server server(OnlyUser(), kServerNonce);
    ASSERT_TRUE(server.Step(kClientFirst).ok());
    EXPECT_FALSE(server.Step(m).ok()) << m;
  }
}

TEST(ScramTest, UserNameEscapes) {
  ScramSha256Server server(
      [](const std::string& name) -> absl::StatusOr<ScramCredentials> {
        if (name != "a,b=c") return absl::NotFoundError("no");
        return RfcCredentials();
      },
      "X");
  EXPECT_TRUE(server.Step("n,,n=a=2Cb=3Dc,r=abc").ok());
  EXPECT_EQ(server.user(), "a,b=c");
}

TEST(ScramTest, RandomNonceAndSalt) {
  ScramCredentials a = NewScramSha256Credentials("pw");
  ScramCredentials b = NewScramSha256Credentials("pw");
  EXPECT_EQ(a.iterations, 15000);
  EXPECT_EQ(a.salt.size(), 28u);
  EXPECT_NE(a.salt, b.salt);
  EXPECT_NE(a.stored_key, b.stored_key);
  ScramSha256Server s1(OnlyUser()), s2(OnlyUser());
  std::string f1 = *s1.Step(kClientFirst), f2 = *s2.Step(kClientFirst);
  EXPECT_NE(f1, f2);
  // Client nonce + 24 random bytes in base64 (32 characters).
  EXPECT_EQ(f1.find(",s="), 2 + 20 + 32u);
}

TEST(ScramTest, SaslPrep) {
  EXPECT_EQ(*SaslPrep("pencil 1!~"), "pencil 1!~");
  EXPECT_EQ(ErrorCode(SaslPrep("caf\xc3\xa9").status()), kBadValue);
  EXPECT_EQ(ErrorCode(SaslPrep("a\tb").status()), kBadValue);
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
