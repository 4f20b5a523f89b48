#include "expr/ops_util.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/compare.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace internal {

absl::Status ExprError(int code, absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument, code, message);
}

std::string TypeNameOf(const Opt& v) {
  if (!v.has_value()) return "missing";
  return std::string(TypeName(v->type()));
}

std::string FormatDoubleForMessage(double d) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%g", d);
  return buf;
}

std::string DebugString(const Opt& v) {
  if (!v.has_value()) return "MISSING";
  switch (v->type()) {
    case ValueType::kDouble:
      return FormatDoubleForMessage(v->double_value());
    case ValueType::kString:
      return absl::StrCat("\"", v->string_value(), "\"");
    case ValueType::kDecimal:
      return v->decimal_value().ToString();
    case ValueType::kInt32:
    case ValueType::kInt64:
      return absl::StrCat(v->int64_value());
    default:
      return ToJson(*v, JsonFormat::kRelaxed);
  }
}

absl::StatusOr<Args> ParseArgs(const Value& operand, ParseContext* ctx) {
  Args out;
  if (operand.is_array()) {
    for (const Value& item : operand.array_items()) {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpression(item, ctx));
      out.push_back(std::move(e));
    }
  } else {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpression(operand, ctx));
    out.push_back(std::move(e));
  }
  return out;
}

absl::Status CheckArity(absl::string_view op, size_t n, int min, int max) {
  if (min == max) {
    if (n != static_cast<size_t>(min)) {
      return ExprError(16020,
                       absl::StrCat("Expression ", op, " takes exactly ", min,
                                    " arguments. ", n, " were passed in."));
    }
    return absl::OkStatus();
  }
  if (max < 0) {
    if (n < static_cast<size_t>(min)) {
      return ExprError(16020,
                       absl::StrCat("Expression ", op, " takes at least ", min,
                                    " arguments. ", n, " were passed in."));
    }
    return absl::OkStatus();
  }
  if (n < static_cast<size_t>(min) || n > static_cast<size_t>(max)) {
    return ExprError(28667, absl::StrCat("Expression ", op, " takes at least ",
                                         min, " arguments, and at most ", max,
                                         ", but ", n, " were passed in."));
  }
  return absl::OkStatus();
}

absl::StatusOr<Args> ParseArgsChecked(absl::string_view op,
                                      const Value& operand, ParseContext* ctx,
                                      int min, int max) {
  ASSIGN_OR_RETURN(Args args, ParseArgs(operand, ctx));
  RETURN_IF_ERROR(CheckArity(op, args.size(), min, max));
  return args;
}

bool AllConstant(const Args& args) {
  for (const auto& a : args) {
    if (a != nullptr && !a->IsConstant()) return false;
  }
  return true;
}

ExprResult EvalOpt(const ExprPtr& e, const Value& doc, Variables* vars) {
  if (e == nullptr) return Missing();
  return e->Evaluate(doc, vars);
}

absl::Status ValueTooLargeError(absl::string_view op, size_t bytes) {
  return ExprError(
      kBSONObjectTooLarge,
      absl::StrCat(op, " would build a value of ", bytes, " bytes, over the ",
                   kMaxValueBytes, "-byte limit of a BSON document"));
}

absl::Status OperandsTooLargeError(absl::string_view op, size_t bytes) {
  return ExprError(kExceededMemoryLimit,
                   absl::StrCat(op, " would use too much memory (", bytes,
                                " bytes) and cannot spill to disk. Memory "
                                "limit: ",
                                kMaxOperandBytes, " bytes"));
}

absl::Status ValueBudget::Add(size_t name_bytes, size_t value_bytes) {
  // type byte + name + NUL + value
  bytes_ += 2 + name_bytes + value_bytes;
  if (bytes_ > kMaxValueBytes) return ValueTooLargeError(op_, bytes_);
  return absl::OkStatus();
}

absl::Status ValueBudget::AddElement(size_t index, const Value& v) {
  return Add(index < 10 ? 1 : std::to_string(index).size(), BsonValueSize(v));
}

absl::Status ValueBudget::AddField(absl::string_view name, const Value& v) {
  return Add(name.size(), BsonValueSize(v));
}

absl::Status CheckBuiltValue(absl::string_view op, const Value& v) {
  size_t bytes = 0;
  switch (v.type()) {
    case ValueType::kString:
      bytes = 5 + v.string_value().size();
      break;
    case ValueType::kArray:
    case ValueType::kObject:
      bytes = BsonValueSize(v);
      break;
    default:
      return absl::OkStatus();
  }
  if (bytes > kMaxValueBytes) return ValueTooLargeError(op, bytes);
  return absl::OkStatus();
}

absl::Status CheckForInterrupt() { return CheckOpDeadline(); }

size_t OperandBytes(const Value& v) {
  switch (v.type()) {
    case ValueType::kString:
      return 5 + v.string_value().size();
    case ValueType::kArray:
    case ValueType::kObject:
    case ValueType::kBinary:
    case ValueType::kRegex:
      return BsonValueSize(v);
    default:
      return 16;
  }
}

namespace {

// The collation of the EagerExpr being evaluated on this thread (its
// Variables'), for CompareResults: the operators' functions see only their
// arguments.
thread_local const Collator* current_collator = nullptr;

class ScopedCollator {
 public:
  explicit ScopedCollator(const Collator* c) : saved_(current_collator) {
    current_collator = c;
  }
  ~ScopedCollator() { current_collator = saved_; }

 private:
  const Collator* saved_;
};

}  // namespace

