// Md5 against RFC 1321's test suite (appendix A.5).
#include "base/md5.h"

#include <string>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace {

std::string Hex(absl::string_view data) {
  std::array<uint8_t, 16> d = Md5(data);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(d.data()), d.size()));
}

TEST(Md5, Rfc1321TestSuite) {
  EXPECT_EQ(Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Hex("abcdefghijklmnopqrstuvwxyz"),
            "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(
      Hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
      "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(Hex("1234567890123456789012345678901234567890123456789012345678901"
                "2345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
}

}  // namespace
}  // namespace ttldb
