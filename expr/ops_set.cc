// Set operators over arrays: $setUnion $setIntersection $setDifference
// $setEquals $setIsSubset (src/mongo/db/exec/expression/evaluate_array.cpp).
// Elements are equal when CompareValues says so (1 == 1.0). $setUnion and
// $setIntersection return MongoDB's ordered ValueSet, so their output is
// sorted; $setDifference keeps the first operand's order, without
// duplicates.
#include <set>

#include "absl/strings/str_cat.h"
#include "document/compare.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::ExprError;
using internal::Nullish;
using internal::Ok;
using internal::Opt;
using internal::TypeNameOf;

using ValueSet = std::set<Value, ValueLess>;

Value SetToArray(const ValueSet& s) {
  return Value::MakeArray(Value::Array(s.begin(), s.end()));
}

ExprResult SetUnion(std::vector<Opt>& a) {
  ValueSet out;
  for (const Opt& v : a) {
    if (Nullish(v)) return internal::Null();
    if (!v->is_array()) {
      return ExprError(17043, absl::StrCat("All operands of $setUnion must be "
                                           "arrays. One argument is of type: ",
                                           TypeNameOf(v)));
    }
    out.insert(v->array_items().begin(), v->array_items().end());
  }
  return Ok(SetToArray(out));
}

ExprResult SetIntersection(std::vector<Opt>& a) {
  ValueSet current;
  for (size_t i = 0; i < a.size(); ++i) {
    const Opt& v = a[i];
    if (Nullish(v)) return internal::Null();
    if (!v->is_array()) {
      return ExprError(17047, absl::StrCat("All operands of $setIntersection "
                                           "must be arrays. One argument is "
                                           "of type: ",
                                           TypeNameOf(v)));
    }
    if (i == 0) {
      current.insert(v->array_items().begin(), v->array_items().end());
    } else if (!current.empty()) {
      ValueSet next(v->array_items().begin(), v->array_items().end());
      for (auto it = current.begin(); it != current.end();) {
        it = next.count(*it) ? std::next(it) : current.erase(it);
      }
    }
  }
  return Ok(SetToArray(current));
}

ExprResult SetDifference(std::vector<Opt>& a) {
  if (Nullish(a[0]) || Nullish(a[1])) return internal::Null();
  if (!a[0]->is_array()) {
    return ExprError(17048, absl::StrCat("both operands of $setDifference "
                                         "must be arrays. First argument is "
                                         "of type: ",
                                         TypeNameOf(a[0])));
  }
  if (!a[1]->is_array()) {
    return ExprError(17049, absl::StrCat("both operands of $setDifference "
                                         "must be arrays. Second argument is "
                                         "of type: ",
                                         TypeNameOf(a[1])));
  }
  ValueSet seen(a[1]->array_items().begin(), a[1]->array_items().end());
  Value::Array out;
  for (const Value& v : a[0]->array_items()) {
    if (seen.insert(v).second) out.push_back(v);
  }
  return Ok(Value::MakeArray(std::move(out)));
}

ExprResult SetEquals(std::vector<Opt>& a) {
  if (a.size() < 2) {
    return ExprError(17045, absl::StrCat("$setEquals needs at least two "
                                         "arguments had: ",
                                         a.size()));
  }
  std::vector<ValueSet> sets;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i] || !a[i]->is_array()) {
      return ExprError(17044, absl::StrCat("All operands of $setEquals must be "
                                           "arrays. ",
                                           i + 1, "-th argument is of type: ",
                                           TypeNameOf(a[i])));
    }
    sets.emplace_back(a[i]->array_items().begin(), a[i]->array_items().end());
  }
  for (size_t i = 1; i < sets.size(); ++i) {
    if (sets[i].size() != sets[0].size()) return Ok(Value::Bool(false));
    for (const Value& v : sets[0]) {
      if (!sets[i].count(v)) return Ok(Value::Bool(false));
    }
  }
  return Ok(Value::Bool(true));
}

ExprResult SetIsSubset(std::vector<Opt>& a) {
  if (!a[0] || !a[0]->is_array()) {
    return ExprError(17046, absl::StrCat("both operands of $setIsSubset must "
                                         "be arrays. First argument is of "
                                         "type: ",
                                         TypeNameOf(a[0])));
  }
  if (!a[1] || !a[1]->is_array()) {
    return ExprError(17042, absl::StrCat("both operands of $setIsSubset must "
                                         "be arrays. Second argument is of "
                                         "type: ",
                                         TypeNameOf(a[1])));
  }
  ValueSet rhs(a[1]->array_items().begin(), a[1]->array_items().end());
  for (const Value& v : a[0]->array_items()) {
    if (!rhs.count(v)) return Ok(Value::Bool(false));
  }
  return Ok(Value::Bool(true));
}

}  // namespace

void RegisterSetOperators() {
  TTLDB_REGISTER_EAGER("$setUnion", 0, -1, SetUnion);
  TTLDB_REGISTER_EAGER("$setIntersection", 0, -1, SetIntersection);
  TTLDB_REGISTER_EAGER("$setDifference", 2, 2, SetDifference);
  TTLDB_REGISTER_EAGER("$setEquals", 0, -1, SetEquals);
  TTLDB_REGISTER_EAGER("$setIsSubset", 2, 2, SetIsSubset);
}

}  // namespace agg
}  // namespace ttldb
