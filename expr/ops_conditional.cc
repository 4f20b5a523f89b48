// Conditional operators: $cond (object {if, then, else} and array forms),
// $ifNull (two or more arguments: the first that is neither null nor
// missing, else the last one's value) and $switch ({branches: [{case,
// then}], default}). Only the chosen branch is evaluated. Errors as
// src/mongo/db/pipeline/expression.cpp (ExpressionCond::parse,
// ExpressionIfNull, ExpressionSwitch::parse).
#include "absl/strings/str_cat.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::Args;
using internal::DebugString;
using internal::ExprError;
using internal::ExprPtr;
using internal::Nullish;
using internal::ParseResult;

class CondExpr : public Expression {
 public:
  CondExpr(ExprPtr c, ExprPtr t, ExprPtr e)
      : if_(std::move(c)), then_(std::move(t)), else_(std::move(e)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(std::optional<Value> c, if_->Evaluate(doc, vars));
    return IsTruthy(c) ? then_->Evaluate(doc, vars)
                       : else_->Evaluate(doc, vars);
  }
  bool IsConstant() const override {
    return if_->IsConstant() && then_->IsConstant() && else_->IsConstant();
  }

 private:
  ExprPtr if_, then_, else_;
};

ParseResult ParseCond(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    ASSIGN_OR_RETURN(Args args,
                     internal::ParseArgsChecked("$cond", operand, ctx, 3, 3));
    return ExprPtr(new CondExpr(std::move(args[0]), std::move(args[1]),
                                std::move(args[2])));
  }
  ExprPtr c, t, e;
  for (const auto& [name, v] : operand.object_fields()) {
    ExprPtr* slot = name == "if"     ? &c
                    : name == "then" ? &t
                    : name == "else" ? &e
                                     : nullptr;
    if (slot == nullptr) {
      return ExprError(17083,
                       absl::StrCat("Unrecognized parameter to $cond: ", name));
    }
    ASSIGN_OR_RETURN(*slot, ParseExpression(v, ctx));
  }
  if (c == nullptr) return ExprError(17080, "Missing 'if' parameter to $cond");
  if (t == nullptr) {
    return ExprError(17081, "Missing 'then' parameter to $cond");
  }
  if (e == nullptr) {
    return ExprError(17082, "Missing 'else' parameter to $cond");
  }
  return ExprPtr(new CondExpr(std::move(c), std::move(t), std::move(e)));
}

class IfNullExpr : public Expression {
 public:
  explicit IfNullExpr(Args args) : args_(std::move(args)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    for (size_t i = 0; i + 1 < args_.size(); ++i) {
      ASSIGN_OR_RETURN(std::optional<Value> v, args_[i]->Evaluate(doc, vars));
      if (!Nullish(v)) return v;
    }
    return args_.back()->Evaluate(doc, vars);
  }
  bool IsConstant() const override { return internal::AllConstant(args_); }

 private:
  Args args_;
};

ParseResult ParseIfNull(const Value& operand, ParseContext* ctx) {
  ASSIGN_OR_RETURN(Args args, internal::ParseArgs(operand, ctx));
  if (args.size() < 2) {
    return ExprError(1257300, absl::StrCat("$ifNull needs at least two "
                                           "arguments, had: ",
                                           args.size()));
  }
  return ExprPtr(new IfNullExpr(std::move(args)));
}

class SwitchExpr : public Expression {
 public:
  SwitchExpr(std::vector<std::pair<ExprPtr, ExprPtr>> branches, ExprPtr def)
      : branches_(std::move(branches)), default_(std::move(def)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    for (const auto& [c, t] : branches_) {
      ASSIGN_OR_RETURN(std::optional<Value> v, c->Evaluate(doc, vars));
      if (IsTruthy(v)) return t->Evaluate(doc, vars);
    }
    if (default_ == nullptr) {
      return ExprError(40066,
                       "$switch could not find a matching branch for an "
                       "input, and no default was specified.");
    }
    return default_->Evaluate(doc, vars);
  }

 private:
  std::vector<std::pair<ExprPtr, ExprPtr>> branches_;
  ExprPtr default_;
};

ParseResult ParseSwitch(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(40060, absl::StrCat("$switch requires an object as an "
                                         "argument, found: ",
                                         TypeName(operand.type())));
  }
  std::vector<std::pair<ExprPtr, ExprPtr>> branches;
  ExprPtr def;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "branches") {
      if (!v.is_array()) {
        return ExprError(40061, absl::StrCat("$switch expected an array for "
                                             "'branches', found: ",
                                             TypeName(v.type())));
      }
      for (const Value& b : v.array_items()) {
        if (!b.is_object()) {
          return ExprError(40062, absl::StrCat("$switch expected each branch "
                                               "to be an object, found: ",
                                               TypeName(b.type())));
        }
        ExprPtr c, t;
        for (const auto& [bn, bv] : b.object_fields()) {
          if (bn == "case") {
            ASSIGN_OR_RETURN(c, ParseExpression(bv, ctx));
          } else if (bn == "then") {
            ASSIGN_OR_RETURN(t, ParseExpression(bv, ctx));
          } else {
            return ExprError(40063, absl::StrCat("$switch found an unknown "
                                                 "argument to a branch: ",
                                                 bn));
          }
        }
        if (c == nullptr) {
          return ExprError(40064,
                           "$switch requires each branch have a 'case' "
                           "expression");
        }
        if (t == nullptr) {
          return ExprError(40065,
                           "$switch requires each branch have a 'then' "
                           "expression.");
        }
        branches.emplace_back(std::move(c), std::move(t));
      }
    } else if (name == "default") {
      ASSIGN_OR_RETURN(def, ParseExpression(v, ctx));
    } else {
      return ExprError(
          40067, absl::StrCat("$switch found an unknown argument: ", name));
    }
  }
  if (branches.empty()) {
    return ExprError(40068, "$switch requires at least one branch.");
  }
  return ExprPtr(new SwitchExpr(std::move(branches), std::move(def)));
}

}  // namespace

void RegisterConditionalOperators() {
  RegisterOperator("$cond", ParseCond);
  RegisterOperator("$ifNull", ParseIfNull);
  RegisterOperator("$switch", ParseSwitch);
}

}  // namespace agg
}  // namespace ttldb
