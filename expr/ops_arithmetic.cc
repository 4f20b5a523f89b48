// Arithmetic operators: $add $subtract $multiply $divide $mod $abs $ceil
// $floor $round $trunc $sqrt $pow $exp $ln $log $log10, with MongoDB 8.0's
// numeric type promotion (src/mongo/db/exec/expression/evaluate_math.cpp):
// int op int overflowing becomes long, long overflowing becomes double,
// any double makes a double, any decimal a decimal; null or missing makes
// null.
#include <cmath>
#include <limits>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::ExprError;
using internal::IntOrLong;
using internal::Nullish;
using internal::NumToDecimal;
using internal::NumToDouble;
using internal::NumToLong;
using internal::Ok;
using internal::Opt;
using internal::TypeNameOf;

constexpr double kTwo63 = 9223372036854775808.0;

absl::Status Overflow(absl::string_view msg) {
  return ExprError(15, msg);  // ErrorCodes::Overflow
}

// evaluate_math.cpp AddState: separate long, double and decimal totals and
// the widest type seen; a date turns the total into milliseconds.
class AddState {
 public:
  absl::Status Add(const Value& operand) {
    ValueType old_widest = widest_;
    Value to_add;
    if (operand.is_date()) {
      if (is_date_) {
        return ExprError(16612, "only one date allowed in an $add expression");
      }
      Value old = Result();
      long_total_ = 0;
      RETURN_IF_ERROR(AddToDate(old));
      is_date_ = true;
      to_add = Value::Int64(operand.date_millis());
    } else {
      widest_ = internal::WidestNumeric(widest_, operand.type());
      to_add = operand;
    }
    if (is_date_) return AddToDate(to_add);
    if (old_widest != widest_) {
      if (widest_ == ValueType::kDouble) {
        double_total_ = static_cast<double>(long_total_);
      } else if (widest_ == ValueType::kDecimal) {
        decimal_total_ = old_widest == ValueType::kDouble
                             ? Decimal128::FromDouble(double_total_)
                             : Decimal128::FromInt64(long_total_);
      }
    }
    switch (widest_) {
      case ValueType::kInt32:
      case ValueType::kInt64: {
        int64_t sum;
        if (__builtin_add_overflow(long_total_, NumToLong(to_add), &sum)) {
          widest_ = ValueType::kDouble;
          double_total_ =
              static_cast<double>(long_total_) + NumToDouble(to_add);
        } else {
          long_total_ = sum;
        }
        break;
      }
      case ValueType::kDouble:
        double_total_ += NumToDouble(to_add);
        break;
      default:
        decimal_total_ = decimal_total_.Add(NumToDecimal(to_add));
        break;
    }
    return absl::OkStatus();
  }

  Value Result() const {
    if (is_date_) return Value::Date(long_total_);
    switch (widest_) {
      case ValueType::kInt32:
        return IntOrLong(long_total_);
      case ValueType::kInt64:
        return Value::Int64(long_total_);
      case ValueType::kDouble:
        return Value::Double(double_total_);
      default:
        return Value::Decimal(decimal_total_);
    }
  }

 private:
  absl::Status AddToDate(const Value& v) {
    int64_t add = 0;
    switch (v.type()) {
      case ValueType::kInt32:
      case ValueType::kInt64:
        add = v.int64_value();
        break;
      case ValueType::kDouble: {
        double d = v.double_value();
        if (!(d >= -kTwo63 && d < kTwo63)) return Overflow("date overflow");
        add = std::llround(d);
        break;
      }
      case ValueType::kDecimal:
        if (!v.decimal_value().ToInt64RoundEven(&add)) {
          return Overflow("date overflow");
        }
        break;
      default:
        break;
    }
    if (__builtin_add_overflow(long_total_, add, &long_total_)) {
      return Overflow("date overflow");
    }
    return absl::OkStatus();
  }

