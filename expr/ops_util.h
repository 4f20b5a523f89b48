// Helpers shared by the operator families (expr/ops_*.cc): argument parsing
// with MongoDB's arity errors, the "evaluate every argument, then compute"
// expression, and MongoDB's numeric coercions. Internal to //expr.
#ifndef TTLDB_EXPR_OPS_UTIL_H_
#define TTLDB_EXPR_OPS_UTIL_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/status.h"
#include "expr/expression.h"
#include "ttldb/value.h"

namespace ttldb {
namespace agg {
namespace internal {

using ExprPtr = std::unique_ptr<Expression>;
using Args = std::vector<ExprPtr>;
using Opt = std::optional<Value>;
using ParseResult = absl::StatusOr<ExprPtr>;

// InvalidArgument carrying MongoDB's `code`.
absl::Status ExprError(int code, absl::string_view message);

inline ExprResult Ok(Value v) { return Opt(std::move(v)); }
inline ExprResult Missing() { return Opt(); }
inline ExprResult Null() { return Opt(Value::Null()); }

using ::ttldb::agg::Nullish;  // expr/expression.h

// typeName() of a value; "missing" for missing.
std::string TypeNameOf(const Opt& v);

// MongoDB's Value::toString() of a value for error messages: numbers as the
// shell prints them (doubles with %g), strings quoted, objects and arrays as
// relaxed JSON.
std::string DebugString(const Opt& v);

// ExpressionNary::parseArguments: an array operand is the argument list,
// anything else is one argument.
absl::StatusOr<Args> ParseArgs(const Value& operand, ParseContext* ctx);

// The arity checks of ExpressionFixedArity (16020 "Expression $op takes
// exactly N arguments. M were passed in.") and ExpressionRangedArity (28667
// "Expression $op takes at least N arguments, and at most M, but K were
// passed in."). max < 0: no upper bound (only the lower one, 16020-style
// text "at least").
absl::Status CheckArity(absl::string_view op, size_t n, int min, int max);

// Parses the operator's arguments and checks arity.
absl::StatusOr<Args> ParseArgsChecked(absl::string_view op,
                                      const Value& operand, ParseContext* ctx,
                                      int min, int max);

// ---- Bounds (expression.h kMaxValueBytes, kMaxOperandBytes) ----

// 10334 BSONObjectTooLarge: `op` would build a value of `bytes`.
absl::Status ValueTooLargeError(absl::string_view op, size_t bytes);
// 146 ExceededMemoryLimit: `op` would hold `bytes` at once.
absl::Status OperandsTooLargeError(absl::string_view op, size_t bytes);

// Counts the BSON bytes of a value being built, element by element, and
// fails (10334) as soon as they pass kMaxValueBytes, before the rest is
// built.
class ValueBudget {
 public:
  explicit ValueBudget(absl::string_view op) : op_(op) {}
  // One more element or field (its name's bytes: an array index or a field
  // name) of BSON size `value_bytes`.
  absl::Status Add(size_t name_bytes, size_t value_bytes);
  absl::Status AddElement(size_t index, const Value& v);
  absl::Status AddField(absl::string_view name, const Value& v);
  size_t bytes() const { return bytes_; }

 private:
  absl::string_view op_;
  size_t bytes_ = 5;  // an empty document: length + terminator
};

// OK when `v` is within kMaxValueBytes (strings are measured in O(1),
// arrays and objects by a walk); else ValueTooLargeError.
absl::Status CheckBuiltValue(absl::string_view op, const Value& v);

// The BSON bytes of an evaluated argument, for kMaxOperandBytes; scalars
// count as 16 (their exact size does not matter for a 64 MiB bound).
size_t OperandBytes(const Value& v);

// The interrupt point of the iterating operators ($map, $filter, $reduce
// and the like), once per element, as MongoDB's
// evaluate_map_reduce_filter.cpp calls checkForInterrupt: maxTimeMS (50)
// and shutdown (11600) stop a long evaluation.
absl::Status CheckForInterrupt();

// An operator whose every argument is evaluated (left to right) before
// `fn` computes the result from their values. The arguments held at once
// are bounded by kMaxOperandBytes and the result by kMaxValueBytes.
using EagerFn = ExprResult (*)(std::vector<Opt>& values);

class EagerExpr : public Expression {
 public:
  EagerExpr(absl::string_view op, Args args, EagerFn fn)
      : op_(op),
        // $range has its own bound, MongoDB's (146 at 64 MiB of memory).
        check_result_(op != "$range"),
        args_(std::move(args)),
        fn_(fn) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override;
  bool IsConstant() const override;

