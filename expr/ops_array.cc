// Array operators: $size $arrayElemAt $first $last $isArray $in $slice
// $concatArrays $reverseArray $range $indexOfArray $anyElementTrue
// $allElementsTrue, the iterating $filter $map $reduce, and the
// expression forms of $sum $avg $min $max. Semantics and errors from
// src/mongo/db/exec/expression/evaluate_array.cpp, evaluate_math.cpp
// ($range) and src/mongo/db/pipeline/expression.cpp (parsers).
#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "document/bson.h"
#include "document/compare.h"
#include "document/path.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::Args;
using internal::CompareResults;
using internal::DebugString;
using internal::ExprError;
using internal::ExprPtr;
using internal::FormatDoubleForMessage;
using internal::IsIntegral32;
using internal::Nullish;
using internal::NumToDouble;
using internal::NumToLong;
using internal::Ok;
using internal::Opt;
using internal::ParseResult;
using internal::TypeNameOf;

ExprResult Size(std::vector<Opt>& a) {
  if (!a[0] || !a[0]->is_array()) {
    return ExprError(17124, absl::StrCat("The argument to $size must be an "
                                         "array, but was of type: ",
                                         TypeNameOf(a[0])));
  }
  return Ok(
      internal::IntOrLong(static_cast<int64_t>(a[0]->array_items().size())));
}

// evaluate_array.cpp arrayElemAt, shared by $first and $last.
ExprResult ElemAt(absl::string_view op, bool one_arg, const Opt& array,
                  const Opt& index) {
  if (Nullish(array) || Nullish(index)) return internal::Null();
  if (!array->is_array()) {
    return ExprError(
        28689, absl::StrCat(op, "'s ", one_arg ? "argument" : "first argument",
                            " must be an array, but is ", TypeNameOf(array)));
  }
  if (!index->is_number()) {
    return ExprError(28690, absl::StrCat(op,
                                         "'s second argument must be a "
                                         "numeric value, but is ",
                                         TypeNameOf(index)));
  }
  if (!IsIntegral32(*index)) {
    return ExprError(28691,
                     absl::StrCat(op,
                                  "'s second argument must be "
                                  "representable as a 32-bit integer: ",
                                  FormatDoubleForMessage(NumToDouble(*index))));
  }
  const Value::Array& items = array->array_items();
  int64_t i = NumToLong(*index);
  if (i < 0) i += static_cast<int64_t>(items.size());
  if (i < 0 || i >= static_cast<int64_t>(items.size())) {
    return internal::Missing();
  }
  return Ok(items[i]);
}

ExprResult ArrayElemAt(std::vector<Opt>& a) {
  return ElemAt("$arrayElemAt", false, a[0], a[1]);
}
ExprResult First(std::vector<Opt>& a) {
  return ElemAt("$first", true, a[0], Value::Int32(0));
}
ExprResult Last(std::vector<Opt>& a) {
  return ElemAt("$last", true, a[0], Value::Int32(-1));
}

ExprResult IsArray(std::vector<Opt>& a) {
  return Ok(Value::Bool(a[0].has_value() && a[0]->is_array()));
}

ExprResult In(std::vector<Opt>& a) {
  if (!a[1] || !a[1]->is_array()) {
    return ExprError(40081, absl::StrCat("$in requires an array as a second "
                                         "argument, found: ",
                                         TypeNameOf(a[1])));
  }
  for (const Value& v : a[1]->array_items()) {
    if (CompareResults(a[0], v) == 0) return Ok(Value::Bool(true));
  }
  return Ok(Value::Bool(false));
}

ExprResult Slice(std::vector<Opt>& a) {
  const Opt& arr = a[0];
  const Opt& arg2 = a[1];
  if (Nullish(arr) || Nullish(arg2)) return internal::Null();
  if (!arr->is_array()) {
    return ExprError(28724, absl::StrCat("First argument to $slice must be an "
                                         "array, but is of type: ",
                                         TypeNameOf(arr)));
  }
  if (!arg2->is_number()) {
    return ExprError(28725, absl::StrCat("Second argument to $slice must be a "
                                         "numeric value, but is of type: ",
                                         TypeNameOf(arg2)));
  }
  if (!IsIntegral32(*arg2)) {
    return ExprError(28726,
                     absl::StrCat("Second argument to $slice can't be "
                                  "represented as a 32-bit integer: ",
                                  FormatDoubleForMessage(NumToDouble(*arg2))));
  }
  const Value::Array& items = arr->array_items();
  const int64_t size = static_cast<int64_t>(items.size());
  int64_t start = 0, end = size;
  if (a.size() == 2) {
    int64_t count = NumToLong(*arg2);
    if (count >= 0) {
      end = std::min(end, count);
    } else {
      start = std::max<int64_t>(0, size + count);
    }
  } else {
    int64_t s = NumToLong(*arg2);
    start = s < 0 ? std::max<int64_t>(0, size + s) : std::min(size, s);
    const Opt& count_v = a[2];
    if (Nullish(count_v)) return internal::Null();
    if (!count_v->is_number()) {
      return ExprError(28727, absl::StrCat("Third argument to $slice must be "
                                           "numeric, but is of type: ",
                                           TypeNameOf(count_v)));
    }
    if (!IsIntegral32(*count_v)) {
      return ExprError(
          28728, absl::StrCat("Third argument to $slice can't be "
                              "represented as a 32-bit integer: ",
                              FormatDoubleForMessage(NumToDouble(*count_v))));
    }
    int64_t count = NumToLong(*count_v);
    if (count <= 0) {
      return ExprError(28729, absl::StrCat("Third argument to $slice must be "
                                           "positive: ",
                                           count));
    }
    end = std::min(start + count, size);
  }
  return Ok(Value::MakeArray(
      Value::Array(items.begin() + start, items.begin() + end)));
}

