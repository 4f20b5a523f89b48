// Type operators: $type, $isNumber, $convert ({input, to, onError,
// onNull}) and its shorthands $toString $toInt $toLong $toDouble
// $toDecimal $toBool $toDate $toObjectId. The conversion table and its
// messages follow src/mongo/db/exec/expression/evaluate_math.cpp
// (ConversionTable); a failed conversion is 241 ConversionFailure, which
// onError catches.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "document/bson_hash.h"
#include "expr/date_util.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::DebugString;
using internal::ExprError;
using internal::ExprPtr;
using internal::Nullish;
using internal::Ok;
using internal::Opt;
using internal::ParseResult;
using internal::TypeNameOf;

ExprResult TypeOp(std::vector<Opt>& a) {
  return Ok(Value::String(TypeNameOf(a[0])));
}

// $toHashedIndexKey: the hashed index key of the value, a long (missing
// hashes as null): expression.cpp ExpressionToHashedIndexKey, through
// BSONElementHasher::hash64 (document/bson_hash.h).
ExprResult ToHashedIndexKeyOp(std::vector<Opt>& a) {
  return Ok(Value::Int64(BsonHash64(a[0].has_value() ? *a[0] : Value::Null())));
}

ExprResult IsNumberOp(std::vector<Opt>& a) {
  return Ok(Value::Bool(a[0].has_value() && a[0]->is_number()));
}

// A $convert target: one of ttldb's types, or a BSON type ttldb does not
// model (named only for the "Unsupported conversion" message).
struct ConvertTarget {
  std::optional<ValueType> type;
  std::string name;
};

struct Alias {
  const char* name;
  int code;
  std::optional<ValueType> type;
};

const std::vector<Alias>& Aliases() {
  static const auto* aliases = new std::vector<Alias>{
      {"double", 1, ValueType::kDouble},
      {"string", 2, ValueType::kString},
      {"object", 3, ValueType::kObject},
      {"array", 4, ValueType::kArray},
      {"binData", 5, ValueType::kBinary},
      {"undefined", 6, std::nullopt},
      {"objectId", 7, ValueType::kObjectId},
      {"bool", 8, ValueType::kBool},
      {"date", 9, ValueType::kDate},
      {"null", 10, ValueType::kNull},
      {"regex", 11, ValueType::kRegex},
      {"dbPointer", 12, std::nullopt},
      {"javascript", 13, std::nullopt},
      {"symbol", 14, std::nullopt},
      {"javascriptWithScope", 15, std::nullopt},
      {"int", 16, ValueType::kInt32},
      {"timestamp", 17, ValueType::kTimestamp},
      {"long", 18, ValueType::kInt64},
      {"decimal", 19, ValueType::kDecimal},
      {"minKey", -1, ValueType::kMinKey},
      {"maxKey", 127, ValueType::kMaxKey},
  };
  return *aliases;
}

absl::StatusOr<ConvertTarget> ComputeTarget(const Value& to) {
  if (to.is_string()) {
    for (const Alias& a : Aliases()) {
      if (to.string_value() == a.name) return ConvertTarget{a.type, a.name};
    }
    return ExprError(2, absl::StrCat("Unknown type name: ", to.string_value()));
  }
  if (to.is_number()) {
    if (!internal::IsIntegral32(to)) {
      return ExprError(kFailedToParse,
                       "In $convert, numeric 'to' argument is not an integer");
    }
    int64_t code = internal::NumToLong(to);
    for (const Alias& a : Aliases()) {
      if (a.code == code) return ConvertTarget{a.type, a.name};
    }
    return ExprError(kFailedToParse,
                     absl::StrCat("In $convert, numeric value for 'to' does "
                                  "not correspond to a BSON type: ",
                                  code));
  }
  return ExprError(kFailedToParse,
                   absl::StrCat("$convert's 'to' argument must be a string or "
                                "number, but is ",
                                TypeName(to.type())));
}

absl::Status Failure(absl::string_view msg) {
  return ExprError(kConversionFailure, msg);
}

absl::Status Unsupported(const Value& in, const ConvertTarget& t) {
  return Failure(absl::StrCat("Unsupported conversion from ",
                              TypeName(in.type()), " to ", t.name,
                              " in $convert with no onError value"));
}

absl::Status ConvertOverflow(absl::string_view shown) {
  return Failure(
      absl::StrCat("Conversion would overflow target type in "
                   "$convert with no onError value: ",
                   shown));
}

// performFormatDouble: the shortest text that reads back as the same
// double.
std::string FormatDouble(double d) {
  if (std::isinf(d)) return d < 0 ? "-Infinity" : "Infinity";
  if (std::isnan(d)) return "NaN";
  if (d == 0 && std::signbit(d)) return "-0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), d);
  return std::string(buf, r.ptr);
}

