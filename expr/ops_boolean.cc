// Boolean operators: $and and $or (any number of arguments, evaluated left
// to right and short-circuited) and $not (one argument), over MongoDB's
// truthiness (IsTruthy). Each yields a bool.
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::Args;
using internal::Ok;
using internal::ParseResult;

// $and (kAnd) or $or: stops at the first false (true) argument.
template <bool kAnd>
class AndOrExpr : public Expression {
 public:
  explicit AndOrExpr(Args args) : args_(std::move(args)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    for (const auto& a : args_) {
      ASSIGN_OR_RETURN(std::optional<Value> v, a->Evaluate(doc, vars));
      bool t = IsTruthy(v);
      if (kAnd && !t) return Ok(Value::Bool(false));
      if (!kAnd && t) return Ok(Value::Bool(true));
    }
    return Ok(Value::Bool(kAnd));
  }
  bool IsConstant() const override { return internal::AllConstant(args_); }

 private:
  Args args_;
};

template <bool kAnd>
ParseResult ParseAndOr(const Value& operand, ParseContext* ctx) {
  ASSIGN_OR_RETURN(Args args, internal::ParseArgs(operand, ctx));
  return internal::ExprPtr(new AndOrExpr<kAnd>(std::move(args)));
}

ExprResult Not(std::vector<internal::Opt>& a) {
  return Ok(Value::Bool(!IsTruthy(a[0])));
}

}  // namespace

void RegisterBooleanOperators() {
  RegisterOperator("$and", ParseAndOr<true>);
  RegisterOperator("$or", ParseAndOr<false>);
  TTLDB_REGISTER_EAGER("$not", 1, 1, Not);
}

}  // namespace agg
}  // namespace ttldb