// Digits of the array indexes 0..n-1 together: the names of n elements.
size_t IndexNamesSize(size_t n) {
  size_t total = 0;
  for (size_t digits = 1, start = 0, end = 10; start < n;
       ++digits, start = end, end *= 10) {
    total += (std::min(n, end) - start) * digits;
  }
  return total;
}

// $concatArrays, as evaluate_array.cpp: left to right, null at the first
// nullish argument, 28664 for one that is not an array. The operands are
// read where they are when they exist ($$value, a field: Peek) instead of
// copied, and the result's BSON size is known from theirs before anything
// is built: a $reduce that doubles $$value costs one copy per step and
// fails with 10334 without building the array that is too large (it copied
// $$value twice and built the whole result first).
class ConcatArraysExpr : public Expression {
 public:
  static absl::Status NotAnArray(const Value& v) {
    return ExprError(28664, absl::StrCat("$concatArrays only supports arrays, "
                                         "not ",
                                         TypeName(v.type())));
  }

  explicit ConcatArraysExpr(Args args) : args_(std::move(args)) {}

  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    // First every operand in order (an evaluation may rebind variables, so
    // no pointer from Peek is kept across one), then their values.
    std::vector<Opt> owned(args_.size());  // operands that were built
    std::vector<bool> peeked(args_.size());
    for (size_t i = 0; i < args_.size(); ++i) {
      const Value* v = nullptr;
      peeked[i] = args_[i]->Peek(doc, *vars, &v);
      if (!peeked[i]) {
        ASSIGN_OR_RETURN(owned[i], args_[i]->Evaluate(doc, vars));
        v = owned[i].has_value() ? &*owned[i] : nullptr;
      }
      if (v == nullptr || v->is_null()) return internal::Null();
      if (!v->is_array()) return NotAnArray(*v);
    }
    std::vector<const Value*> arrays(args_.size());
    size_t held = 0, count = 0, element_bytes = 0;
    for (size_t i = 0; i < args_.size(); ++i) {
      const Value* v = &*owned[i];
      if (peeked[i] &&
          (!args_[i]->Peek(doc, *vars, &v) || v == nullptr || !v->is_array())) {
        // Not reached: no evaluation rebinds a variable an earlier operand
        // reads (each scope has its own variable ids).
        return internal::Null();
      }
      // The same bounds as every eager operator's (146 for the operands,
      // 10334 for the result), from one walk of each operand.
      const size_t bytes = BsonValueSize(*v);
      held += bytes;
      if (held > kMaxOperandBytes) {
        return internal::OperandsTooLargeError("$concatArrays", held);
      }
      const size_t n = v->array_items().size();
      // An element costs a type byte, its index name and a NUL besides its
      // value.
      element_bytes += bytes - 5 - 2 * n - IndexNamesSize(n);
      count += n;
      arrays[i] = v;
    }
    const size_t result_bytes =
        5 + element_bytes + 2 * count + IndexNamesSize(count);
    if (result_bytes > kMaxValueBytes) {
      return internal::ValueTooLargeError("$concatArrays", result_bytes);
    }
    Value::Array out;
    out.reserve(count);
    for (size_t i = 0; i < arrays.size(); ++i) {
      if (!peeked[i]) {
        Value::Array& items = owned[i]->mutable_array_items();
        out.insert(out.end(), std::make_move_iterator(items.begin()),
                   std::make_move_iterator(items.end()));
      } else {
        const Value::Array& items = arrays[i]->array_items();
        out.insert(out.end(), items.begin(), items.end());
      }
    }
    return Ok(Value::MakeArray(std::move(out)));
  }
  bool IsConstant() const override { return internal::AllConstant(args_); }

 private:
  Args args_;
};

ParseResult ParseConcatArrays(const Value& operand, ParseContext* ctx) {
  ASSIGN_OR_RETURN(Args args, internal::ParseArgsChecked("$concatArrays",
                                                         operand, ctx, 0, -1));
  return ExprPtr(new ConcatArraysExpr(std::move(args)));
}

ExprResult ReverseArray(std::vector<Opt>& a) {
  if (Nullish(a[0])) return internal::Null();
  if (!a[0]->is_array()) {
    return ExprError(34435, absl::StrCat("The argument to $reverseArray must "
                                         "be an array, but was of type: ",
                                         TypeNameOf(a[0])));
  }
  Value::Array out = a[0]->array_items();
  std::reverse(out.begin(), out.end());
  return Ok(Value::MakeArray(std::move(out)));
}

// 64 MiB: MongoDB's internalQueryMaxRangeBytes default.
constexpr int64_t kMaxRangeBytes = 64 * 1024 * 1024;

