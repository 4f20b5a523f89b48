// MongoDB's aggregation expression language: parse an expression once, then
// evaluate it against documents.
//
//   ParseContext pctx;
//   ASSIGN_OR_RETURN(auto expr, ParseExpression(spec, &pctx));
//   Variables vars(doc, now);
//   ASSIGN_OR_RETURN(std::optional<Value> v, expr->Evaluate(doc, &vars));
//
// An expression is a field path ("$a.b"), a variable ("$$ROOT", "$$NOW",
// "$$REMOVE" (missing),
// "$$x" bound by $let/$map/$filter/$reduce or a pipeline's `let`), a
// literal, an object of expressions ({a: "$x", b: {$add: [1, 2]}}), an
// array of expressions, or an operator ({$add: [...]}, {$literal: v}).
// Semantics follow MongoDB 8.0 (src/mongo/db/pipeline/expression.cpp):
//  - evaluation yields a Value or *missing* (std::nullopt): a field path
//    that names nothing. $project/$addFields omit a missing result; inside
//    an array expression missing becomes null; most operators treat missing
//    as null;
//  - "$a.b" through an array yields the array of what each object element
//    holds (elements holding nothing, scalars and nested arrays are
//    skipped, as ExpressionFieldPath::evaluatePathArray does);
//  - parse errors and run-time type errors are InvalidArgument with
//    MongoDB's code and wording (e.g. 16554 "$add only supports numeric or
//    date types, not string", 17276 "Use of undefined variable: x",
//    168 InvalidPipelineOperator "Unrecognized expression '$foo'").
//
// A parsed Expression is immutable and may be evaluated from many threads,
// each with its own Variables.
#ifndef TTLDB_EXPR_EXPRESSION_H_
#define TTLDB_EXPR_EXPRESSION_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "document/collator.h"
#include "ttldb/value.h"

namespace ttldb {
namespace agg {

// 16 MiB + 16 KiB: MongoDB's BSONObjMaxInternalSize
// (src/mongo/bson/util/builder.h), the largest document mongod returns. No
// value an expression builds may be larger (it could never be returned):
// evaluation fails with 10334 BSONObjectTooLarge, before the value is built
// where the size is known in advance. Together with kMaxOperandBytes this
// bounds the memory one evaluation holds, so that no expression a client
// sends can exhaust the server's memory.
inline constexpr size_t kMaxValueBytes = (16 << 20) + (16 << 10);

// 64 MiB: the most BSON bytes of evaluated arguments one operator holds at
// once ({$concat: ["$s", "$s", ...]}); beyond it 146 ExceededMemoryLimit,
// worded as $range's bound (MongoDB's internalQueryMaxRangeBytes, also 64
// MiB).
inline constexpr size_t kMaxOperandBytes = 64 << 20;

// The result of evaluating an expression: a value, or std::nullopt for
// missing.
using ExprResult = absl::StatusOr<std::optional<Value>>;

// Variable bindings for one evaluation. ROOT is the document the pipeline
// stage is processing; CURRENT starts equal to it; NOW is fixed per
// pipeline (MongoDB evaluates $$NOW once per command). User variables are
// bound by id (ids are assigned at parse time by ParseContext).
class Variables {
 public:
  Variables(const Value* root, int64_t now_millis)
      : root_(root), now_millis_(now_millis) {}

  const Value& root() const { return *root_; }
  void set_root(const Value* root) { root_ = root; }
  int64_t now_millis() const { return now_millis_; }

  // The collation the comparison operators ($eq, $ne, $gt, $gte, $lt,
  // $lte, $cmp, $in, $indexOfArray) compare strings by (nullptr: simple):
  // the pipeline's, or the filter's for $expr (document/collator.h). Not
  // owned; it outlives the evaluation.
  const Collator* collator() const { return collator_; }
  void set_collator(const Collator* collator) { collator_ = collator; }

  // Binds / reads a user variable. Get returns nullptr when unbound (an
  // expression evaluated outside the scope that binds it).
  void Set(int id, Value value) { user_[id] = std::move(value); }
  const Value* Get(int id) const {
    auto it = user_.find(id);
    return it == user_.end() ? nullptr : &it->second;
  }