  int64_t long_total_ = 0;
  double double_total_ = 0;
  Decimal128 decimal_total_;
  ValueType widest_ = ValueType::kInt32;
  bool is_date_ = false;
};

ExprResult Add(std::vector<Opt>& args) {
  AddState state;
  for (const Opt& v : args) {
    if (Nullish(v)) return internal::Null();
    if (!v->is_number() && !v->is_date()) {
      return ExprError(14, absl::StrCat("$add only supports numeric or date "
                                        "types, not ",
                                        TypeNameOf(v)));
    }
    RETURN_IF_ERROR(state.Add(*v));
  }
  return Ok(state.Result());
}

ExprResult Multiply(std::vector<Opt>& args) {
  double double_product = 1;
  int64_t long_product = 1;
  Decimal128 decimal_product;
  ValueType type = ValueType::kInt32;
  for (const Opt& v : args) {
    if (Nullish(v)) return internal::Null();
    if (!v->is_number()) {
      return ExprError(14, absl::StrCat("$multiply only supports numeric "
                                        "types, not ",
                                        TypeNameOf(v)));
    }
    ValueType old = type;
    type = internal::WidestNumeric(type, v->type());
    if (type == ValueType::kDecimal) {
      if (old != ValueType::kDecimal) {
        decimal_product = old == ValueType::kDouble
                              ? Decimal128::FromDouble(double_product)
                              : Decimal128::FromInt64(long_product);
      }
      decimal_product = decimal_product.Multiply(NumToDecimal(*v));
    } else {
      double_product *= NumToDouble(*v);
      if (type != ValueType::kDouble) {
        if (!std::isfinite(NumToDouble(*v)) ||
            __builtin_mul_overflow(long_product, NumToLong(*v),
                                   &long_product)) {
          type = ValueType::kDouble;
        }
      }
    }
  }
  switch (type) {
    case ValueType::kDouble:
      return Ok(Value::Double(double_product));
    case ValueType::kInt64:
      return Ok(Value::Int64(long_product));
    case ValueType::kInt32:
      return Ok(IntOrLong(long_product));
    default:
      return Ok(Value::Decimal(decimal_product));
  }
}

ExprResult Subtract(std::vector<Opt>& args) {
  const Opt& lhs = args[0];
  const Opt& rhs = args[1];
  ValueType diff = ValueType::kNull;
  if (lhs && rhs) diff = internal::WidestNumeric(rhs->type(), lhs->type());
  switch (diff) {
    case ValueType::kDecimal:
      return Ok(
          Value::Decimal(NumToDecimal(*lhs).Subtract(NumToDecimal(*rhs))));
    case ValueType::kDouble:
      return Ok(Value::Double(NumToDouble(*lhs) - NumToDouble(*rhs)));
    case ValueType::kInt64: {
      int64_t r;
      if (__builtin_sub_overflow(NumToLong(*lhs), NumToLong(*rhs), &r)) {
        return Ok(Value::Double(NumToDouble(*lhs) - NumToDouble(*rhs)));
      }
      return Ok(Value::Int64(r));
    }
    case ValueType::kInt32:
      return Ok(IntOrLong(NumToLong(*lhs) - NumToLong(*rhs)));
    default:
      break;
  }
  if (Nullish(lhs) || Nullish(rhs)) return internal::Null();
  if (lhs->is_date()) {
    int64_t millis = lhs->date_millis();
    switch (rhs->type()) {
      case ValueType::kDate: {
        int64_t r;
        if (__builtin_sub_overflow(millis, rhs->date_millis(), &r)) {
          return Overflow("date overflow");
        }
        return Ok(Value::Int64(r));
      }
      case ValueType::kInt32:
      case ValueType::kInt64:
        if (__builtin_sub_overflow(millis, rhs->int64_value(), &millis)) {
          return Overflow("date overflow");
        }
        return Ok(Value::Date(millis));
      case ValueType::kDouble: {
        double d = rhs->double_value();
        if (d >= -kTwo63 && d < kTwo63 &&
            !__builtin_sub_overflow(millis, std::llround(d), &millis)) {
          return Ok(Value::Date(millis));
        }
        return Overflow("date overflow");
      }
      case ValueType::kDecimal: {
        int64_t r;
        if (!rhs->decimal_value().ToInt64RoundEven(&r) ||
            __builtin_sub_overflow(millis, r, &millis)) {
          return Overflow("date overflow");
        }
        return Ok(Value::Date(millis));
      }
      default:
        return ExprError(14, absl::StrCat("can't $subtract ", TypeNameOf(rhs),
                                          " from Date"));
    }
  }
  return ExprError(14, absl::StrCat("can't $subtract ", TypeNameOf(rhs),
                                    " from ", TypeNameOf(lhs)));
}