ExprResult Range(std::vector<Opt>& a) {
  const Opt& s = a[0];
  const Opt& e = a[1];
  if (!s || !s->is_number()) {
    return ExprError(34443, absl::StrCat("$range requires a numeric starting "
                                         "value, found value of type: ",
                                         TypeNameOf(s)));
  }
  if (!IsIntegral32(*s)) {
    return ExprError(34444, absl::StrCat("$range requires a starting value "
                                         "that can be represented as a 32-bit "
                                         "integer, found value: ",
                                         DebugString(s)));
  }
  if (!e || !e->is_number()) {
    return ExprError(34445, absl::StrCat("$range requires a numeric ending "
                                         "value, found value of type: ",
                                         TypeNameOf(e)));
  }
  if (!IsIntegral32(*e)) {
    return ExprError(34446, absl::StrCat("$range requires an ending value "
                                         "that can be represented as a 32-bit "
                                         "integer, found value: ",
                                         DebugString(e)));
  }
  int64_t current = NumToLong(*s), end = NumToLong(*e), step = 1;
  if (a.size() == 3) {
    const Opt& st = a[2];
    if (!st || !st->is_number()) {
      return ExprError(34447, absl::StrCat("$range requires a numeric step "
                                           "value, found value of type:",
                                           TypeNameOf(st)));
    }
    if (!IsIntegral32(*st)) {
      return ExprError(34448, absl::StrCat("$range requires a step value that "
                                           "can be represented as a 32-bit "
                                           "integer, found value: ",
                                           DebugString(st)));
    }
    step = NumToLong(*st);
    if (step == 0) {
      return ExprError(34449, "$range requires a non-zero step value");
    }
  }
  int64_t steps = (end - current) / step;
  int64_t length = steps >= 0 ? 1 + steps : 0;
  // MongoDB charges the vector plus each Value (16 bytes apiece).
  int64_t mem_needed = 24 + length * 16;
  if (mem_needed >= kMaxRangeBytes) {
    return ExprError(
        146, absl::StrCat("$range would use too much memory (", mem_needed,
                          " bytes) and cannot spill to disk. "
                          "Memory limit: ",
                          kMaxRangeBytes, " bytes"));
  }
  Value::Array out;
  while (step > 0 ? current < end : current > end) {
    out.push_back(Value::Int32(static_cast<int32_t>(current)));
    current += step;
  }
  return Ok(Value::MakeArray(std::move(out)));
}

absl::Status CheckIndexArg(const Opt& v, absl::string_view what) {
  if (!v || !IsIntegral32(*v)) {
    return ExprError(40096,
                     absl::StrCat("$indexOfArrayrequires an integral ", what,
                                  ", found a value of type: ", TypeNameOf(v),
                                  ", with value: ", DebugString(v)));
  }
  if (NumToLong(*v) < 0) {
    return ExprError(40097, absl::StrCat("$indexOfArray requires a "
                                         "nonnegative ",
                                         what, ", found: ", DebugString(v)));
  }
  return absl::OkStatus();
}

ExprResult IndexOfArray(std::vector<Opt>& a) {
  if (Nullish(a[0])) return internal::Null();
  if (!a[0]->is_array()) {
    return ExprError(40090, absl::StrCat("$indexOfArray requires an array as "
                                         "a first argument, found: ",
                                         TypeNameOf(a[0])));
  }
  const Value::Array& items = a[0]->array_items();
  int64_t start = 0, end = static_cast<int64_t>(items.size());
  if (a.size() > 2) {
    RETURN_IF_ERROR(CheckIndexArg(a[2], "starting index"));
    start = NumToLong(*a[2]);
  }
  if (a.size() > 3) {
    RETURN_IF_ERROR(CheckIndexArg(a[3], "ending index"));
    end = std::min(end, NumToLong(*a[3]));
  }
  for (int64_t i = start; i < end; ++i) {
    if (CompareResults(items[i], a[1]) == 0) {
      return Ok(Value::Int32(static_cast<int32_t>(i)));
    }
  }
  return Ok(Value::Int32(-1));
}

template <bool kAll>
ExprResult ElementsTrue(std::vector<Opt>& a) {
  const char* op = kAll ? "$allElementsTrue" : "$anyElementTrue";
  if (!a[0] || !a[0]->is_array()) {
    return ExprError(kAll ? 17040 : 17041,
                     absl::StrCat(op, "'s argument must be an array, but is ",
                                  TypeNameOf(a[0])));
  }
  for (const Value& v : a[0]->array_items()) {
    bool t = IsTruthy(v);
    if (kAll && !t) return Ok(Value::Bool(false));
    if (!kAll && t) return Ok(Value::Bool(true));
  }
  return Ok(Value::Bool(kAll));
}

// ---- $sum $avg $min $max (ExpressionFromAccumulator) ----

// The values an accumulator expression sees: the elements of a single array
// argument, else every argument.
std::vector<Opt> AccumulatorInputs(std::vector<Opt>& a) {
  if (a.size() == 1 && a[0] && a[0]->is_array()) {
    std::vector<Opt> out;
    for (const Value& v : a[0]->array_items()) out.emplace_back(v);
    return out;
  }
  return a;
}