absl::StatusOr<int64_t> DoubleToInt(double d, bool to_int) {
  if (std::isnan(d)) {
    return Failure(
        "Attempt to convert NaN value to integer type in $convert "
        "with no onError value");
  }
  if (std::isinf(d)) {
    return Failure(
        "Attempt to convert infinity value to integer type in "
        "$convert with no onError value");
  }
  bool fits = to_int
                  ? (d >= std::numeric_limits<int32_t>::lowest() &&
                     d <= std::numeric_limits<int32_t>::max())
                  : (d >= -9223372036854775808.0 && d < 9223372036854775808.0);
  if (!fits) return ConvertOverflow(internal::FormatDoubleForMessage(d));
  return static_cast<int64_t>(d);
}

absl::StatusOr<int64_t> DecimalToInt(const Decimal128& d, bool to_int) {
  if (d.IsNaN()) {
    return Failure(
        "Attempt to convert NaN value to integer type in $convert "
        "with no onError value");
  }
  if (d.IsInfinite()) {
    return Failure(
        "Attempt to convert infinity value to integer type in "
        "$convert with no onError value");
  }
  int64_t v;
  if (!d.TruncToInt64(&v) ||
      (to_int && (v < std::numeric_limits<int32_t>::min() ||
                  v > std::numeric_limits<int32_t>::max()))) {
    return ConvertOverflow(d.ToString());
  }
  return v;
}

// parseStringToNumber: base 10 integers, or any double/decimal syntax;
// hex is refused.
absl::StatusOr<Value> ParseNumber(const std::string& s, ValueType t) {
  if (absl::StartsWith(s, "0x")) {
    return Failure(
        absl::StrCat("Illegal hexadecimal input in $convert with no "
                     "onError value: ",
                     s));
  }
  auto fail = [&](absl::string_view reason) {
    return Failure(
        absl::StrCat("Failed to parse number '", s,
                     "' in $convert with no onError value: ", reason));
  };
  if (s.empty()) return fail("No digits");
  if (t == ValueType::kInt32 || t == ValueType::kInt64) {
    int64_t v = 0;
    const char* b = s.data();
    const char* e = b + s.size();
    if (*b == '+') ++b;
    auto r = std::from_chars(b, e, v);
    if (r.ec == std::errc::result_out_of_range) return fail("Out of range");
    if (r.ec != std::errc() || r.ptr != e) {
      return fail("Did not consume whole string.");
    }
    if (t == ValueType::kInt32) {
      if (v < std::numeric_limits<int32_t>::min() ||
          v > std::numeric_limits<int32_t>::max()) {
        return fail("Out of range");
      }
      return Value::Int32(static_cast<int32_t>(v));
    }
    return Value::Int64(v);
  }
  if (t == ValueType::kDecimal) {
    auto d = Decimal128::FromString(s);
    if (!d.ok()) return fail("Failed to parse string to decimal");
    return Value::Decimal(*d);
  }
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || absl::ascii_isspace(s[0])) {
    return fail("Did not consume whole string.");
  }
  if (std::isinf(d) &&
      absl::AsciiStrToLower(s).find("inf") == std::string::npos) {
    return fail("Out of range");
  }
  return Value::Double(d);
}

