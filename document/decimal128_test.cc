#include "ttldb/decimal128.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace ttldb {
namespace {

Decimal128 D(const char* s) {
  absl::StatusOr<Decimal128> d = Decimal128::FromString(s);
  EXPECT_TRUE(d.ok()) << s << ": " << d.status();
  return d.ok() ? *d : Decimal128::NaN();
}

// Expected bits and strings: the BSON corpus of the Decimal128
// specification (mongodb/specifications
// source/bson-corpus/tests/decimal128-1.json), whose canonical_bson holds
// the 16 bytes little-endian.
TEST(Decimal128Test, CorpusBitsAndCanonicalStrings) {
  struct Case {
    const char* in;
    uint64_t high, low;
    const char* out;
  } cases[] = {
      {"NaN", 0x7C00000000000000, 0, "NaN"},
      {"Infinity", 0x7800000000000000, 0, "Infinity"},
      {"-Infinity", 0xF800000000000000, 0, "-Infinity"},
      {"0.001234", 0x3034000000000000, 0x4D2, "0.001234"},
      {"0.00123400000", 0x302A000000000000, 0x75AEF40, "0.00123400000"},
      {"0.1", 0x303E000000000000, 1, "0.1"},
      {"0", 0x3040000000000000, 0, "0"},
      {"-0", 0xB040000000000000, 0, "-0"},
      {"-0.0", 0xB03E000000000000, 0, "-0.0"},
      {"2.000", 0x303A000000000000, 0x7D0, "2.000"},
      {"1E-6176", 0, 1, "1E-6176"},
      {"-1E-6176", 0x8000000000000000, 1, "-1E-6176"},
      {"-1.00E-8", 0xB02C000000000000, 0x64, "-1.00E-8"},
      {"0E+6000", 0x5F20000000000000, 0, "0E+6000"},
      {"1E+3", 0x3046000000000000, 1, "1E+3"},
      {"1.050E+4", 0x3042000000000000, 0x41A, "1.050E+4"},
      {"1.000000000000000000000000000000000E+6144", 0x5FFE314DC6448D93,
       0x38C15B0A00000000, "1.000000000000000000000000000000000E+6144"},
      {"9.999999999999999999999999999999999E+6144", 0x5FFFED09BEAD87C0,
       0x378D8E63FFFFFFFF, "9.999999999999999999999999999999999E+6144"},
      {"1234567890123456789012345678901234", 0x30403CDE6FFF9732,
       0xDE825CD07E96AFF2, "1234567890123456789012345678901234"},
      // Degenerate inputs and their canonical text.
      {"-100E-10", 0xB02C000000000000, 0x64, "-1.00E-8"},
      {"1E3", 0x3046000000000000, 1, "1E+3"},
      {"1e+3", 0x3046000000000000, 1, "1E+3"},
      {"+1234567890123456789012345678901234", 0x30403CDE6FFF9732,
       0xDE825CD07E96AFF2, "1234567890123456789012345678901234"},
      {"nAn", 0x7C00000000000000, 0, "NaN"},
      {"+infinity", 0x7800000000000000, 0, "Infinity"},
      {"inF", 0x7800000000000000, 0, "Infinity"},
      {"-inf", 0xF800000000000000, 0, "-Infinity"},
      {"1E+6144", 0x5FFE314DC6448D93, 0x38C15B0A00000000,
       "1.000000000000000000000000000000000E+6144"},
      {"0E+8000", 0x5FFE000000000000, 0, "0E+6111"},  // zero clamps
  };
  for (const Case& c : cases) {
    Decimal128 d = D(c.in);
    EXPECT_EQ(d.high(), c.high) << c.in;
    EXPECT_EQ(d.low(), c.low) << c.in;
    EXPECT_EQ(d.ToString(), c.out) << c.in;
  }
}

// Strings the specification's grammar rejects (decimal128 parseErrors) and
// values that would need rounding: a clear InvalidArgument, as the shell's
// Decimal128.fromString gives.
TEST(Decimal128Test, InvalidAndInexactStringsAreErrors) {
  for (const char* s :
       {"", ".", ".e", "E02", "..1", "1abcede", "1.24abc", "1.24E+02abc2d",
        "E+02", "e+02", "i", "in", "-in", "Na", "-Na", "1E", "1.23E+", "1.23E-",
        "1 ", " 1", "0x10", "1,5", "Infinit", "nana", "--1",
        // inexact: 35 significant digits, overflow, underflow
        "12345678901234567890123456789012345", "1E+6145", "10E+6144",
        "1E-6177"}) {
    absl::StatusOr<Decimal128> d = Decimal128::FromString(s);
    EXPECT_FALSE(d.ok()) << "'" << s << "' parsed as " << d->ToString();
    if (!d.ok()) {
      EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(d.status().message().find("not a valid Decimal128 string"),
                std::string::npos);
    }
  }
  // Trailing zeros beyond 34 digits are exact and fine.
  EXPECT_EQ(D("12345678901234567890123456789012340").ToString(),
            "1.234567890123456789012345678901234E+34");
  EXPECT_EQ(D(".5").ToString(), "0.5");
  EXPECT_EQ(D("5.").ToString(), "5");
}

// mongo/base/compare_numbers.h: exact numeric comparison across types, NaN
// lowest and equal to NaN, -0 == 0.
TEST(Decimal128Test, CompareAcrossTypes) {
  EXPECT_EQ(Decimal128::Compare(D("1.0"), D("1.00")), 0);
  EXPECT_EQ(Decimal128::Compare(D("-0"), D("0")), 0);
  EXPECT_EQ(Decimal128::Compare(D("NaN"), D("-NaN")), 0);
  EXPECT_EQ(Decimal128::Compare(D("NaN"), D("-Infinity")), -1);
  EXPECT_EQ(Decimal128::Compare(D("1E+6144"), D("Infinity")), -1);
  EXPECT_EQ(Decimal128::CompareToInt64(D("1.00"), 1), 0);
  EXPECT_EQ(Decimal128::CompareToInt64(D("9223372036854775807.5"),
                                       std::numeric_limits<int64_t>::max()),
            1);
  EXPECT_EQ(Decimal128::CompareToDouble(D("0.5"), 0.5), 0);
  // The double 0.1 is 0.1000000000000000055511151231257827...
  EXPECT_EQ(Decimal128::CompareToDouble(D("0.1"), 0.1), -1);
  EXPECT_EQ(Decimal128::CompareToDouble(
                D("0.1000000000000000055511151231257828"), 0.1),
            1);
  EXPECT_EQ(Decimal128::CompareToDouble(D("1E+400"),
                                        std::numeric_limits<double>::max()),
            1);
  EXPECT_EQ(Decimal128::CompareToDouble(
                D("1E+400"), std::numeric_limits<double>::infinity()),
            -1);
  EXPECT_EQ(Decimal128::CompareToDouble(D("-1E-400"), 0.0), -1);
  EXPECT_EQ(Decimal128::CompareToDouble(D("-0"), -0.0), 0);
  EXPECT_EQ(Decimal128::CompareToDouble(D("NaN"), std::nan("")), 0);
  EXPECT_EQ(Decimal128::CompareToDouble(D("-Infinity"), std::nan("")), 1);
}

// MongoDB's Decimal128(double) keeps 15 significant digits
// (mongo/platform/decimal128_test.cpp).
TEST(Decimal128Test, FromDoubleKeepsFifteenDigits) {
  EXPECT_EQ(Decimal128::FromDouble(0.1).ToString(), "0.100000000000000");
  EXPECT_EQ(Decimal128::FromDouble(1.0).ToString(), "1.00000000000000");
  EXPECT_EQ(Decimal128::FromDouble(100000.0).ToString(), "100000.000000000");
  EXPECT_EQ(Decimal128::FromDouble(0.00001).ToString(),
            "0.0000100000000000000");
  EXPECT_EQ(Decimal128::FromDouble(0.9999999999999994).ToString(),
            "0.999999999999999");
  EXPECT_EQ(Decimal128::FromDouble(-2.5).ToString(), "-2.50000000000000");
  EXPECT_EQ(Decimal128::FromDouble(0.0).ToString(), "0");
  EXPECT_TRUE(Decimal128::FromDouble(std::nan("")).IsNaN());
  EXPECT_EQ(Decimal128::FromDouble(-INFINITY).ToString(), "-Infinity");
}

TEST(Decimal128Test, ArithmeticAndConversions) {
  EXPECT_EQ(D("1.5").Add(D("2")).ToString(), "3.5");
  EXPECT_EQ(D("0.1").Add(D("0.2")).ToString(), "0.3");
  EXPECT_EQ(D("1.5").Multiply(D("2")).ToString(), "3.0");
  EXPECT_EQ(D("9.999999999999999999999999999999999E+6144")
                .Multiply(D("10"))
                .ToString(),
            "Infinity");
  int64_t i = 0;
  EXPECT_TRUE(D("1.00").ToInt64Exact(&i));
  EXPECT_EQ(i, 1);
  EXPECT_TRUE(D("1E+2").ToInt64Exact(&i));
  EXPECT_EQ(i, 100);
  EXPECT_FALSE(D("1.5").ToInt64Exact(&i));
  EXPECT_FALSE(D("NaN").ToInt64Exact(&i));
  EXPECT_FALSE(D("1E+19").ToInt64Exact(&i));
  EXPECT_EQ(D("0.5").ToDouble(), 0.5);
  EXPECT_EQ(Decimal128::FromInt64(-7).ToString(), "-7");
}

}  // namespace
}  // namespace ttldb