// AccumulatorSum: numbers only (others ignored); the narrowest type that
// holds the total, as $add.
struct SumState {
  ValueType widest = ValueType::kInt32;
  int64_t long_total = 0;
  double double_total = 0;
  Decimal128 decimal_total;
  int64_t count = 0;

  void Add(const Value& v) {
    ++count;
    ValueType old = widest;
    widest = internal::WidestNumeric(widest, v.type());
    if (old != widest) {
      if (widest == ValueType::kDouble) {
        double_total += static_cast<double>(long_total);
      } else if (widest == ValueType::kDecimal) {
        decimal_total = old == ValueType::kDouble
                            ? Decimal128::FromDoubleNearest(double_total)
                            : Decimal128::FromInt64(long_total);
      }
    }
    switch (widest) {
      case ValueType::kInt32:
      case ValueType::kInt64: {
        int64_t sum;
        if (__builtin_add_overflow(long_total, v.int64_value(), &sum)) {
          widest = ValueType::kDouble;
          double_total = static_cast<double>(long_total) + NumToDouble(v);
        } else {
          long_total = sum;
        }
        break;
      }
      case ValueType::kDouble:
        double_total += NumToDouble(v);
        break;
      default:
        decimal_total = decimal_total.Add(internal::NumToDecimal(v));
        break;
    }
  }
  Value Total() const {
    switch (widest) {
      case ValueType::kInt32:
        return internal::IntOrLong(long_total);
      case ValueType::kInt64:
        return Value::Int64(long_total);
      case ValueType::kDouble:
        return Value::Double(double_total);
      default:
        return Value::Decimal(decimal_total);
    }
  }
};

ExprResult Sum(std::vector<Opt>& a) {
  SumState s;
  for (const Opt& v : AccumulatorInputs(a)) {
    if (v && v->is_number()) s.Add(*v);
  }
  return Ok(s.Total());
}

ExprResult Avg(std::vector<Opt>& a) {
  SumState s;
  for (const Opt& v : AccumulatorInputs(a)) {
    if (v && v->is_number()) s.Add(*v);
  }
  if (s.count == 0) return internal::Null();
  if (s.widest == ValueType::kDecimal) {
    return Ok(
        Value::Decimal(s.decimal_total.Divide(Decimal128::FromInt64(s.count))));
  }
  double total = s.widest == ValueType::kDouble
                     ? s.double_total
                     : static_cast<double>(s.long_total);
  return Ok(Value::Double(total / static_cast<double>(s.count)));
}

template <bool kMax>
ExprResult MinMax(std::vector<Opt>& a) {
  Opt best;
  for (const Opt& v : AccumulatorInputs(a)) {
    if (Nullish(v)) continue;
    if (!best ||
        (kMax ? CompareValues(*v, *best) > 0 : CompareValues(*v, *best) < 0)) {
      best = v;
    }
  }
  if (!best) return internal::Null();
  return Ok(*best);
}

// ---- $filter, $map, $reduce ----

// Declares `name` (validated) for the parse of one sub-expression.
absl::StatusOr<ExprPtr> ParseInScope(const Value& spec, absl::string_view name,
                                     ParseContext* ctx, int* id) {
  *id = ctx->Push(name);
  auto e = ParseExpression(spec, ctx);
  ctx->Pop(name);
  return e;
}

class FilterExpr : public Expression {
 public:
  FilterExpr(ExprPtr input, int id, ExprPtr cond, ExprPtr limit)
      : input_(std::move(input)),
        id_(id),
        cond_(std::move(cond)),
        limit_(std::move(limit)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt input, input_->Evaluate(doc, vars));
    if (Nullish(input)) return internal::Null();
    if (!input->is_array()) {
      return ExprError(28651, absl::StrCat("input to $filter must be an array "
                                           "not ",
                                           TypeNameOf(input)));
    }
    int64_t limit = std::numeric_limits<int64_t>::max();
    if (limit_ != nullptr) {
      ASSIGN_OR_RETURN(Opt l, limit_->Evaluate(doc, vars));
      if (!Nullish(l)) {
        if (!l->is_number() || !IsIntegral32(*l)) {
          return ExprError(327391, absl::StrCat("$filter: limit must be "
                                                "represented as a 32-bit "
                                                "integral value: ",
                                                DebugString(l)));
        }
        limit = NumToLong(*l);
        if (limit < 1) {
          return ExprError(327392, absl::StrCat("$filter: limit must be "
                                                "greater than 0: ",
                                                limit));
        }
      }
    }
    Value::Array out;
    for (const Value& v : input->array_items()) {
      if (static_cast<int64_t>(out.size()) >= limit) break;
      RETURN_IF_ERROR(internal::CheckForInterrupt());
      vars->Set(id_, v);
      ASSIGN_OR_RETURN(Opt c, cond_->Evaluate(doc, vars));
      if (IsTruthy(c)) out.push_back(v);
    }
    return Ok(Value::MakeArray(std::move(out)));
  }

 private:
  ExprPtr input_;
  int id_;
  ExprPtr cond_, limit_;
};

