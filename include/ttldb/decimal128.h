// Decimal128: MongoDB's NumberDecimal, an IEEE 754-2008 decimal128 value in
// the binary integer decimal (BID) encoding, exactly the 16 bytes BSON
// stores (type 0x13).
//
// Arithmetic, conversions and comparisons are done by Intel's Decimal
// Floating-Point Math Library (Debian's libintelrdfpmath-dev), the library
// MongoDB itself links (src/third_party/IntelRDFPMathLib20U1), so results
// round exactly as the server's do. Strings follow the BSON Decimal128
// specification (mongodb/specifications source/bson-decimal128), which the
// server's Decimal128::toString, libbson and the shell's bson library share.
//
// A Decimal128 is a plain value: copyable, thread-compatible.
#ifndef TTLDB_DECIMAL128_H_
#define TTLDB_DECIMAL128_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ttldb {

class Decimal128 {
 public:
  Decimal128() = default;  // 0 (0E+0)
  constexpr Decimal128(uint64_t high, uint64_t low) : high_(high), low_(low) {}

  // Parses the specification's grammar: [sign] digits ['.' digits]
  // [e|E [sign] digits], or [sign] Inf / Infinity / NaN in any case. The
  // value must be representable exactly (at most 34 significant digits once
  // trailing zeros are clamped into the exponent; exponent within range), as
  // the shell's Decimal128.fromString and mongoimport require. Otherwise
  // InvalidArgument naming the string.
  static absl::StatusOr<Decimal128> FromString(absl::string_view s);

  // Exact.
  static Decimal128 FromInt64(int64_t v);
  // MongoDB's Decimal128(double): the double rounded to 15 significant
  // digits (0.1 -> 0.100000000000000), NaN and infinities kept. What $inc and
  // $mul use when a double meets a decimal (mongo/util/safe_num.cpp).
  static Decimal128 FromDouble(double d);
  // The decimal nearest to d with up to 34 digits (exact when d has at
  // most 34 significant decimal digits).
  static Decimal128 FromDoubleNearest(double d);

  static Decimal128 NaN() { return Decimal128(0x7c00000000000000ull, 0); }

  // The specification's text: "1.5", "1.00", "-0", "1.000E+6144", "NaN",
  // "Infinity", "-Infinity"; scientific when the exponent is positive or the
  // adjusted exponent is below -6.
  std::string ToString() const;

  bool IsNaN() const;
  bool IsInfinite() const;
  bool IsZero() const;
  bool IsNegative() const;  // sign bit (so -0 and -NaN too)

  // Round-to-nearest-even arithmetic, as the server's default.
  Decimal128 Add(const Decimal128& o) const;
  Decimal128 Subtract(const Decimal128& o) const;
  Decimal128 Multiply(const Decimal128& o) const;
  // The aggregation operators' decimal arithmetic ($divide, $mod, $sqrt,
  // $exp, $ln, $log10, $pow), round-to-nearest-even as MongoDB's
  // Decimal128 (mongo/platform/decimal128.cpp). Modulo is bid128_fmod (the
  // sign of the dividend, as fmod).
  Decimal128 Divide(const Decimal128& o) const;
  Decimal128 Modulo(const Decimal128& o) const;
  Decimal128 Sqrt() const;
  Decimal128 Exp() const;
  Decimal128 Ln() const;
  Decimal128 Log10() const;
  Decimal128 Pow(const Decimal128& o) const;
  Decimal128 Abs() const;
  Decimal128 Negate() const;
  // Rounds to an integral value toward +infinity (Ceil) or -infinity
  // (Floor), keeping the value's exponent where it is already >= 0.
  Decimal128 Ceil() const;
  Decimal128 Floor() const;
  // Quantizes to exponent `exponent` (1E<exponent> as the quantum): ties to
  // even, or toward zero when `truncate`; NaN when the result needs more
  // than 34 digits (the library's invalid flag, reported in *invalid).
  Decimal128 Quantize(int exponent, bool truncate, bool* invalid) const;
  // The value rounded to the nearest int64 (ties to even), as MongoDB's
  // Decimal128::toLong; false when out of range or NaN.
  bool ToInt64RoundEven(int64_t* out) const;

  // A finite value as sign, coefficient and exponent (value = (-1)^negative
  // * coefficient * 10^exponent, coefficient < 10^34), and back. Parts
  // returns false for NaN and infinities.
  bool Parts(bool* negative, unsigned __int128* coefficient,
             int* exponent) const;
  static Decimal128 FromParts(bool negative, unsigned __int128 coefficient,
                              int exponent);

  // The double nearest (ties to even); *inexact, when given, tells whether
  // rounding happened.
  double ToDouble(bool* inexact = nullptr) const;
  // The double rounded toward negative infinity, and whether that rounded.
  double ToDoubleFloor(bool* inexact) const;
  // The value as an int64 when it is an integer in int64 range (1.00 and
  // 1E+2 are integers); false otherwise (fractions, NaN, infinities).
  bool ToInt64Exact(int64_t* out) const;
  // The value truncated toward zero, when that is in int64 range.
  bool TruncToInt64(int64_t* out) const;

  // Total order as MongoDB compares numbers (mongo/base/compare_numbers.h):
  // by numeric value, exactly, across types; every NaN is equal to every
  // NaN and below every other number; -0 == 0. Returns -1, 0 or 1.
  static int Compare(const Decimal128& a, const Decimal128& b);
  static int CompareToInt64(const Decimal128& a, int64_t b);
  static int CompareToDouble(const Decimal128& a, double b);

  uint64_t high() const { return high_; }
  uint64_t low() const { return low_; }

  // Bitwise identity (1.0 and 1.00 differ; use Compare for numeric
  // equality).
  friend bool operator==(const Decimal128& a, const Decimal128& b) {
    return a.high_ == b.high_ && a.low_ == b.low_;
  }

 private:
  uint64_t high_ = 0x3040000000000000ull;  // exponent 0 (bias 6176)
  uint64_t low_ = 0;
};

}  // namespace ttldb

#endif  // TTLDB_DECIMAL128_H_
