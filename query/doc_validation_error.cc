#include "query/doc_validation_error.h"

#include <string>
#include <utility>

#include "base/status.h"
#include "document/path.h"
#include "expr/expression.h"

namespace ttldb {
namespace {

using Kind = MatchExpr::Kind;

Value Str(absl::string_view s) { return Value::String(std::string(s)); }

struct LeafInfo {
  const char* op;
  const char* reason;           // normal
  const char* inverted_reason;  // under $not / $nor
};

LeafInfo InfoOf(Kind kind) {
  switch (kind) {
    case Kind::kEq:
      return {"$eq", "comparison failed", "comparison succeeded"};
    case Kind::kNe:
      return {"$ne", "comparison succeeded", "comparison failed"};
    case Kind::kGt:
      return {"$gt", "comparison failed", "comparison succeeded"};
    case Kind::kGte:
      return {"$gte", "comparison failed", "comparison succeeded"};
    case Kind::kLt:
      return {"$lt", "comparison failed", "comparison succeeded"};
    case Kind::kLte:
      return {"$lte", "comparison failed", "comparison succeeded"};
    case Kind::kIn:
      return {"$in", "no matching value found in array",
              "matching value found in array"};
    case Kind::kNin:
      return {"$nin", "matching value found in array",
              "no matching value found in array"};
    case Kind::kExists:
      return {"$exists", "path does not exist", "path does exist"};
    case Kind::kType:
      return {"$type", "type did not match", "type did match"};
    case Kind::kAll:
      return {"$all", "array did not contain all specified values",
              "array did contain all specified values"};
    case Kind::kSize:
      return {"$size", "array length was not equal to given size",
              "array length was equal to given size"};
    case Kind::kElemMatch:
      return {"$elemMatch", "array did not satisfy the child predicate",
              "array did satisfy the child predicate"};
    case Kind::kRegex:
      return {"$regex", "regular expression did not match",
              "regular expression did match"};
    case Kind::kMod:
      return {"$mod", "$mod did not evaluate to expected remainder",
              "$mod did evaluate to expected remainder"};
    default:
      return {"", "", ""};
  }
}

// The operator's argument as written: {$in: [...]}, {$type: [...]}, ...
Value OperatorSpec(const MatchExpr& e, const LeafInfo& info) {
  switch (e.kind) {
    case Kind::kEq:
      return e.operand;  // {a: 1}: the implicit form
    case Kind::kIn:
    case Kind::kNin:
    case Kind::kAll:
      return Value::MakeObject({{info.op, Value::MakeArray(e.operands)}});
    default:
      return Value::MakeObject({{info.op, e.operand}});
  }
}

bool NeedsValue(Kind kind) {
  return kind != Kind::kExists && kind != Kind::kNe && kind != Kind::kNin;
}

Value Explain(const MatchExpr& e, const Value& doc, bool inverted);

// {operatorName, clausesNotSatisfied: [{index, details}]} over the clauses
// that failed (or, inverted, matched).
Value ExplainClauses(const char* op, const MatchExpr& e, const Value& doc,
                     bool inverted, bool want_match) {
  Value::Array clauses;
  for (size_t i = 0; i < e.children.size(); ++i) {
    const MatchExpr& c = e.children[i];
    if (MatchExprMatches(c, doc) != want_match) continue;
    clauses.push_back(Value::MakeObject(
        {{"index", Value::Int32(static_cast<int>(i))},
         {"details", Explain(c, doc, want_match ? !inverted : inverted)}}));
  }
  return Value::MakeObject(
      {{"operatorName", Str(op)},
       {"clausesNotSatisfied", Value::MakeArray(std::move(clauses))}});
}

Value Explain(const MatchExpr& e, const Value& doc, bool inverted) {
  switch (e.kind) {
    case Kind::kAnd:
      if (e.children.size() == 1) return Explain(e.children[0], doc, inverted);
      return inverted ? ExplainClauses("$and", e, doc, inverted, true)
                      : ExplainClauses("$and", e, doc, inverted, false);
    case Kind::kOr:
      return ExplainClauses("$or", e, doc, inverted, inverted);
    case Kind::kNor:
      return ExplainClauses("$nor", e, doc, inverted, !inverted);
    case Kind::kNot: {
      const MatchExpr& child =
          e.children.size() == 1 && e.children[0].children.size() == 1
              ? e.children[0].children[0]
              : e.children[0];
      return Value::MakeObject({{"operatorName", Str("$not")},
                                {"details", Explain(child, doc, !inverted)}});
    }
    case Kind::kAlwaysFalse:
    case Kind::kAlwaysTrue: {
      const char* op =
          e.kind == Kind::kAlwaysFalse ? "$alwaysFalse" : "$alwaysTrue";
      return Value::MakeObject(
          {{"operatorName", Str(op)},
           {"specifiedAs", Value::MakeObject({{op, Value::Int32(1)}})},
           {"reason", Str(e.kind == Kind::kAlwaysFalse
                              ? "expression always evaluates to false"
                              : "expression always evaluates to true")}});
    }
    case Kind::kExpr: {
      Value::Object out = {
          {"operatorName", Str("$expr")},
          {"specifiedAs", Value::MakeObject({{"$expr", e.operand}})}};
      agg::Variables vars(&doc, e.now_millis);
      agg::ExprResult r = e.expr->Evaluate(doc, &vars);
      if (r.ok()) {
        out.emplace_back("reason", Str(inverted ? "expression did match"
                                                : "expression did not match"));
        out.emplace_back("expressionResult", **r);
      } else {
        out.emplace_back("reason",
                         Str("failed to evaluate aggregation expression"));
        out.emplace_back(
            "details",
            Value::MakeObject({{"code", Value::Int32(ErrorCode(r.status()))},
                               {"errmsg", Str(r.status().message())}}));
      }
      return Value::MakeObject(std::move(out));
    }
    case Kind::kJsonSchema:
      if (inverted) {
        return Value::MakeObject({{"operatorName", Str("$jsonSchema")},
                                  {"reason", Str("schema matched")}});
      }
      return e.schema->Explain(doc);
    default:
      break;
  }
  const LeafInfo info = InfoOf(e.kind);
  Value::Object out = {
      {"operatorName", Str(info.op)},
      {"specifiedAs", Value::MakeObject({{e.path, OperatorSpec(e, info)}})}};
  const Value* v = GetPath(doc, e.path);
  if (v == nullptr && NeedsValue(e.kind) && !inverted) {
    out.emplace_back("reason", Str("field was missing"));
    return Value::MakeObject(std::move(out));
  }
  out.emplace_back("reason",
                   Str(inverted ? info.inverted_reason : info.reason));
  if (v != nullptr) {
    out.emplace_back("consideredValue", *v);
    if (e.kind == Kind::kType) {
      out.emplace_back("consideredType", Str(TypeName(v->type())));
    }
  }
  return Value::MakeObject(std::move(out));
}

}  // namespace

Value DocValidationDetails(const Filter& validator, const Value& doc) {
  return Explain(validator.root(), doc, false);
}

}  // namespace ttldb
