#include "planner/implication.h"

#include <vector>

#include "document/compare.h"

namespace ttldb {
namespace planner {
namespace {

using Kind = MatchExpr::Kind;

void CollectConjuncts(const MatchExpr& e, std::vector<const MatchExpr*>* out) {
  if (e.kind == Kind::kAnd) {
    for (const MatchExpr& c : e.children) CollectConjuncts(c, out);
  } else {
    out->push_back(&e);
  }
}

bool SameType(const Value& a, const Value& b) {
  return CanonicalTypeOrder(a.type()) == CanonicalTypeOrder(b.type());
}

// Whether every document an equality to `v` matches satisfies the
// comparison `p`: the matcher's own rule for one value (a NaN is not below
// 5, although it sorts there), and never for an array operand.
bool Satisfies(const Value& v, const MatchExpr& p) {
  return !v.is_array() && ComparisonMatches(p, &v);
}

bool IsRange(Kind k) {
  return k == Kind::kGt || k == Kind::kGte || k == Kind::kLt || k == Kind::kLte;
}

bool IsNullish(const Value& v) { return v.is_null(); }

// Whether the query conjunct `q` implies the partial-filter leaf `p` (same
// path already checked). A document matching q has a value on the path that
// satisfies q; each rule below makes that value satisfy p too.
bool LeafImplies(const MatchExpr& q, const MatchExpr& p) {
  if (q.kind == p.kind && q.kind != Kind::kIn && q.kind != Kind::kNin &&
      q.children.empty() && p.children.empty() &&
      SameType(q.operand, p.operand) &&
      CompareValues(q.operand, p.operand) == 0) {
    if (q.kind == Kind::kEq || IsRange(q.kind) || q.kind == Kind::kExists) {
      return true;
    }
  }
  switch (p.kind) {
    case Kind::kExists:
      if (p.operand.type() != ValueType::kBool || !p.operand.bool_value()) {
        return false;
      }
      if (q.kind == Kind::kEq) return !IsNullish(q.operand);
      if (IsRange(q.kind)) {
        return !IsNullish(q.operand) &&
               q.operand.type() != ValueType::kMinKey &&
               q.operand.type() != ValueType::kMaxKey;
      }
      if (q.kind == Kind::kIn) {
        if (q.operands.empty()) return false;
        for (const Value& v : q.operands) {
          if (IsNullish(v) || v.type() == ValueType::kRegex) return false;
        }
        return true;
      }
      return false;
    case Kind::kEq:
      if (q.kind == Kind::kIn && !q.operands.empty()) {
        for (const Value& v : q.operands) {
          if (!SameType(v, p.operand) || CompareValues(v, p.operand) != 0) {
            return false;
          }
        }
        return true;
      }
      return false;
    case Kind::kIn: {
      auto in_p = [&](const Value& v) {
        if (v.type() == ValueType::kRegex) return false;
        for (const Value& w : p.operands) {
          if (SameType(v, w) && CompareValues(v, w) == 0) return true;
        }
        return false;
      };
      if (q.kind == Kind::kEq) return in_p(q.operand);
      if (q.kind == Kind::kIn && !q.operands.empty()) {
        for (const Value& v : q.operands) {
          if (!in_p(v)) return false;
        }
        return true;
      }
      return false;
    }
    case Kind::kGt:
    case Kind::kGte:
    case Kind::kLt:
    case Kind::kLte: {
      if (p.operand.type() == ValueType::kMinKey ||
          p.operand.type() == ValueType::kMaxKey ||
          (p.operand.type() == ValueType::kDouble &&
           p.operand.double_value() != p.operand.double_value())) {
        return false;
      }
      if (q.kind == Kind::kEq) return Satisfies(q.operand, p);
      if (q.kind == Kind::kIn && !q.operands.empty()) {
        for (const Value& v : q.operands) {
          if (!Satisfies(v, p)) return false;
        }
        return true;
      }
      if (!IsRange(q.kind) || !SameType(q.operand, p.operand) ||
          q.operand.is_array()) {
        return false;
      }
      const bool p_above = p.kind == Kind::kGt || p.kind == Kind::kGte;
      const bool q_above = q.kind == Kind::kGt || q.kind == Kind::kGte;
      if (p_above != q_above) return false;
      const int c = CompareValues(q.operand, p.operand);
      const bool p_strict = p.kind == Kind::kGt || p.kind == Kind::kLt;
      const bool q_strict = q.kind == Kind::kGt || q.kind == Kind::kLt;
      // q's bound must be at least as tight as p's.
      const int tighter = p_above ? c : -c;
      return tighter > 0 || (tighter == 0 && (q_strict || !p_strict));
    }
    default:
      return false;
  }
}

}  // namespace

bool FilterImplies(const MatchExpr& query, const MatchExpr& partial) {
  std::vector<const MatchExpr*> q, p;
  CollectConjuncts(query, &q);
  CollectConjuncts(partial, &p);
  for (const MatchExpr* leaf : p) {
    if (leaf->kind == Kind::kAlwaysTrue) continue;
    bool implied = false;
    for (const MatchExpr* c : q) {
      if (c->path == leaf->path && !c->path.empty() && LeafImplies(*c, *leaf)) {
        implied = true;
        break;
      }
    }
    if (!implied) return false;
  }
  return true;
}

}  // namespace planner
}  // namespace ttldb