// The conversion of a non-null `in` to `t` (performConversion).
absl::StatusOr<Value> Convert(const Value& in, const ConvertTarget& t) {
  if (!t.type.has_value()) return Unsupported(in, t);
  const ValueType to = *t.type;
  const ValueType from = in.type();
  if (from == to && to != ValueType::kObject && to != ValueType::kArray &&
      to != ValueType::kRegex && to != ValueType::kMinKey &&
      to != ValueType::kMaxKey && to != ValueType::kNull &&
      to != ValueType::kTimestamp) {
    return in;  // identity (binData identity kept too)
  }
  switch (to) {
    case ValueType::kBool:
      switch (from) {
        case ValueType::kInt32:
        case ValueType::kInt64:
        case ValueType::kDouble:
        case ValueType::kDecimal:
        case ValueType::kDate:
          return Value::Bool(IsTruthy(in));
        case ValueType::kNull:
          break;
        default:
          return Value::Bool(true);
      }
      break;
    case ValueType::kDouble:
      switch (from) {
        case ValueType::kInt32:
        case ValueType::kInt64:
          return Value::Double(static_cast<double>(in.int64_value()));
        case ValueType::kDecimal: {
          double d = in.decimal_value().ToDouble();
          if (std::isinf(d) && !in.decimal_value().IsInfinite()) {
            return ConvertOverflow(in.decimal_value().ToString());
          }
          return Value::Double(d);
        }
        case ValueType::kBool:
          return Value::Double(in.bool_value() ? 1.0 : 0.0);
        case ValueType::kDate:
          return Value::Double(static_cast<double>(in.date_millis()));
        case ValueType::kString:
          return ParseNumber(in.string_value(), to);
        default:
          break;
      }
      break;
    case ValueType::kInt32:
    case ValueType::kInt64: {
      const bool to_int = to == ValueType::kInt32;
      auto make = [&](int64_t v) {
        return to_int ? Value::Int32(static_cast<int32_t>(v)) : Value::Int64(v);
      };
      switch (from) {
        case ValueType::kInt32:
          return make(in.int64_value());
        case ValueType::kInt64:
          if (to_int &&
              (in.int64_value() < std::numeric_limits<int32_t>::min() ||
               in.int64_value() > std::numeric_limits<int32_t>::max())) {
            return ConvertOverflow("");
          }
          return make(in.int64_value());
        case ValueType::kDouble: {
          ASSIGN_OR_RETURN(int64_t v, DoubleToInt(in.double_value(), to_int));
          return make(v);
        }
        case ValueType::kDecimal: {
          ASSIGN_OR_RETURN(int64_t v, DecimalToInt(in.decimal_value(), to_int));
          return make(v);
        }
        case ValueType::kBool:
          return make(in.bool_value() ? 1 : 0);
        case ValueType::kDate:
          if (!to_int) return make(in.date_millis());
          break;
        case ValueType::kString:
          return ParseNumber(in.string_value(), to);
        default:
          break;
      }
      break;
    }
    case ValueType::kDecimal:
      switch (from) {
        case ValueType::kInt32:
        case ValueType::kInt64:
          return Value::Decimal(Decimal128::FromInt64(in.int64_value()));
        case ValueType::kDouble:
          return Value::Decimal(Decimal128::FromDouble(in.double_value()));
        case ValueType::kBool:
          return Value::Decimal(Decimal128::FromInt64(in.bool_value() ? 1 : 0));
        case ValueType::kDate:
          return Value::Decimal(Decimal128::FromInt64(in.date_millis()));
        case ValueType::kString:
          return ParseNumber(in.string_value(), to);
        default:
          break;
      }
      break;
    case ValueType::kString:
      switch (from) {
        case ValueType::kDouble:
          return Value::String(FormatDouble(in.double_value()));
        case ValueType::kInt32:
        case ValueType::kInt64:
          return Value::String(absl::StrCat(in.int64_value()));
        case ValueType::kDecimal:
          return Value::String(in.decimal_value().ToString());
        case ValueType::kBool:
          return Value::String(in.bool_value() ? "true" : "false");
        case ValueType::kObjectId:
          return Value::String(in.oid_value().ToHex());
        case ValueType::kDate: {
          ASSIGN_OR_RETURN(std::string s,
                           FormatDate("%Y-%m-%dT%H:%M:%S.%LZ", in.date_millis(),
                                      absl::UTCTimeZone()));
          return Value::String(std::move(s));
        }
        default:
          break;
      }
      break;
    case ValueType::kDate:
      switch (from) {
        case ValueType::kInt64:
          return Value::Date(in.int64_value());
        case ValueType::kDouble: {
          ASSIGN_OR_RETURN(int64_t v, DoubleToInt(in.double_value(), false));
          return Value::Date(v);
        }
        case ValueType::kDecimal: {
          ASSIGN_OR_RETURN(int64_t v, DecimalToInt(in.decimal_value(), false));
          return Value::Date(v);
        }
        case ValueType::kObjectId:
          return Value::Date(int64_t{in.oid_value().Seconds()} * 1000);
        case ValueType::kTimestamp:
          return Value::Date(int64_t{in.timestamp_value().t} * 1000);
        case ValueType::kString: {
          auto millis = ParseDateString(in.string_value(), absl::UTCTimeZone(),
                                        std::nullopt);
          if (!millis.ok()) {
            return Failure(millis.status().message());
          }
          return Value::Date(*millis);
        }
        default:
          break;
      }
      break;
    case ValueType::kObjectId:
      if (from == ValueType::kString) {
        const std::string& s = in.string_value();
        ObjectId oid;
        if (s.size() != 24) {
          return Failure(absl::StrCat(
              "Failed to parse objectId '", s,
              "' in $convert with no onError value: Invalid string length for "
              "parsing to OID, expected 24 but found ",
              s.size()));
        }
        if (!ObjectId::FromHex(s, &oid)) {
          return Failure(absl::StrCat("Failed to parse objectId '", s,
                                      "' in $convert with no onError value: "
                                      "Invalid character found in hex string: ",
                                      s));
        }
        return Value::Oid(oid);
      }
      break;
    default:
      break;
  }
  return Unsupported(in, t);
}