ExprResult Divide(std::vector<Opt>& args) {
  const Opt& lhs = args[0];
  const Opt& rhs = args[1];
  if (lhs && rhs && lhs->is_number() && rhs->is_number()) {
    if (lhs->type() == ValueType::kDecimal ||
        rhs->type() == ValueType::kDecimal) {
      Decimal128 denom = NumToDecimal(*rhs);
      if (denom.IsZero()) return ExprError(2, "can't $divide by zero");
      return Ok(Value::Decimal(NumToDecimal(*lhs).Divide(denom)));
    }
    double denom = NumToDouble(*rhs);
    if (denom == 0.0) return ExprError(2, "can't $divide by zero");
    return Ok(Value::Double(NumToDouble(*lhs) / denom));
  }
  if (Nullish(lhs) || Nullish(rhs)) return internal::Null();
  return ExprError(14, absl::StrCat("$divide only supports numeric types, not ",
                                    TypeNameOf(lhs), " and ", TypeNameOf(rhs)));
}

ExprResult Mod(std::vector<Opt>& args) {
  const Opt& lhs = args[0];
  const Opt& rhs = args[1];
  if (lhs && rhs && lhs->is_number() && rhs->is_number()) {
    ValueType lt = lhs->type(), rt = rhs->type();
    if (lt == ValueType::kDecimal || rt == ValueType::kDecimal) {
      Decimal128 right = NumToDecimal(*rhs);
      if (right.IsZero()) return ExprError(5733415, "can't $mod by zero");
      return Ok(Value::Decimal(NumToDecimal(*lhs).Modulo(right)));
    }
    double right = NumToDouble(*rhs);
    if (right == 0) return ExprError(16610, "can't $mod by zero");
    if (lt == ValueType::kDouble || rt == ValueType::kDouble) {
      return Ok(Value::Double(std::fmod(NumToDouble(*lhs), right)));
    }
    int64_t l = NumToLong(*lhs), r = NumToLong(*rhs);
    // overflow::safeMod: x % -1 is 0 (avoids INT_MIN % -1).
    int64_t m = r == -1 ? 0 : l % r;
    if (lt == ValueType::kInt64 || rt == ValueType::kInt64) {
      return Ok(Value::Int64(m));
    }
    return Ok(Value::Int32(static_cast<int32_t>(m)));
  }
  if (Nullish(lhs) || Nullish(rhs)) return internal::Null();
  return ExprError(16611,
                   absl::StrCat("$mod only supports numeric types, not ",
                                TypeNameOf(lhs), " and ", TypeNameOf(rhs)));
}

// ExpressionSingleNumericArg: null/missing -> null; non-numbers -> 28765.
absl::Status CheckSingleNumeric(absl::string_view op, const Opt& v) {
  if (!v->is_number()) {
    return ExprError(28765, absl::StrCat(op,
                                         " only supports numeric types, "
                                         "not ",
                                         TypeNameOf(v)));
  }
  return absl::OkStatus();
}