 private:
  std::string op_;
  bool check_result_;
  Args args_;
  EagerFn fn_;
};

ParseResult ParseEager(absl::string_view op, const Value& operand,
                       ParseContext* ctx, int min, int max, EagerFn fn);

// True when every expression in `args` is constant.
bool AllConstant(const Args& args);

// Evaluates `e`, or yields missing for a null pointer (an optional
// argument that was not given).
ExprResult EvalOpt(const ExprPtr& e, const Value& doc, Variables* vars);

// Registers `name` as an operator whose arguments are all evaluated before
// `fn` runs. `name` must be a string literal.
#define TTLDB_REGISTER_EAGER(name, min, max, fn)                             \
  ::ttldb::agg::RegisterOperator(                                            \
      name,                                                                  \
      [](const ::ttldb::Value& o, ::ttldb::agg::ParseContext* c)             \
          -> ::ttldb::agg::internal::ParseResult {                           \
        return ::ttldb::agg::internal::ParseEager(name, o, c, min, max, fn); \
      })

// ---- Numbers (mongo/db/exec/document_value/value.cpp) ----

// Int32 when `v` fits, else Int64 (Value::createIntOrLong).
Value IntOrLong(int64_t v);
// Value::getWidestNumeric over two number types.
ValueType WidestNumeric(ValueType a, ValueType b);
// coerceToDouble / coerceToLong / coerceToDecimal of a number. A double is
// truncated toward zero into int64 (saturating), a decimal rounded ties to
// even; Decimal(double) keeps 15 significant digits as MongoDB's
// Decimal128(double).
double NumToDouble(const Value& v);
int64_t NumToLong(const Value& v);
Decimal128 NumToDecimal(const Value& v);
// Value::integral(): a number representable exactly as an int32.
bool IsIntegral32(const Value& v);
// Value::integral64Bit(): a number representable exactly as an int64.
bool IsIntegral64(const Value& v, int64_t* out);
// A double as MongoDB's str::stream() writes it (%g: 6 significant digits).
std::string FormatDoubleForMessage(double d);

// Value::coerceToString: strings as they are, numbers as MongoDB prints
// them, dates as "%Y-%m-%dT%H:%M:%S.%LZ", null/missing as ""; any other
// type is 16007 "can't convert from BSON type <t> to String".
absl::StatusOr<std::string> CoerceToString(const Opt& v);

// UTF-8: the length of the code point a lead byte starts (1 for ASCII and,
// defensively, for a stray continuation byte), whether a byte continues a
// code point, and the number of code points in `s`.
size_t CodePointLength(char lead);
inline bool IsContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}
size_t CountCodePoints(absl::string_view s);

// Compares two results as ExpressionCompare does: a missing value sorts
// with undefined, after MinKey and before null; otherwise CompareValues.
// In the collation of the expression being evaluated (Variables::collator).
int CompareResults(const Opt& a, const Opt& b);

}  // namespace internal

// Registers every built-in operator family; called once, from
// ParseOperator, through absl::call_once (expr/expression.cc). Each family's
// function lives beside its operators (expr/ops_*.cc).
void RegisterArithmeticOperators();
void RegisterComparisonOperators();
void RegisterBooleanOperators();
void RegisterConditionalOperators();
void RegisterStringOperators();
void RegisterArrayOperators();
void RegisterSetOperators();
void RegisterDateOperators();
void RegisterTypeOperators();
void RegisterVariableOperators();
void RegisterObjectOperators();
void RegisterTrigOperators();

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_EXPR_OPS_UTIL_H_