class ConvertExpr : public Expression {
 public:
  ConvertExpr(ExprPtr input, ExprPtr to, ExprPtr on_error, ExprPtr on_null)
      : input_(std::move(input)),
        to_(std::move(to)),
        on_error_(std::move(on_error)),
        on_null_(std::move(on_null)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt to, to_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt input, input_->Evaluate(doc, vars));
    std::optional<ConvertTarget> target;
    if (!Nullish(to)) {
      ASSIGN_OR_RETURN(ConvertTarget t, ComputeTarget(*to));
      target = std::move(t);
    }
    if (Nullish(input)) {
      if (on_null_ != nullptr) return on_null_->Evaluate(doc, vars);
      return internal::Null();
    }
    if (!target.has_value()) return internal::Null();
    absl::StatusOr<Value> out = Convert(*input, *target);
    if (!out.ok()) {
      if (ErrorCode(out.status()) == kConversionFailure &&
          on_error_ != nullptr) {
        return on_error_->Evaluate(doc, vars);
      }
      return out.status();
    }
    return Ok(std::move(*out));
  }

 private:
  ExprPtr input_, to_, on_error_, on_null_;
};

ParseResult ParseConvert(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(kFailedToParse,
                     absl::StrCat("$convert expects an object of named "
                                  "arguments but found: ",
                                  TypeName(operand.type())));
  }
  ExprPtr input, to, on_error, on_null;
  for (const auto& [name, v] : operand.object_fields()) {
    ExprPtr* slot = name == "input"     ? &input
                    : name == "to"      ? &to
                    : name == "onError" ? &on_error
                    : name == "onNull"  ? &on_null
                                        : nullptr;
    if (slot == nullptr) {
      return ExprError(
          kFailedToParse,
          absl::StrCat("$convert found an unknown argument: ", name));
    }
    ASSIGN_OR_RETURN(*slot, ParseExpression(v, ctx));
  }
  if (input == nullptr) {
    return ExprError(kFailedToParse, "Missing 'input' parameter to $convert");
  }
  if (to == nullptr) {
    return ExprError(kFailedToParse, "Missing 'to' parameter to $convert");
  }
  return ExprPtr(new ConvertExpr(std::move(input), std::move(to),
                                 std::move(on_error), std::move(on_null)));
}

// $toInt etc.: one argument, converted with no onError/onNull.
template <const char* kOp, const char* kTo>
ParseResult ParseTo(const Value& operand, ParseContext* ctx) {
  ASSIGN_OR_RETURN(internal::Args args,
                   internal::ParseArgsChecked(kOp, operand, ctx, 1, 1));
  ParseContext unused;
  ASSIGN_OR_RETURN(ExprPtr to, ParseExpression(Value::String(kTo), &unused));
  return ExprPtr(
      new ConvertExpr(std::move(args[0]), std::move(to), nullptr, nullptr));
}

constexpr char kToString[] = "$toString", kString[] = "string";
constexpr char kToInt[] = "$toInt", kInt[] = "int";
constexpr char kToLong[] = "$toLong", kLong[] = "long";
constexpr char kToDouble[] = "$toDouble", kDouble[] = "double";
constexpr char kToDecimal[] = "$toDecimal", kDecimal[] = "decimal";
constexpr char kToBool[] = "$toBool", kBool[] = "bool";
constexpr char kToDate[] = "$toDate", kDate[] = "date";
constexpr char kToObjectId[] = "$toObjectId", kObjectIdName[] = "objectId";

}  // namespace

void RegisterTypeOperators() {
  TTLDB_REGISTER_EAGER("$type", 1, 1, TypeOp);
  TTLDB_REGISTER_EAGER("$isNumber", 1, 1, IsNumberOp);
  TTLDB_REGISTER_EAGER("$toHashedIndexKey", 1, 1, ToHashedIndexKeyOp);
  RegisterOperator("$convert", ParseConvert);
  RegisterOperator("$toString", ParseTo<kToString, kString>);
  RegisterOperator("$toInt", ParseTo<kToInt, kInt>);
  RegisterOperator("$toLong", ParseTo<kToLong, kLong>);
  RegisterOperator("$toDouble", ParseTo<kToDouble, kDouble>);
  RegisterOperator("$toDecimal", ParseTo<kToDecimal, kDecimal>);
  RegisterOperator("$toBool", ParseTo<kToBool, kBool>);
  RegisterOperator("$toDate", ParseTo<kToDate, kDate>);
  RegisterOperator("$toObjectId", ParseTo<kToObjectId, kObjectIdName>);
}

}  // namespace agg
}  // namespace ttldb
