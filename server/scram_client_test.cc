// The SCRAM-SHA-256 client against RFC 7677's example conversation (section
// 3: user "user", password "pencil", 4096 iterations), and what it refuses
// from a server.
#include "server/scram_client.h"

#include "gtest/gtest.h"

namespace ttldb {
namespace server {
namespace {

constexpr char kServerFirst[] =
    "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
    "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";

TEST(ScramSha256ClientTest, Rfc7677Example) {
  ScramSha256Client c("user", "pencil", "rOprNGfwEbeRWgbNEkqO");
  EXPECT_EQ(c.ClientFirst(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  absl::StatusOr<std::string> final_message = c.ClientFinal(kServerFirst);
  ASSERT_TRUE(final_message.ok()) << final_message.status();
  EXPECT_EQ(*final_message,
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  EXPECT_TRUE(
      c.VerifyServerFinal("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
          .ok());
  EXPECT_TRUE(absl::IsPermissionDenied(
      c.VerifyServerFinal("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")));
}

TEST(ScramSha256ClientTest, EscapesTheUserName) {
  ScramSha256Client c("a=b,c", "p", "n0");
  EXPECT_EQ(c.ClientFirst(), "n,,n=a=3Db=2Cc,r=n0");
}

TEST(ScramSha256ClientTest, RefusesABadServerFirst) {
  ScramSha256Client c("user", "pencil", "rOprNGfwEbeRWgbNEkqO");
  // The server's nonce must extend ours.
  EXPECT_TRUE(absl::IsInvalidArgument(
      c.ClientFinal("r=other%hv,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096").status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      c.ClientFinal("r=rOprNGfwEbeRWgbNEkqO,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")
          .status()));
  // Fewer than 4096 iterations is a downgrade (RFC 7677); a huge count
  // would make the client spin.
  EXPECT_TRUE(absl::IsInvalidArgument(
      c.ClientFinal("r=rOprNGfwEbeRWgbNEkqOx,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4095")
          .status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      c.ClientFinal(
           "r=rOprNGfwEbeRWgbNEkqOx,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=2000000000")
          .status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      c.ClientFinal("r=rOprNGfwEbeRWgbNEkqOx,s=!!,i=4096").status()));
  EXPECT_TRUE(absl::IsInvalidArgument(c.ClientFinal("").status()));
  // Nothing verified before a client-final.
  EXPECT_TRUE(absl::IsPermissionDenied(c.VerifyServerFinal("v=")));
}

}  // namespace
}  // namespace server
}  // namespace ttldb