ExprResult Abs(std::vector<Opt>& args) {
  const Opt& v = args[0];
  if (Nullish(v)) return internal::Null();
  RETURN_IF_ERROR(CheckSingleNumeric("$abs", v));
  switch (v->type()) {
    case ValueType::kDouble:
      return Ok(Value::Double(std::fabs(v->double_value())));
    case ValueType::kDecimal:
      return Ok(Value::Decimal(v->decimal_value().Abs()));
    default: {
      int64_t n = v->int64_value();
      if (n == std::numeric_limits<int64_t>::min()) {
        return ExprError(28680, "can't take $abs of long long min");
      }
      int64_t a = n < 0 ? -n : n;
      return Ok(v->type() == ValueType::kInt64 ? Value::Int64(a)
                                               : IntOrLong(a));
    }
  }
}

template <double (*DoubleOp)(double), bool kCeil>
ExprResult CeilOrFloor(absl::string_view op, std::vector<Opt>& args) {
  const Opt& v = args[0];
  if (Nullish(v)) return internal::Null();
  RETURN_IF_ERROR(CheckSingleNumeric(op, v));
  switch (v->type()) {
    case ValueType::kDouble:
      return Ok(Value::Double(DoubleOp(v->double_value())));
    case ValueType::kDecimal:
      return Ok(Value::Decimal(kCeil ? v->decimal_value().Ceil()
                                     : v->decimal_value().Floor()));
    default:
      return Ok(*v);  // integers are their own ceiling and floor
  }
}

double CeilD(double d) { return std::ceil(d); }
double FloorD(double d) { return std::floor(d); }

ExprResult Ceil(std::vector<Opt>& args) {
  return CeilOrFloor<CeilD, true>("$ceil", args);
}
ExprResult Floor(std::vector<Opt>& args) {
  return CeilOrFloor<FloorD, false>("$floor", args);
}

ExprResult Sqrt(std::vector<Opt>& args) {
  const Opt& v = args[0];
  if (Nullish(v)) return internal::Null();
  RETURN_IF_ERROR(CheckSingleNumeric("$sqrt", v));
  if (v->type() == ValueType::kDecimal) {
    const Decimal128& d = v->decimal_value();
    if (d.IsNegative() && !d.IsZero() && !d.IsNaN()) {
      return ExprError(28714,
                       "$sqrt's argument must be greater than or equal to 0");
    }
    return Ok(Value::Decimal(d.Sqrt()));
  }
  double d = NumToDouble(*v);
  if (d < 0) {
    return ExprError(28714,
                     "$sqrt's argument must be greater than or equal to 0");
  }
  return Ok(Value::Double(std::sqrt(d)));
}

ExprResult Exp(std::vector<Opt>& args) {
  const Opt& v = args[0];
  if (Nullish(v)) return internal::Null();
  RETURN_IF_ERROR(CheckSingleNumeric("$exp", v));
  if (v->type() == ValueType::kDecimal) {
    return Ok(Value::Decimal(v->decimal_value().Exp()));
  }
  return Ok(Value::Double(std::exp(NumToDouble(*v))));
}

// $ln and $log10: the argument must be positive (NaN passes through).
template <bool kLn>
ExprResult LogOf(std::vector<Opt>& args) {
  const char* op = kLn ? "$ln" : "$log10";
  const Opt& v = args[0];
  if (Nullish(v)) return internal::Null();
  RETURN_IF_ERROR(CheckSingleNumeric(op, v));
  if (v->type() == ValueType::kDecimal) {
    const Decimal128& d = v->decimal_value();
    if (!d.IsNaN() && (d.IsNegative() || d.IsZero())) {
      return ExprError(kLn ? 28766 : 28761,
                       absl::StrCat(op,
                                    "'s argument must be a positive "
                                    "number, but is ",
                                    d.ToString()));
    }
    return Ok(Value::Decimal(kLn ? d.Ln() : d.Log10()));
  }
  double d = NumToDouble(*v);
  if (!(d > 0) && !std::isnan(d)) {
    return ExprError(kLn ? 28766 : 28761,
                     absl::StrCat(op,
                                  "'s argument must be a positive "
                                  "number, but is ",
                                  internal::DebugString(v)));
  }
  return Ok(Value::Double(kLn ? std::log(d) : std::log10(d)));
}

