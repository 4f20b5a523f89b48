// Trigonometry: $sin $cos $tan $asin $acos $atan $atan2 $sinh $cosh $tanh
// $asinh $acosh $atanh $degreesToRadians $radiansToDegrees
// (src/mongo/db/pipeline/expression_trigonometric.h): null/missing gives
// null, non-numbers 28765, an argument outside the function's domain 50989
// "cannot apply $acos to -2, value must in [-1,1]". Results are doubles;
// a decimal argument is computed in double precision and returned as a
// decimal.
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::ExprError;
using internal::Nullish;
using internal::NumToDouble;
using internal::Ok;
using internal::Opt;
using internal::TypeNameOf;

constexpr double kInf = std::numeric_limits<double>::infinity();

struct TrigBounds {
  double lo, hi;
  bool lo_open, hi_open;
};

std::string BoundsText(const TrigBounds& b) {
  auto num = [](double d) {
    if (std::isinf(d)) return std::string(d < 0 ? "-inf" : "inf");
    return internal::FormatDoubleForMessage(d);
  };
  return absl::StrCat(b.lo_open ? "(" : "[", num(b.lo), ",", num(b.hi),
                      b.hi_open ? ")" : "]");
}

template <double (*F)(double)>
ExprResult Unary(const char* op, const TrigBounds& b, std::vector<Opt>& a) {
  const Opt& v = a[0];
  if (Nullish(v)) return internal::Null();
  if (!v->is_number()) {
    return ExprError(28765, absl::StrCat(op,
                                         " only supports numeric types, "
                                         "not ",
                                         TypeNameOf(v)));
  }
  const double x = NumToDouble(*v);
  if (!std::isnan(x)) {
    const bool below = b.lo_open ? x <= b.lo : x < b.lo;
    const bool above = b.hi_open ? x >= b.hi : x > b.hi;
    if (below || above) {
      return ExprError(50989, absl::StrCat("cannot apply ", op, " to ",
                                           internal::DebugString(v),
                                           ", value must in ", BoundsText(b)));
    }
  }
  const double r = F(x);
  if (v->type() == ValueType::kDecimal) {
    return Ok(Value::Decimal(Decimal128::FromDoubleNearest(r)));
  }
  return Ok(Value::Double(r));
}

constexpr TrigBounds kAll{-kInf, kInf, false, false};
constexpr TrigBounds kFinite{-kInf, kInf, true, true};
constexpr TrigBounds kUnit{-1, 1, false, false};
constexpr TrigBounds kOpenUnit{-1, 1, true, true};
constexpr TrigBounds kAtLeastOne{1, kInf, false, false};

double DegToRad(double d) { return d * M_PI / 180.0; }
double RadToDeg(double r) { return r * 180.0 / M_PI; }
double Sin(double x) { return std::sin(x); }
double Cos(double x) { return std::cos(x); }
double Tan(double x) { return std::tan(x); }
double Asin(double x) { return std::asin(x); }
double Acos(double x) { return std::acos(x); }
double Atan(double x) { return std::atan(x); }
double Sinh(double x) { return std::sinh(x); }
double Cosh(double x) { return std::cosh(x); }
double Tanh(double x) { return std::tanh(x); }
double Asinh(double x) { return std::asinh(x); }
double Acosh(double x) { return std::acosh(x); }
double Atanh(double x) { return std::atanh(x); }

ExprResult Atan2(std::vector<Opt>& a) {
  if (Nullish(a[0]) || Nullish(a[1])) return internal::Null();
  for (const Opt& v : a) {
    if (!v->is_number()) {
      return ExprError(51044, absl::StrCat("$atan2 only supports numeric "
                                           "types, not ",
                                           TypeNameOf(v)));
    }
  }
  const double r = std::atan2(NumToDouble(*a[0]), NumToDouble(*a[1]));
  if (a[0]->type() == ValueType::kDecimal ||
      a[1]->type() == ValueType::kDecimal) {
    return Ok(Value::Decimal(Decimal128::FromDoubleNearest(r)));
  }
  return Ok(Value::Double(r));
}

#define TTLDB_TRIG(name, fn, bounds)                         \
  TTLDB_REGISTER_EAGER(name, 1, 1, [](std::vector<Opt>& a) { \
    return Unary<fn>(name, bounds, a);                       \
  })

}  // namespace

void RegisterTrigOperators() {
  TTLDB_TRIG("$sin", Sin, kFinite);
  TTLDB_TRIG("$cos", Cos, kFinite);
  TTLDB_TRIG("$tan", Tan, kFinite);
  TTLDB_TRIG("$asin", Asin, kUnit);
  TTLDB_TRIG("$acos", Acos, kUnit);
  TTLDB_TRIG("$atan", Atan, kAll);
  TTLDB_TRIG("$sinh", Sinh, kAll);
  TTLDB_TRIG("$cosh", Cosh, kAll);
  TTLDB_TRIG("$tanh", Tanh, kAll);
  TTLDB_TRIG("$asinh", Asinh, kAll);
  TTLDB_TRIG("$acosh", Acosh, kAtLeastOne);
  TTLDB_TRIG("$atanh", Atanh, kOpenUnit);
  TTLDB_TRIG("$degreesToRadians", DegToRad, kAll);
  TTLDB_TRIG("$radiansToDegrees", RadToDeg, kAll);
  TTLDB_REGISTER_EAGER("$atan2", 2, 2, Atan2);
}

}  // namespace agg
}  // namespace ttldb