ParseResult ParseFilter(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(28646, "$filter only supports an object as its argument");
  }
  const Value *input = nullptr, *as = nullptr, *cond = nullptr,
              *limit = nullptr;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "input") {
      input = &v;
    } else if (name == "as") {
      as = &v;
    } else if (name == "cond") {
      cond = &v;
    } else if (name == "limit") {
      limit = &v;
    } else {
      return ExprError(
          28647, absl::StrCat("Unrecognized parameter to $filter: ", name));
    }
  }
  if (input == nullptr) {
    return ExprError(28648, "Missing 'input' parameter to $filter");
  }
  if (cond == nullptr) {
    return ExprError(28650, "Missing 'cond' parameter to $filter");
  }
  std::string var = "this";
  if (as != nullptr) {
    if (!as->is_string()) {
      return ExprError(
          28649, "$filter's 'as' field must be a string (a variable name)");
    }
    var = as->string_value();
    RETURN_IF_ERROR(ValidateVariableName(var));
  }
  ASSIGN_OR_RETURN(ExprPtr in, ParseExpression(*input, ctx));
  ExprPtr lim;
  if (limit != nullptr) {
    ASSIGN_OR_RETURN(lim, ParseExpression(*limit, ctx));
  }
  int id;
  ASSIGN_OR_RETURN(ExprPtr c, ParseInScope(*cond, var, ctx, &id));
  return ExprPtr(
      new FilterExpr(std::move(in), id, std::move(c), std::move(lim)));
}

class MapExpr : public Expression {
 public:
  MapExpr(ExprPtr input, int id, ExprPtr each)
      : input_(std::move(input)), id_(id), each_(std::move(each)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt input, input_->Evaluate(doc, vars));
    if (Nullish(input)) return internal::Null();
    if (!input->is_array()) {
      return ExprError(16883, absl::StrCat("input to $map must be an array "
                                           "not ",
                                           TypeNameOf(input)));
    }
    Value::Array out;
    out.reserve(input->array_items().size());
    internal::ValueBudget budget("$map");
    for (const Value& v : input->array_items()) {
      RETURN_IF_ERROR(internal::CheckForInterrupt());
      vars->Set(id_, v);
      ASSIGN_OR_RETURN(Opt r, each_->Evaluate(doc, vars));
      out.push_back(r.has_value() ? std::move(*r) : Value::Null());
      RETURN_IF_ERROR(budget.AddElement(out.size() - 1, out.back()));
    }
    return Ok(Value::MakeArray(std::move(out)));
  }

 private:
  ExprPtr input_;
  int id_;
  ExprPtr each_;
};

ParseResult ParseMap(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(16878, "$map only supports an object as its argument");
  }
  const Value *input = nullptr, *as = nullptr, *in = nullptr;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "input") {
      input = &v;
    } else if (name == "as") {
      as = &v;
    } else if (name == "in") {
      in = &v;
    } else {
      return ExprError(16879,
                       absl::StrCat("Unrecognized parameter to $map: ", name));
    }
  }
  if (input == nullptr) {
    return ExprError(16880, "Missing 'input' parameter to $map");
  }
  if (in == nullptr) return ExprError(16882, "Missing 'in' parameter to $map");
  std::string var = "this";
  if (as != nullptr) {
    if (!as->is_string()) {
      return ExprError(16881,
                       "$map's 'as' field must be a string (a variable name)");
    }
    var = as->string_value();
    RETURN_IF_ERROR(ValidateVariableName(var));
  }
  ASSIGN_OR_RETURN(ExprPtr input_e, ParseExpression(*input, ctx));
  int id;
  ASSIGN_OR_RETURN(ExprPtr each, ParseInScope(*in, var, ctx, &id));
  return ExprPtr(new MapExpr(std::move(input_e), id, std::move(each)));
}

class ReduceExpr : public Expression {
 public:
  ReduceExpr(ExprPtr input, ExprPtr initial, int value_id, int this_id,
             ExprPtr in)
      : input_(std::move(input)),
        initial_(std::move(initial)),
        value_id_(value_id),
        this_id_(this_id),
        in_(std::move(in)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt input, input_->Evaluate(doc, vars));
    if (Nullish(input)) return internal::Null();
    if (!input->is_array()) {
      return ExprError(40080, absl::StrCat("$reduce requires that 'input' be "
                                           "an array, found: ",
                                           DebugString(input)));
    }
    ASSIGN_OR_RETURN(Opt acc, initial_->Evaluate(doc, vars));
    // Each step's value is what `in` builds, so the operators' own bounds
    // (kMaxValueBytes) bound it: a $concatArrays that doubles $$value fails
    // with 10334 once past 16 MiB.
    for (const Value& v : input->array_items()) {
      RETURN_IF_ERROR(internal::CheckForInterrupt());
      vars->Set(value_id_, acc.has_value() ? std::move(*acc) : Value::Null());
      vars->Set(this_id_, v);
      ASSIGN_OR_RETURN(acc, in_->Evaluate(doc, vars));
    }
    return acc;
  }

 private:
  ExprPtr input_, initial_;
  int value_id_, this_id_;
  ExprPtr in_;
};