 private:
  const Value* root_;
  int64_t now_millis_;
  const Collator* collator_ = nullptr;
  absl::flat_hash_map<int, Value> user_;
};

// Names in scope while parsing ($let/$map/... push and pop them), so that
// "$$x" resolves to a variable id or fails with 17276 at parse time.
class ParseContext {
 public:
  ParseContext() = default;

  // Declares `name` in a new innermost scope; returns its id. MongoDB's
  // rule for user variable names (must start with a lowercase letter or a
  // non-ASCII byte; letters, digits, '_' and non-ASCII only) is checked by
  // the caller with ValidateVariableName.
  int Push(absl::string_view name);
  // Ends the innermost scope of `name` (the last Push of it).
  void Pop(absl::string_view name);
  // The id of the innermost variable called `name`, or -1.
  int Lookup(absl::string_view name) const;

 private:
  std::vector<std::pair<std::string, int>> scope_;
  int next_id_ = 0;
};

// MongoDB's rules for a user variable name (16866..16870, "'<name>' starts
// with an invalid character for a user variable name").
absl::Status ValidateVariableName(absl::string_view name);

class Expression {
 public:
  virtual ~Expression() = default;
  // Evaluates against `doc` ($$CURRENT, which field paths read) with the
  // bindings in `vars`.
  virtual ExprResult Evaluate(const Value& doc, Variables* vars) const = 0;
  // True for a constant expression (a literal, or an operator over
  // constants): the pipeline may evaluate it once.
  virtual bool IsConstant() const { return false; }
  // The value this expression evaluates to, when it already exists
  // (a literal, a variable, a field path through objects only): true, with
  // `*out` pointing at it (nullptr for missing), valid while `doc` and
  // `vars` are unchanged. False when it must be built: call Evaluate. It
  // lets an operator read a large operand without copying it ($reduce's
  // $$value in {$concatArrays: ["$$value", "$$value"]}).
  virtual bool Peek(const Value& doc, const Variables& vars,
                    const Value** out) const {
    return false;
  }
};

// Parses any expression. Objects whose first field starts with '$' are
// operators and must have exactly one field (15983 "An object representing
// an expression must have exactly one field"); other objects are object
// expressions whose field names may not start with '$' (16410) or contain
// '.' (16412).
absl::StatusOr<std::unique_ptr<Expression>> ParseExpression(const Value& spec,
                                                            ParseContext* ctx);

// Parses "$a.b" / "$$var.a" (spec must be a string starting with '$').
absl::StatusOr<std::unique_ptr<Expression>> ParseFieldPath(
    absl::string_view path, ParseContext* ctx);

// Parses the operand of an operator ({$op: operand}). Registered operators
// are looked up by name; an unknown name is 168 InvalidPipelineOperator
// "Unrecognized expression '$name'".
absl::StatusOr<std::unique_ptr<Expression>> ParseOperator(
    absl::string_view name, const Value& operand, ParseContext* ctx);

// Registers (or replaces) the parser of operator `name` ("$add"). The
// built-in operators (expr/ops_*.cc) are registered once, by the first
// ParseOperator call (absl::call_once), not by static initializers, so
// linking //expr statically is enough; a parser registered here
// before that keeps precedence over a built-in of the same name.
using OperatorParser = absl::StatusOr<std::unique_ptr<Expression>> (*)(
    const Value& operand, ParseContext* ctx);
void RegisterOperator(absl::string_view name, OperatorParser parser);

// MongoDB's truthiness ($cond, $and, $or, $not, $filter): false, null,
// missing, 0 of any numeric type and undefined are false; everything else
// (including "" and []) is true.
bool IsTruthy(const std::optional<Value>& v);

// MongoDB's Value::nullish(): missing or null (ttldb has no undefined).
inline bool Nullish(const std::optional<Value>& v) {
  return !v.has_value() || v->is_null();
}

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_EXPR_EXPRESSION_H_
