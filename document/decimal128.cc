#include "ttldb/decimal128.h"

#include <cmath>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

// The library's configuration as MongoDB builds it: arguments by value,
// rounding mode and status flags passed per call (no globals, so calls are
// thread-safe). Debian ships this variant as libbidgcc000.a.
#define DECIMAL_CALL_BY_REFERENCE 0
#define DECIMAL_GLOBAL_ROUNDING 0
#define DECIMAL_GLOBAL_EXCEPTION_FLAGS 0
extern "C" {
#include <bid_conf.h>
#include <bid_functions.h>
}

namespace ttldb {
namespace {

BID_UINT128 Lib(const Decimal128& d) {
  BID_UINT128 x;
  x.w[1] = d.high();  // little-endian word order (x86_64, aarch64)
  x.w[0] = d.low();
  return x;
}

Decimal128 FromLib(BID_UINT128 x) { return Decimal128(x.w[1], x.w[0]); }

// 1E<exponent>, for quantizing.
Decimal128 PowerOfTen(int exponent) {
  constexpr int kExponentBias = 6176;
  return Decimal128(static_cast<uint64_t>(exponent + kExponentBias) << 49, 1);
}

// The specification's grammar, before the library (which reads "abc" as NaN
// without complaint) sees the string.
bool ValidSyntax(absl::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::string rest = absl::AsciiStrToLower(s.substr(i));
  if (rest == "inf" || rest == "infinity" || rest == "nan") return true;
  size_t j = 0, digits = 0;
  while (j < rest.size() && absl::ascii_isdigit(rest[j])) ++j, ++digits;
  if (j < rest.size() && rest[j] == '.') {
    ++j;
    while (j < rest.size() && absl::ascii_isdigit(rest[j])) ++j, ++digits;
  }
  if (digits == 0) return false;
  if (j == rest.size()) return true;
  if (rest[j] != 'e') return false;
  ++j;
  if (j < rest.size() && (rest[j] == '+' || rest[j] == '-')) ++j;
  size_t exp_digits = 0;
  while (j < rest.size() && absl::ascii_isdigit(rest[j])) ++j, ++exp_digits;
  return exp_digits > 0 && j == rest.size();
}

// Whether the digits before any exponent are all zeros (s is valid syntax).
bool ZeroCoefficient(absl::string_view s) {
  for (char c : s) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return false;
    if (c == 'i' || c == 'I' || c == 'n' || c == 'N') return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<Decimal128> Decimal128::FromString(absl::string_view s) {
  if (!ValidSyntax(s)) {
    return absl::InvalidArgumentError(
        absl::StrCat("\"", s, "\" is not a valid Decimal128 string"));
  }
  std::string lower = absl::AsciiStrToLower(s);
  _IDEC_flags flags = 0;
  BID_UINT128 x =
      bid128_from_string(lower.data(), BID_ROUNDING_TO_NEAREST, &flags);
  // A zero is clamped into the exponent range without loss of value (the
  // specification's "0E+8000" reads as 0E+6111); "1E-6177" is not a zero.
  if (!ZeroCoefficient(s) &&
      (flags & (BID_INEXACT_EXCEPTION | BID_OVERFLOW_EXCEPTION |
                BID_UNDERFLOW_EXCEPTION))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "\"", s,
        "\" is not a valid Decimal128 string: it cannot be represented "
        "exactly (at most 34 significant digits, exponent -6176..6111)"));
  }
  return FromLib(x);
}

Decimal128 Decimal128::FromInt64(int64_t v) {
  return FromLib(bid128_from_int64(v));
}

Decimal128 Decimal128::FromDoubleNearest(double d) {
  _IDEC_flags flags = 0;
  return FromLib(binary64_to_bid128(d, BID_ROUNDING_TO_NEAREST, &flags));
}

Decimal128 Decimal128::FromDouble(double d) {
  _IDEC_flags flags = 0;
  Decimal128 exact =
      FromLib(binary64_to_bid128(d, BID_ROUNDING_TO_NEAREST, &flags));
  if (d == 0 || !std::isfinite(d)) return exact;
  // floor(log10(2^e)) for the double's binary exponent e, by integer
  // arithmetic; |d| < 2^(e+1), so the true decimal exponent is this or one
  // more. Quantize to 15 digits at the lower guess, then retry one higher if
  // that left 16 digits (trying low first keeps 0.999999999999999 from
  // becoming 1.00000000000000).
  int e2;
  std::frexp(d, &e2);
  --e2;
  int e10 = (e2 * 30103) / 100000;
  if (e2 < 0) --e10;
  constexpr uint64_t kMax15Digits = 999999999999999ull;
  Decimal128 q = FromLib(bid128_quantize(Lib(exact), Lib(PowerOfTen(e10 - 14)),
                                         BID_ROUNDING_TO_NEAREST, &flags));
  if ((q.high_ & ((uint64_t{1} << 49) - 1)) != 0 || q.low_ > kMax15Digits) {
    q = FromLib(bid128_quantize(Lib(exact), Lib(PowerOfTen(e10 - 13)),
                                BID_ROUNDING_TO_NEAREST, &flags));
  }
  return q;
}

std::string Decimal128::ToString() const {
  BID_UINT128 x = Lib(*this);
  if (bid128_isNaN(x)) return "NaN";
  if (bid128_isInf(x)) return bid128_isSigned(x) ? "-Infinity" : "Infinity";
  // The library writes sign, coefficient digits, 'E', signed exponent:
  // "+15E-1".
  char buf[64];
  _IDEC_flags flags = 0;
  bid128_to_string(buf, x, &flags);
  std::string raw(buf);
  size_t e = raw.find('E');
  std::string digits = raw.substr(1, e - 1);
  int exponent = std::atoi(raw.c_str() + e + 1);
  int adjusted = exponent + static_cast<int>(digits.size()) - 1;
  std::string out = raw[0] == '-' ? "-" : "";
  if (exponent > 0 || adjusted < -6) {
    out.push_back(digits[0]);
    if (digits.size() > 1) {
      out.push_back('.');
      out.append(digits.substr(1));
    }
    absl::StrAppend(&out, "E", adjusted >= 0 ? "+" : "", adjusted);
  } else if (exponent == 0) {
    out.append(digits);
  } else {
    int frac = -exponent;
    int n = static_cast<int>(digits.size());
    if (n > frac) {
      out.append(digits.substr(0, n - frac));
      out.push_back('.');
      out.append(digits.substr(n - frac));
    } else {
      out.append("0.");
      out.append(frac - n, '0');
      out.append(digits);
    }
  }
  return out;
}

bool Decimal128::IsNaN() const { return bid128_isNaN(Lib(*this)); }
bool Decimal128::IsInfinite() const { return bid128_isInf(Lib(*this)); }
bool Decimal128::IsZero() const { return bid128_isZero(Lib(*this)); }
bool Decimal128::IsNegative() const { return bid128_isSigned(Lib(*this)); }

Decimal128 Decimal128::Add(const Decimal128& o) const {
  _IDEC_flags flags = 0;
  return FromLib(
      bid128_add(Lib(*this), Lib(o), BID_ROUNDING_TO_NEAREST, &flags));
}

Decimal128 Decimal128::Subtract(const Decimal128& o) const {
  _IDEC_flags flags = 0;
  return FromLib(
      bid128_sub(Lib(*this), Lib(o), BID_ROUNDING_TO_NEAREST, &flags));
}

bool Decimal128::Parts(bool* negative, unsigned __int128* coefficient,
                       int* exponent) const {
  BID_UINT128 x = Lib(*this);
  if (bid128_isNaN(x) || bid128_isInf(x)) return false;
  *negative = (high_ >> 63) != 0;
  constexpr unsigned __int128 kMaxCoefficient =
      static_cast<unsigned __int128>(9999999999999999999ull) *
          1000000000000000ull +
      999999999999999ull;  // 10^34 - 1
  if (((high_ >> 61) & 3) == 3) {
    // The "11" combination form: coefficients of 2^113 and up, all
    // non-canonical and read as zero (the specification's "invalid
    // representation treated as 0").
    *coefficient = 0;
    *exponent = static_cast<int>((high_ >> 47) & 0x3FFF) - 6176;
    return true;
  }
  unsigned __int128 c =
      (static_cast<unsigned __int128>(high_ & ((uint64_t{1} << 49) - 1))
       << 64) |
      low_;
  *coefficient = c > kMaxCoefficient ? 0 : c;
  *exponent = static_cast<int>((high_ >> 49) & 0x3FFF) - 6176;
  return true;
}

Decimal128 Decimal128::FromParts(bool negative, unsigned __int128 coefficient,
                                 int exponent) {
  uint64_t high = (negative ? uint64_t{1} << 63 : 0) |
                  (static_cast<uint64_t>(exponent + 6176) << 49) |
                  static_cast<uint64_t>(coefficient >> 64);
  return Decimal128(high, static_cast<uint64_t>(coefficient));
}

Decimal128 Decimal128::Multiply(const Decimal128& o) const {
  _IDEC_flags flags = 0;
  return FromLib(
      bid128_mul(Lib(*this), Lib(o), BID_ROUNDING_TO_NEAREST, &flags));
}

Decimal128 Decimal128::Divide(const Decimal128& o) const {
  _IDEC_flags flags = 0;
  return FromLib(
      bid128_div(Lib(*this), Lib(o), BID_ROUNDING_TO_NEAREST, &flags));
}

Decimal128 Decimal128::Modulo(const Decimal128& o) const {
  _IDEC_flags flags = 0;
  return FromLib(bid128_fmod(Lib(*this), Lib(o), &flags));
}

Decimal128 Decimal128::Sqrt() const {
  _IDEC_flags flags = 0;
  return FromLib(bid128_sqrt(Lib(*this), BID_ROUNDING_TO_NEAREST, &flags));
}

Decimal128 Decimal128::Exp() const {
  _IDEC_flags flags = 0;
  return FromLib(bid128_exp(Lib(*this), BID_ROUNDING_TO_NEAREST, &flags));
}

Decimal128 Decimal128::Ln() const {
  _IDEC_flags flags = 0;
  return FromLib(bid128_log(Lib(*this), BID_ROUNDING_TO_NEAREST, &flags));
}

Decimal128 Decimal128::Log10() const {
  _IDEC_flags flags = 0;
  return FromLib(bid128_log10(Lib(*this), BID_ROUNDING_TO_NEAREST, &flags));
}

Decimal128 Decimal128::Pow(const Decimal128& o) const {
  _IDEC_flags flags = 0;
  return FromLib(
      bid128_pow(Lib(*this), Lib(o), BID_ROUNDING_TO_NEAREST, &flags));
}

Decimal128 Decimal128::Abs() const { return FromLib(bid128_abs(Lib(*this))); }

Decimal128 Decimal128::Negate() const {
  return FromLib(bid128_negate(Lib(*this)));
}

Decimal128 Decimal128::Ceil() const {
  _IDEC_flags flags = 0;
  return FromLib(bid128_round_integral_positive(Lib(*this), &flags));
}

Decimal128 Decimal128::Floor() const {
  _IDEC_flags flags = 0;
  return FromLib(bid128_round_integral_negative(Lib(*this), &flags));
}

Decimal128 Decimal128::Quantize(int exponent, bool truncate,
                                bool* invalid) const {
  _IDEC_flags flags = 0;
  Decimal128 q = FromLib(bid128_quantize(
      Lib(*this), Lib(PowerOfTen(exponent)),
      truncate ? BID_ROUNDING_TO_ZERO : BID_ROUNDING_TO_NEAREST, &flags));
  if (invalid != nullptr) *invalid = (flags & BID_INVALID_EXCEPTION) != 0;
  return q;
}

bool Decimal128::ToInt64RoundEven(int64_t* out) const {
  _IDEC_flags flags = 0;
  int64_t v = bid128_to_int64_rnint(Lib(*this), &flags);
  if (flags & BID_INVALID_EXCEPTION) return false;
  *out = v;
  return true;
}

double Decimal128::ToDouble(bool* inexact) const {
  _IDEC_flags flags = 0;
  double d = bid128_to_binary64(Lib(*this), BID_ROUNDING_TO_NEAREST, &flags);
  if (inexact != nullptr) *inexact = (flags & BID_INEXACT_EXCEPTION) != 0;
  return d;
}

double Decimal128::ToDoubleFloor(bool* inexact) const {
  _IDEC_flags flags = 0;
  double d = bid128_to_binary64(Lib(*this), BID_ROUNDING_DOWN, &flags);
  *inexact = (flags & BID_INEXACT_EXCEPTION) != 0;
  return d;
}

bool Decimal128::ToInt64Exact(int64_t* out) const {
  _IDEC_flags flags = 0;
  BID_UINT128 x = Lib(*this);
  int64_t v = bid128_to_int64_int(x, &flags);
  if (flags & BID_INVALID_EXCEPTION) return false;
  if (!bid128_quiet_equal(x, bid128_from_int64(v), &flags)) return false;
  *out = v;
  return true;
}

bool Decimal128::TruncToInt64(int64_t* out) const {
  _IDEC_flags flags = 0;
  int64_t v = bid128_to_int64_int(Lib(*this), &flags);
  if (flags & BID_INVALID_EXCEPTION) return false;
  *out = v;
  return true;
}

int Decimal128::Compare(const Decimal128& a, const Decimal128& b) {
  _IDEC_flags flags = 0;
  BID_UINT128 x = Lib(a), y = Lib(b);
  if (bid128_quiet_greater(x, y, &flags)) return 1;
  if (bid128_quiet_less(x, y, &flags)) return -1;
  bool xn = bid128_isNaN(x), yn = bid128_isNaN(y);
  if (xn) return yn ? 0 : -1;
  if (yn) return 1;
  return 0;
}

int Decimal128::CompareToInt64(const Decimal128& a, int64_t b) {
  return Compare(a, FromInt64(b));
}

int Decimal128::CompareToDouble(const Decimal128& a, double b) {
  // Rounding toward negative infinity: if the rounded value equals b but
  // rounding happened, a was above it.
  bool inexact;
  double d = a.ToDoubleFloor(&inexact);
  if (d == b) return inexact ? 1 : 0;
  if (d < b) return -1;
  if (d > b) return 1;
  if (a.IsNaN()) return std::isnan(b) ? 0 : -1;
  return 1;  // b is NaN
}

}  // namespace ttldb