ParseResult ParseReduce(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(40075, absl::StrCat("$reduce requires an object as an "
                                         "argument, found: ",
                                         TypeName(operand.type())));
  }
  const Value *input = nullptr, *initial = nullptr, *in = nullptr;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "input") {
      input = &v;
    } else if (name == "initialValue") {
      initial = &v;
    } else if (name == "in") {
      in = &v;
    } else {
      return ExprError(
          40076, absl::StrCat("$reduce found an unknown argument: ", name));
    }
  }
  if (input == nullptr) {
    return ExprError(40077, "$reduce requires 'input' to be specified");
  }
  if (initial == nullptr) {
    return ExprError(40078, "$reduce requires 'initialValue' to be specified");
  }
  if (in == nullptr) {
    return ExprError(40079, "$reduce requires 'in' to be specified");
  }
  ASSIGN_OR_RETURN(ExprPtr input_e, ParseExpression(*input, ctx));
  ASSIGN_OR_RETURN(ExprPtr initial_e, ParseExpression(*initial, ctx));
  int value_id = ctx->Push("value");
  int this_id = ctx->Push("this");
  auto in_e = ParseExpression(*in, ctx);
  ctx->Pop("this");
  ctx->Pop("value");
  if (!in_e.ok()) return in_e.status();
  return ExprPtr(new ReduceExpr(std::move(input_e), std::move(initial_e),
                                value_id, this_id, std::move(*in_e)));
}

// ---- $zip ----

class ZipExpr : public Expression {
 public:
  ZipExpr(std::vector<ExprPtr> inputs, bool longest,
          std::vector<ExprPtr> defaults)
      : inputs_(std::move(inputs)),
        longest_(longest),
        defaults_(std::move(defaults)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    std::vector<Value::Array> arrays;
    size_t min_size = 0, max_size = 0;
    size_t held = 0;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      ASSIGN_OR_RETURN(Opt v, inputs_[i]->Evaluate(doc, vars));
      if (v.has_value()) held += internal::OperandBytes(*v);
      if (held > kMaxOperandBytes) {
        return internal::OperandsTooLargeError("$zip", held);
      }
      if (Nullish(v)) return internal::Null();
      if (!v->is_array()) {
        return ExprError(34468, absl::StrCat("$zip found a non-array "
                                             "expression in input: ",
                                             DebugString(v)));
      }
      size_t n = v->array_items().size();
      min_size = i == 0 ? n : std::min(min_size, n);
      max_size = i == 0 ? n : std::max(max_size, n);
      arrays.push_back(v->array_items());
    }
    std::vector<Value> defaults(inputs_.size(), Value::Null());
    if (min_size != max_size) {
      for (size_t i = 0; i < defaults_.size(); ++i) {
        ASSIGN_OR_RETURN(Opt d, defaults_[i]->Evaluate(doc, vars));
        defaults[i] = d.has_value() ? std::move(*d) : Value::Null();
        held += internal::OperandBytes(defaults[i]);
        if (held > kMaxOperandBytes) {
          return internal::OperandsTooLargeError("$zip", held);
        }
      }
    }
    const size_t rows = longest_ ? max_size : min_size;
    Value::Array out;
    internal::ValueBudget budget("$zip");
    for (size_t r = 0; r < rows; ++r) {
      RETURN_IF_ERROR(internal::CheckForInterrupt());
      Value::Array row;
      for (size_t c = 0; c < arrays.size(); ++c) {
        row.push_back(r < arrays[c].size() ? arrays[c][r] : defaults[c]);
        RETURN_IF_ERROR(budget.AddElement(c, row.back()));
      }
      out.push_back(Value::MakeArray(std::move(row)));
    }
    return Ok(Value::MakeArray(std::move(out)));
  }

 private:
  std::vector<ExprPtr> inputs_;
  bool longest_;
  std::vector<ExprPtr> defaults_;
};

ParseResult ParseZip(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(34460, absl::StrCat("$zip only supports an object as an "
                                         "argument, found ",
                                         TypeName(operand.type())));
  }
  const Value *inputs = nullptr, *defaults = nullptr;
  bool longest = false;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "inputs") {
      if (!v.is_array()) {
        return ExprError(34461, absl::StrCat("inputs must be an array of "
                                             "expressions, found ",
                                             TypeName(v.type())));
      }
      inputs = &v;
    } else if (name == "defaults") {
      if (!v.is_array()) {
        return ExprError(34462, absl::StrCat("defaults must be an array of "
                                             "expressions, found ",
                                             TypeName(v.type())));
      }
      defaults = &v;
    } else if (name == "useLongestLength") {
      if (v.type() != ValueType::kBool) {
        return ExprError(34463, absl::StrCat("useLongestLength must be a bool, "
                                             "found ",
                                             TypeName(v.type())));
      }
      longest = v.bool_value();
    } else {
      return ExprError(34464,
                       absl::StrCat("$zip found an unknown argument: ", name));
    }
  }
  if (inputs == nullptr || inputs->array_items().empty()) {
    return ExprError(34465, "$zip requires at least one input array");
  }
  if (defaults != nullptr && !longest) {
    return ExprError(34466,
                     "cannot specify defaults unless useLongestLength "
                     "is true");
  }
  if (defaults != nullptr &&
      defaults->array_items().size() != inputs->array_items().size()) {
    return ExprError(34467, "defaults and inputs must have the same length");
  }
  std::vector<ExprPtr> in, def;
  for (const Value& v : inputs->array_items()) {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpression(v, ctx));
    in.push_back(std::move(e));
  }
  if (defaults != nullptr) {
    for (const Value& v : defaults->array_items()) {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpression(v, ctx));
      def.push_back(std::move(e));
    }
  }
  return ExprPtr(new ZipExpr(std::move(in), longest, std::move(def)));
}