ExprResult Log(std::vector<Opt>& args) {
  const Opt& arg = args[0];
  const Opt& base = args[1];
  if (Nullish(arg) || Nullish(base)) return internal::Null();
  if (!arg->is_number()) {
    return ExprError(28756, absl::StrCat("$log's argument must be numeric, "
                                         "not ",
                                         TypeNameOf(arg)));
  }
  if (!base->is_number()) {
    return ExprError(28757, absl::StrCat("$log's base must be numeric, not ",
                                         TypeNameOf(base)));
  }
  if (arg->type() == ValueType::kDecimal ||
      base->type() == ValueType::kDecimal) {
    Decimal128 a = NumToDecimal(*arg), b = NumToDecimal(*base);
    Decimal128 zero;
    if (Decimal128::Compare(a, zero) > 0 &&
        Decimal128::Compare(b, Decimal128::FromInt64(1)) != 0 &&
        Decimal128::Compare(b, zero) > 0) {
      return Ok(Value::Decimal(a.Ln().Divide(b.Ln())));
    }
  }
  double a = NumToDouble(*arg), b = NumToDouble(*base);
  if (!(a > 0 || std::isnan(a))) {
    return ExprError(28758, absl::StrCat("$log's argument must be a positive "
                                         "number, but is ",
                                         internal::FormatDoubleForMessage(a)));
  }
  if (!((b > 0 && b != 1) || std::isnan(b))) {
    return ExprError(28759,
                     absl::StrCat("$log's base must be a positive number not "
                                  "equal to 1, but is ",
                                  internal::FormatDoubleForMessage(b)));
  }
  return Ok(Value::Double(std::log(a) / std::log(b)));
}

ExprResult Pow(std::vector<Opt>& args) {
  const Opt& base = args[0];
  const Opt& exp = args[1];
  if (Nullish(base) || Nullish(exp)) return internal::Null();
  if (!base->is_number()) {
    return ExprError(28762, absl::StrCat("$pow's base must be numeric, not ",
                                         TypeNameOf(base)));
  }
  if (!exp->is_number()) {
    return ExprError(28763, absl::StrCat("$pow's exponent must be numeric, "
                                         "not ",
                                         TypeNameOf(exp)));
  }
  auto zero_negative = [&]() {
    return ExprError(28764,
                     "$pow cannot take a base of 0 and a negative exponent");
  };
  if (NumToDouble(*base) == 0 && NumToDouble(*exp) < 0) return zero_negative();
  ValueType bt = base->type(), et = exp->type();
  if (bt == ValueType::kDecimal || et == ValueType::kDecimal) {
    return Ok(Value::Decimal(NumToDecimal(*base).Pow(NumToDecimal(*exp))));
  }
  if (bt == ValueType::kDouble || et == ValueType::kDouble) {
    return Ok(Value::Double(std::pow(NumToDouble(*base), NumToDouble(*exp))));
  }
  int64_t b = base->int64_value(), e = exp->int64_value();
  if (e < 0 && b != 1 && b != -1) {
    return Ok(Value::Double(
        std::pow(static_cast<double>(b), static_cast<double>(e))));
  }
  // Integer power by repeated squaring; on overflow the double result.
  int64_t result = 1;
  if (b == 1) {
    result = 1;
  } else if (b == -1) {
    result = (e % 2 == 0) ? 1 : -1;
  } else {
    int64_t x = b;
    int64_t n = e;
    bool overflow = false;
    while (n > 0 && !overflow) {
      if (n & 1) overflow |= __builtin_mul_overflow(result, x, &result);
      n >>= 1;
      if (n > 0) overflow |= __builtin_mul_overflow(x, x, &x);
    }
    if (overflow) {
      return Ok(Value::Double(
          std::pow(static_cast<double>(b), static_cast<double>(e))));
    }
  }
  if (bt == ValueType::kInt32 && et == ValueType::kInt32) {
    return Ok(IntOrLong(result));
  }
  return Ok(Value::Int64(result));
}