ExprResult EagerExpr::Evaluate(const Value& doc, Variables* vars) const {
  std::vector<Opt> values;
  values.reserve(args_.size());
  size_t held = 0;
  for (const auto& a : args_) {
    ASSIGN_OR_RETURN(Opt v, a->Evaluate(doc, vars));
    if (v.has_value()) {
      held += OperandBytes(*v);
      if (held > kMaxOperandBytes) return OperandsTooLargeError(op_, held);
    }
    values.push_back(std::move(v));
  }
  ScopedCollator collation(vars->collator());
  ASSIGN_OR_RETURN(Opt result, fn_(values));
  if (check_result_ && result.has_value()) {
    RETURN_IF_ERROR(CheckBuiltValue(op_, *result));
  }
  return result;
}

bool EagerExpr::IsConstant() const { return AllConstant(args_); }

ParseResult ParseEager(absl::string_view op, const Value& operand,
                       ParseContext* ctx, int min, int max, EagerFn fn) {
  ASSIGN_OR_RETURN(Args args, ParseArgsChecked(op, operand, ctx, min, max));
  return ExprPtr(new EagerExpr(op, std::move(args), fn));
}

Value IntOrLong(int64_t v) {
  if (v >= std::numeric_limits<int32_t>::min() &&
      v <= std::numeric_limits<int32_t>::max()) {
    return Value::Int32(static_cast<int32_t>(v));
  }
  return Value::Int64(v);
}

ValueType WidestNumeric(ValueType a, ValueType b) {
  auto rank = [](ValueType t) {
    switch (t) {
      case ValueType::kInt32:
        return 1;
      case ValueType::kInt64:
        return 2;
      case ValueType::kDouble:
        return 3;
      case ValueType::kDecimal:
        return 4;
      default:
        return 0;
    }
  };
  int ra = rank(a), rb = rank(b);
  if (ra == 0 || rb == 0) return ValueType::kNull;  // "Undefined": not numeric
  return ra >= rb ? a : b;
}

double NumToDouble(const Value& v) {
  switch (v.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      return static_cast<double>(v.int64_value());
    case ValueType::kDouble:
      return v.double_value();
    case ValueType::kDecimal:
      return v.decimal_value().ToDouble();
    default:
      return 0;
  }
}

int64_t NumToLong(const Value& v) {
  switch (v.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      return v.int64_value();
    case ValueType::kDouble: {
      double d = v.double_value();
      if (std::isnan(d)) return 0;
      if (d >= 9223372036854775808.0)
        return std::numeric_limits<int64_t>::max();
      if (d < -9223372036854775808.0)
        return std::numeric_limits<int64_t>::min();
      return static_cast<int64_t>(d);
    }
    case ValueType::kDecimal: {
      int64_t out = 0;
      if (!v.decimal_value().ToInt64RoundEven(&out)) {
        return std::numeric_limits<int64_t>::min();
      }
      return out;
    }
    default:
      return 0;
  }
}

Decimal128 NumToDecimal(const Value& v) {
  switch (v.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      return Decimal128::FromInt64(v.int64_value());
    case ValueType::kDouble:
      return Decimal128::FromDouble(v.double_value());
    case ValueType::kDecimal:
      return v.decimal_value();
    default:
      return Decimal128();
  }
}

bool IsIntegral64(const Value& v, int64_t* out) {
  switch (v.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      *out = v.int64_value();
      return true;
    case ValueType::kDouble: {
      double d = v.double_value();
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
        return false;
      }
      if (std::trunc(d) != d) return false;
      *out = static_cast<int64_t>(d);
      return true;
    }
    case ValueType::kDecimal:
      return v.decimal_value().ToInt64Exact(out);
    default:
      return false;
  }
}

bool IsIntegral32(const Value& v) {
  int64_t x;
  if (!IsIntegral64(v, &x)) return false;
  return x >= std::numeric_limits<int32_t>::min() &&
         x <= std::numeric_limits<int32_t>::max();
}

absl::StatusOr<std::string> CoerceToString(const Opt& v) {
  if (!v.has_value()) return std::string();
  switch (v->type()) {
    case ValueType::kNull:
      return std::string();
    case ValueType::kString:
      return v->string_value();
    case ValueType::kInt32:
    case ValueType::kInt64:
      return absl::StrCat(v->int64_value());
    case ValueType::kDouble:
      return FormatDoubleForMessage(v->double_value());
    case ValueType::kDecimal:
      return v->decimal_value().ToString();
    case ValueType::kDate:
      return FormatIsoDate(v->date_millis());
    case ValueType::kTimestamp:
      return absl::StrCat("Timestamp(", v->timestamp_value().t, ", ",
                          v->timestamp_value().i, ")");
    default:
      return ExprError(16007, absl::StrCat("can't convert from BSON type ",
                                           TypeName(v->type()), " to String"));
  }
}

size_t CodePointLength(char lead) {
  unsigned char c = static_cast<unsigned char>(lead);
  if (c < 0x80 || (c & 0xC0) == 0x80) return 1;
  if ((c & 0xE0) == 0xC0) return 2;
  if ((c & 0xF0) == 0xE0) return 3;
  return 4;
}

size_t CountCodePoints(absl::string_view s) {
  size_t n = 0;
  for (char c : s) {
    if (!IsContinuationByte(c)) ++n;
  }
  return n;
}

int CompareResults(const Opt& a, const Opt& b) {
  if (a.has_value() && b.has_value()) {
    return CompareValues(*a, *b, current_collator);
  }
  if (!a.has_value() && !b.has_value()) return 0;
  if (!a.has_value()) return b->type() == ValueType::kMinKey ? 1 : -1;
  return a->type() == ValueType::kMinKey ? -1 : 1;
}

}  // namespace internal
}  // namespace agg
}  // namespace ttldb