// ---- $firstN, $lastN (array forms: {n, input}) ----

// $firstN, $lastN, $minN, $maxN over an array (expression_n_value's
// ExpressionArrayN): the first / last n elements, or the n smallest /
// largest in MongoDB's comparison order, null elements left out, as the
// accumulators of the same names leave them out.
enum class NKind { kFirst, kLast, kMin, kMax };

constexpr const char* NKindName(NKind k) {
  return k == NKind::kFirst  ? "$firstN"
         : k == NKind::kLast ? "$lastN"
         : k == NKind::kMin  ? "$minN"
                             : "$maxN";
}

template <NKind kKind>
class ArrayNExpr : public Expression {
 public:
  ArrayNExpr(ExprPtr n, ExprPtr input)
      : n_(std::move(n)), input_(std::move(input)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    const char* op = NKindName(kKind);
    ASSIGN_OR_RETURN(Opt n, n_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt input, input_->Evaluate(doc, vars));
    int64_t count = 0;
    if (!n || !n->is_number() || !internal::IsIntegral64(*n, &count)) {
      return ExprError(5787902, absl::StrCat("Value for 'n' must be of "
                                             "integral type, but found ",
                                             DebugString(n)));
    }
    if (count <= 0) {
      return ExprError(5787908, absl::StrCat("'n' must be greater than 0, "
                                             "found ",
                                             count));
    }
    if (!input || !input->is_array()) {
      return ExprError(5788200, absl::StrCat("Input to ", op,
                                             " must be an "
                                             "array, but "
                                             "found ",
                                             TypeNameOf(input)));
    }
    const Value::Array& items = input->array_items();
    if (kKind == NKind::kMin || kKind == NKind::kMax) {
      Value::Array kept;
      for (const Value& v : items) {
        if (!v.is_null()) kept.push_back(v);
      }
      const size_t k = std::min<size_t>(kept.size(), count);
      std::partial_sort(kept.begin(), kept.begin() + k, kept.end(),
                        [](const Value& a, const Value& b) {
                          int c = CompareValues(a, b);
                          return kKind == NKind::kMin ? c < 0 : c > 0;
                        });
      kept.resize(k);
      return Ok(Value::MakeArray(std::move(kept)));
    }
    const size_t k = std::min<size_t>(items.size(), count);
    return Ok(Value::MakeArray(
        kKind == NKind::kFirst ? Value::Array(items.begin(), items.begin() + k)
                               : Value::Array(items.end() - k, items.end())));
  }

 private:
  ExprPtr n_, input_;
};

template <NKind kKind>
ParseResult ParseArrayN(const Value& operand, ParseContext* ctx) {
  const char* op = NKindName(kKind);
  if (!operand.is_object()) {
    return ExprError(5787801, absl::StrCat("specification must be an object; "
                                           "found ",
                                           DebugString(operand), " for ", op));
  }
  ExprPtr n, input;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "n") {
      ASSIGN_OR_RETURN(n, ParseExpression(v, ctx));
    } else if (name == "input") {
      ASSIGN_OR_RETURN(input, ParseExpression(v, ctx));
    } else {
      return ExprError(5787901, absl::StrCat("Unknown argument for 'n' "
                                             "operator: ",
                                             name));
    }
  }
  if (n == nullptr) {
    return ExprError(5787906, absl::StrCat("Missing value for 'n' in ", op));
  }
  if (input == nullptr) {
    return ExprError(5787907,
                     absl::StrCat("Missing value for 'input' in ", op));
  }
  return ExprPtr(new ArrayNExpr<kKind>(std::move(n), std::move(input)));
}

// ---- $sortArray ----

// {$sortArray: {input, sortBy}} (MongoDB 5.2+, expression.cpp
// ExpressionSortArray with PatternValueCmp): sortBy 1 / -1 orders the
// elements whole, by MongoDB's comparison order (document/compare.h);
// sortBy {field: 1 | -1, ...} orders them by those fields, each looked up
// exactly (no traversal of arrays but numeric components, as $push's
// $sort: dotted_path_support::extractElementsBasedOnTemplate), a missing
// field or a non-object element counting as null. Ties keep the input's
// order (MongoDB's std::sort leaves them unspecified).
class SortArrayExpr : public Expression {
 public:
  SortArrayExpr(ExprPtr input, int whole_direction,
                std::vector<std::pair<std::string, int>> fields)
      : input_(std::move(input)),
        whole_direction_(whole_direction),
        fields_(std::move(fields)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt input, input_->Evaluate(doc, vars));
    if (Nullish(input)) return internal::Null();
    if (!input->is_array()) {
      return ExprError(2942504, absl::StrCat("The input argument to $sortArray "
                                             "must be an array, but was of "
                                             "type: ",
                                             TypeNameOf(input)));
    }
    Value::Array items = input->array_items();
    std::stable_sort(
        items.begin(), items.end(),
        [this](const Value& a, const Value& b) { return Compare(a, b) < 0; });
    return Ok(Value::MakeArray(std::move(items)));
  }

 private:
  int Compare(const Value& a, const Value& b) const {
    if (fields_.empty()) return whole_direction_ * CompareValues(a, b);
    static const Value* const kNull = new Value(Value::Null());
    for (const auto& [path, direction] : fields_) {
      const Value* x = a.is_object() ? GetPath(a, path) : nullptr;
      const Value* y = b.is_object() ? GetPath(b, path) : nullptr;
      int c =
          CompareValues(x != nullptr ? *x : *kNull, y != nullptr ? *y : *kNull);
      if (c != 0) return direction * c;
    }
    return 0;
  }

  ExprPtr input_;
  int whole_direction_;  // with no fields
  std::vector<std::pair<std::string, int>> fields_;
};