// evaluateRoundOrTrunc: place in [-20, 100]; doubles go through the
// nearest Decimal128 and back; integers with place >= 0 are unchanged.
template <bool kTruncate>
ExprResult RoundOrTrunc(std::vector<Opt>& args) {
  const char* op = kTruncate ? "$trunc" : "$round";
  const Opt& num = args[0];
  if (Nullish(num)) return internal::Null();
  if (!num->is_number()) {
    return ExprError(51081, absl::StrCat(op,
                                         " only supports numeric types, "
                                         "not ",
                                         TypeNameOf(num)));
  }
  int64_t place = 0;
  if (args.size() > 1) {
    const Opt& p = args[1];
    if (Nullish(p)) return internal::Null();
    if (!p->is_number()) {
      // coerceToLong of a non-number throws in MongoDB; report as 51082.
      return ExprError(51082, absl::StrCat("precision argument to  ", op,
                                           " must be a integral value"));
    }
    place = NumToLong(*p);
    if (!internal::IsIntegral32(*p)) {
      return ExprError(51082, absl::StrCat("precision argument to  ", op,
                                           " must be a integral value"));
    }
    if (place < -20 || place > 100) {
      return ExprError(
          51083, absl::StrCat("cannot apply ", op, " with precision value ",
                              place, " value must be in [-20, 100]"));
    }
  }
  int exponent = static_cast<int>(-place);
  switch (num->type()) {
    case ValueType::kDecimal: {
      if (num->decimal_value().IsInfinite()) return Ok(*num);
      return Ok(Value::Decimal(
          num->decimal_value().Quantize(exponent, kTruncate, nullptr)));
    }
    case ValueType::kDouble: {
      Decimal128 d = Decimal128::FromDoubleNearest(num->double_value());
      if (d.IsInfinite()) return Ok(*num);
      return Ok(
          Value::Double(d.Quantize(exponent, kTruncate, nullptr).ToDouble()));
    }
    default: {
      if (place >= 0) return Ok(*num);
      int64_t n = num->int64_value();
      bool invalid = false;
      Decimal128 q =
          Decimal128::FromInt64(n).Quantize(exponent, kTruncate, &invalid);
      int64_t out = 0;
      if (invalid || !q.ToInt64RoundEven(&out)) {
        return ExprError(51080, absl::StrCat("invalid conversion from "
                                             "Decimal128 result in ",
                                             op, " resulting from arguments: [",
                                             n, ", ", place, "]"));
      }
      if (num->type() == ValueType::kInt64 ||
          out > std::numeric_limits<int32_t>::max() ||
          out < std::numeric_limits<int32_t>::min()) {
        return Ok(Value::Int64(out));
      }
      return Ok(Value::Int32(static_cast<int32_t>(out)));
    }
  }
}

// $rand: a double in [0, 1), fresh on every evaluation (never constant).
class RandExpr : public Expression {
 public:
  ExprResult Evaluate(const Value&, Variables*) const override {
    thread_local absl::BitGen gen;
    return Ok(Value::Double(absl::Uniform<double>(gen, 0.0, 1.0)));
  }
};

internal::ParseResult ParseRand(const Value& operand, ParseContext*) {
  if (!operand.is_object() || !operand.object_fields().empty()) {
    return ExprError(3040501, "$rand does not currently accept arguments");
  }
  return internal::ExprPtr(new RandExpr());
}

// ---- $bitAnd $bitOr $bitXor $bitNot (MongoDB 6.3+) ----

// The fold operators (expression.cpp evaluateBitwiseOp): null when an
// operand is nullish, 14 when one is not an int or a long; an int unless a
// long took part. The identity (no operand) is the int -1 for $bitAnd, 0
// for the others.
enum class BitOp { kAnd, kOr, kXor };

