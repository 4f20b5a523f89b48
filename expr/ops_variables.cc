// $let: {vars: {name: <expr>, ...}, in: <expr>}. The vars are evaluated in
// the outer scope, then bound for `in` (src/mongo/db/pipeline/
// expression.cpp ExpressionLet::parse: 16874..16877; names checked with
// ValidateVariableName).
#include "absl/strings/str_cat.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::ExprError;
using internal::ExprPtr;
using internal::ParseResult;

class LetExpr : public Expression {
 public:
  LetExpr(std::vector<std::pair<int, ExprPtr>> vars, ExprPtr in)
      : vars_(std::move(vars)), in_(std::move(in)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    // Evaluate every binding before binding any (they see only outer
    // variables).
    std::vector<Value> values;
    values.reserve(vars_.size());
    for (const auto& [id, e] : vars_) {
      ASSIGN_OR_RETURN(std::optional<Value> v, e->Evaluate(doc, vars));
      values.push_back(v.has_value() ? std::move(*v) : Value::Null());
    }
    for (size_t i = 0; i < vars_.size(); ++i) {
      vars->Set(vars_[i].first, std::move(values[i]));
    }
    return in_->Evaluate(doc, vars);
  }

 private:
  std::vector<std::pair<int, ExprPtr>> vars_;
  ExprPtr in_;
};

ParseResult ParseLet(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(16874, "$let only supports an object as its argument");
  }
  const Value* vars_spec = nullptr;
  const Value* in_spec = nullptr;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "vars") {
      vars_spec = &v;
    } else if (name == "in") {
      in_spec = &v;
    } else {
      return ExprError(16875,
                       absl::StrCat("Unrecognized parameter to $let: ", name));
    }
  }
  if (vars_spec == nullptr) {
    return ExprError(16876, "Missing 'vars' parameter to $let");
  }
  if (in_spec == nullptr) {
    return ExprError(16877, "Missing 'in' parameter to $let");
  }
  if (!vars_spec->is_object()) {
    return ExprError(10065, "invalid parameter: expected an object (vars)");
  }
  std::vector<std::pair<std::string, ExprPtr>> parsed;
  for (const auto& [name, v] : vars_spec->object_fields()) {
    RETURN_IF_ERROR(ValidateVariableName(name));
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpression(v, ctx));  // outer scope
    parsed.emplace_back(name, std::move(e));
  }
  std::vector<std::pair<int, ExprPtr>> vars;
  for (auto& [name, e] : parsed)
    vars.emplace_back(ctx->Push(name), std::move(e));
  auto in = ParseExpression(*in_spec, ctx);
  for (auto it = parsed.rbegin(); it != parsed.rend(); ++it)
    ctx->Pop(it->first);
  if (!in.ok()) return in.status();
  return ExprPtr(new LetExpr(std::move(vars), std::move(*in)));
}

}  // namespace

void RegisterVariableOperators() { RegisterOperator("$let", ParseLet); }

}  // namespace agg
}  // namespace ttldb