// 1 or -1, else 2942506 (the sort pattern's check).
absl::StatusOr<int> SortDirection(const Value& v) {
  if (v.is_number()) {
    const double d = v.AsDouble();
    if (d == 1 || d == -1) return static_cast<int>(d);
  }
  return ExprError(2942506, "The $sort element value must be either 1 or -1");
}

ParseResult ParseSortArray(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(2942500, absl::StrCat("$sortArray requires an object as "
                                           "an argument, found: ",
                                           TypeName(operand.type())));
  }
  ExprPtr input;
  const Value* sort_by = nullptr;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "input") {
      ASSIGN_OR_RETURN(input, ParseExpression(v, ctx));
    } else if (name == "sortBy") {
      sort_by = &v;
    } else {
      return ExprError(
          2942501,
          absl::StrCat("$sortArray found an unknown argument: ", name));
    }
  }
  if (input == nullptr) {
    return ExprError(2942502, "$sortArray requires 'input' to be specified");
  }
  if (sort_by == nullptr) {
    return ExprError(2942503, "$sortArray requires 'sortBy' to be specified");
  }
  int whole = 1;
  std::vector<std::pair<std::string, int>> fields;
  if (sort_by->is_object()) {
    if (sort_by->object_fields().empty()) {
      return ExprError(kBadValue,
                       "The $sort pattern is empty when it should be a set of "
                       "fields.");
    }
    for (const auto& [path, dir] : sort_by->object_fields()) {
      for (absl::string_view part : SplitPath(path)) {
        if (part.empty()) {
          return ExprError(kBadValue,
                           absl::StrCat("The $sort field is a dotted field but "
                                        "has an empty part: ",
                                        path));
        }
      }
      ASSIGN_OR_RETURN(int d, SortDirection(dir));
      fields.emplace_back(path, d);
    }
  } else {
    ASSIGN_OR_RETURN(whole, SortDirection(*sort_by));
  }
  return ExprPtr(new SortArrayExpr(std::move(input), whole, std::move(fields)));
}

}  // namespace

void RegisterArrayOperators() {
  RegisterOperator("$zip", ParseZip);
  RegisterOperator("$firstN", ParseArrayN<NKind::kFirst>);
  RegisterOperator("$lastN", ParseArrayN<NKind::kLast>);
  RegisterOperator("$minN", ParseArrayN<NKind::kMin>);
  RegisterOperator("$maxN", ParseArrayN<NKind::kMax>);
  TTLDB_REGISTER_EAGER("$size", 1, 1, Size);
  TTLDB_REGISTER_EAGER("$arrayElemAt", 2, 2, ArrayElemAt);
  TTLDB_REGISTER_EAGER("$first", 1, 1, First);
  TTLDB_REGISTER_EAGER("$last", 1, 1, Last);
  TTLDB_REGISTER_EAGER("$isArray", 1, 1, IsArray);
  TTLDB_REGISTER_EAGER("$in", 2, 2, In);
  TTLDB_REGISTER_EAGER("$slice", 2, 3, Slice);
  RegisterOperator("$concatArrays", ParseConcatArrays);
  TTLDB_REGISTER_EAGER("$reverseArray", 1, 1, ReverseArray);
  TTLDB_REGISTER_EAGER("$range", 2, 3, Range);
  TTLDB_REGISTER_EAGER("$indexOfArray", 2, 4, IndexOfArray);
  TTLDB_REGISTER_EAGER("$allElementsTrue", 1, 1, ElementsTrue<true>);
  TTLDB_REGISTER_EAGER("$anyElementTrue", 1, 1, ElementsTrue<false>);
  TTLDB_REGISTER_EAGER("$sum", 0, -1, Sum);
  TTLDB_REGISTER_EAGER("$avg", 0, -1, Avg);
  TTLDB_REGISTER_EAGER("$min", 0, -1, MinMax<false>);
  TTLDB_REGISTER_EAGER("$max", 0, -1, MinMax<true>);
  RegisterOperator("$filter", ParseFilter);
  RegisterOperator("$map", ParseMap);
  RegisterOperator("$reduce", ParseReduce);
  RegisterOperator("$sortArray", ParseSortArray);
}

}  // namespace agg
}  // namespace ttldb