template <BitOp kOp>
ExprResult BitFold(std::vector<Opt>& args) {
  const char* op = kOp == BitOp::kAnd  ? "$bitAnd"
                   : kOp == BitOp::kOr ? "$bitOr"
                                       : "$bitXor";
  int64_t acc = kOp == BitOp::kAnd ? -1 : 0;
  bool is_long = false;
  for (const Opt& v : args) {
    if (Nullish(v)) return internal::Null();
    if (v->type() != ValueType::kInt32 && v->type() != ValueType::kInt64) {
      return ExprError(
          kTypeMismatch,
          absl::StrCat(op, " only supports int and long operands."));
    }
    is_long = is_long || v->type() == ValueType::kInt64;
    const int64_t n = v->int64_value();
    acc = kOp == BitOp::kAnd  ? (acc & n)
          : kOp == BitOp::kOr ? (acc | n)
                              : (acc ^ n);
  }
  return Ok(is_long ? Value::Int64(acc)
                    : Value::Int32(static_cast<int32_t>(acc)));
}

// $bitNot (ExpressionBitNot): 28765 for a non-number, 14 for a double or a
// decimal.
ExprResult BitNot(std::vector<Opt>& args) {
  const Opt& v = args[0];
  if (Nullish(v)) return internal::Null();
  RETURN_IF_ERROR(CheckSingleNumeric("$bitNot", v));
  if (v->type() == ValueType::kInt32) {
    return Ok(Value::Int32(~v->int32_value()));
  }
  if (v->type() == ValueType::kInt64)
    return Ok(Value::Int64(~v->int64_value()));
  return ExprError(kTypeMismatch, absl::StrCat("$bitNot only supports int and "
                                               "long, not: ",
                                               TypeNameOf(v), "."));
}

}  // namespace

void RegisterArithmeticOperators() {
  RegisterOperator("$rand", ParseRand);
  TTLDB_REGISTER_EAGER("$add", 0, -1, Add);
  TTLDB_REGISTER_EAGER("$multiply", 0, -1, Multiply);
  TTLDB_REGISTER_EAGER("$subtract", 2, 2, Subtract);
  TTLDB_REGISTER_EAGER("$divide", 2, 2, Divide);
  TTLDB_REGISTER_EAGER("$mod", 2, 2, Mod);
  TTLDB_REGISTER_EAGER("$abs", 1, 1, Abs);
  TTLDB_REGISTER_EAGER("$ceil", 1, 1, Ceil);
  TTLDB_REGISTER_EAGER("$floor", 1, 1, Floor);
  TTLDB_REGISTER_EAGER("$sqrt", 1, 1, Sqrt);
  TTLDB_REGISTER_EAGER("$exp", 1, 1, Exp);
  TTLDB_REGISTER_EAGER("$ln", 1, 1, LogOf<true>);
  TTLDB_REGISTER_EAGER("$log10", 1, 1, LogOf<false>);
  TTLDB_REGISTER_EAGER("$log", 2, 2, Log);
  TTLDB_REGISTER_EAGER("$pow", 2, 2, Pow);
  TTLDB_REGISTER_EAGER("$round", 1, 2, RoundOrTrunc<false>);
  TTLDB_REGISTER_EAGER("$trunc", 1, 2, RoundOrTrunc<true>);
  TTLDB_REGISTER_EAGER("$bitAnd", 0, -1, BitFold<BitOp::kAnd>);
  TTLDB_REGISTER_EAGER("$bitOr", 0, -1, BitFold<BitOp::kOr>);
  TTLDB_REGISTER_EAGER("$bitXor", 0, -1, BitFold<BitOp::kXor>);
  TTLDB_REGISTER_EAGER("$bitNot", 1, 1, BitNot);
}

}  // namespace agg
}  // namespace ttldb
