#include "planner/index_bounds.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "document/bson_hash.h"
#include "document/collator.h"
#include "document/compare.h"
#include "document/path.h"
#include "index/key_codec.h"
#include "ttldb/json.h"

namespace ttldb {
namespace planner {

std::string RenderIntervals(const std::vector<Interval>& intervals,
                            bool reversed) {
  std::string out;
  for (size_t i = 0; i < intervals.size(); ++i) {
    const Interval& v = intervals[reversed ? intervals.size() - 1 - i : i];
    absl::StrAppend(&out, i > 0 ? ", " : "");
    if (reversed) {
      absl::StrAppend(&out, v.hi_inclusive ? "[" : "(", v.hi, ", ", v.lo,
                      v.lo_inclusive ? "]" : ")");
    } else {
      absl::StrAppend(&out, v.lo_inclusive ? "[" : "(", v.lo, ", ", v.hi,
                      v.hi_inclusive ? "]" : ")");
    }
  }
  return out;
}

// Values an index can look up by equality: not arrays (an array equality
// also matches documents holding it as an element, which the index keys as
// its elements), not regexes, not MinKey/MaxKey.
bool IndexableEquality(const Value& v) {
  switch (v.type()) {
    case ValueType::kArray:
    case ValueType::kRegex:
    case ValueType::kMinKey:
    case ValueType::kMaxKey:
      return false;
    case ValueType::kObject:
      // {$...} objects are operators, never reach here; plain objects are
      // fine.
      return true;
    default:
      return true;
  }
}

namespace {

// Whether a dotted path has a component naming an array position ("a.0.b").
// The matcher also walks such a path implicitly through object elements,
// which reach it as missing (null) without an index key saying so
// (query/path_values.cc, MongoDB's path_test.cpp ArrayIndexNested1), so an
// index on it cannot answer equality to null.
bool HasNumericComponent(absl::string_view path) {
  for (absl::string_view part : absl::StrSplit(path, '.')) {
    size_t index;
    if (ParseArrayIndex(part, &index)) return true;
  }
  return false;
}

}  // namespace

// Key-space ranges (without the index prefix) of one field's predicate;
// false when the predicate cannot bound this field.
bool FieldRanges(const MatchExpr& e, bool descending, bool sparse,
                 std::vector<KeyRange>* out, std::vector<Interval>* text) {
  // The planner uses an index only in the filter's collation: its string
  // keys are that collation's keys.
  const Collator* collator = e.collator.get();
  auto point = [&](const Value& v) {
    std::string k = EncodeKeyValue(CollationKeyOf(v, collator), descending);
    out->emplace_back(k, KeyPrefixEnd(k));
  };
  switch (e.kind) {
    case MatchExpr::Kind::kEq:
      if (!IndexableEquality(e.operand)) return false;
      if (e.operand.is_null() && (sparse || HasNumericComponent(e.path))) {
        return false;
      }
      point(e.operand);
      *text = {Interval{ToJson(e.operand), ToJson(e.operand)}};
      return true;
    case MatchExpr::Kind::kIn: {
      if (e.operands.empty()) return false;
      for (const Value& v : e.operands) {
        if (!IndexableEquality(v) ||
            (v.is_null() && (sparse || HasNumericComponent(e.path)))) {
          return false;
        }
      }
      std::vector<Value> sorted = e.operands;
      std::sort(sorted.begin(), sorted.end(),
                [collator](const Value& a, const Value& b) {
                  return CompareValues(a, b, collator) < 0;
                });
      // Operands equal in the collation ("abc", "ABC" at strength 2) have
      // one key: one range, so that the ranges stay disjoint.
      sorted.erase(std::unique(sorted.begin(), sorted.end(),
                               [collator](const Value& a, const Value& b) {
                                 return collator != nullptr &&
                                        CompareValues(a, b, collator) == 0;
                               }),
                   sorted.end());
      for (const Value& v : sorted) point(v);
      text->clear();
      for (const Value& v : sorted) {
        text->push_back(Interval{ToJson(v), ToJson(v)});
      }
      return true;
    }
    case MatchExpr::Kind::kGt:
    case MatchExpr::Kind::kGte:
    case MatchExpr::Kind::kLt:
    case MatchExpr::Kind::kLte: {
      const Value& v = e.operand;
      if (v.is_array() || v.type() == ValueType::kRegex ||
          v.type() == ValueType::kMinKey || v.type() == ValueType::kMaxKey ||
          v.is_null()) {
        return false;
      }
      if ((v.type() == ValueType::kDouble &&
           v.double_value() != v.double_value()) ||
          (v.type() == ValueType::kDecimal && v.decimal_value().IsNaN())) {
        return false;  // NaN
      }
      const std::string k =
          EncodeKeyValue(CollationKeyOf(v, collator), descending);
      const std::string lo = KeyBracketStart(v.type(), descending);
      const std::string hi = KeyBracketEnd(v.type(), descending);
      // In a descending index greater values have smaller keys.
      bool above =
          e.kind == MatchExpr::Kind::kGt || e.kind == MatchExpr::Kind::kGte;
      bool inclusive =
          e.kind == MatchExpr::Kind::kGte || e.kind == MatchExpr::Kind::kLte;
      if (descending) above = !above;
      if (above) {
        out->emplace_back(inclusive ? k : KeyPrefixEnd(k), hi);
      } else {
        out->emplace_back(lo, inclusive ? KeyPrefixEnd(k) : k);
      }
      if (e.kind == MatchExpr::Kind::kGt || e.kind == MatchExpr::Kind::kGte) {
        *text = {Interval{ToJson(v), absl::StrCat(TypeName(v.type()), " max"),
                          e.kind == MatchExpr::Kind::kGte, true}};
      } else {
        *text = {Interval{absl::StrCat(TypeName(v.type()), " min"), ToJson(v),
                          true, e.kind == MatchExpr::Kind::kLte}};
      }
      return true;
    }
    default:
      return false;
  }
}

bool HashedFieldRanges(const MatchExpr& e, bool sparse,
                       std::vector<KeyRange>* out,
                       std::vector<Interval>* text) {
  std::vector<Value> values;
  if (e.kind == MatchExpr::Kind::kEq) {
    values.push_back(e.operand);
  } else if (e.kind == MatchExpr::Kind::kIn) {
    values = e.operands;
  } else {
    return false;
  }
  if (values.empty()) return false;
  std::vector<int64_t> hashes;
  for (const Value& v : values) {
    if (!IndexableEquality(v) ||
        (v.is_null() && (sparse || HasNumericComponent(e.path)))) {
      return false;
    }
    hashes.push_back(BsonHash64(v));
  }
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
  out->clear();
  text->clear();
  for (int64_t h : hashes) {
    std::string k = EncodeKeyValue(Value::Int64(h), /*descending=*/false);
    out->emplace_back(k, KeyPrefixEnd(k));
    text->push_back(Interval{absl::StrCat(h), absl::StrCat(h)});
  }
  return true;
}

// Intersects the single ranges of several range predicates on one field
// (valid only on a non-multikey index, where a document has one value per
// field): the tightest lower and upper bounds. Sets *text to the explain
// bounds, e.g. "(1, 5)".
KeyRange IntersectRanges(const std::vector<const MatchExpr*>& preds,
                         bool descending, bool sparse,
                         std::vector<Interval>* text) {
  KeyRange out;
  bool first = true;
  const MatchExpr* low = nullptr;   // tightest $gt/$gte
  const MatchExpr* high = nullptr;  // tightest $lt/$lte
  std::string low_bound, high_bound;
  for (const MatchExpr* p : preds) {
    std::vector<KeyRange> r;
    std::vector<Interval> t;
    FieldRanges(*p, descending, sparse, &r, &t);
    const KeyRange& f = r.front();
    if (first || f.first > out.first) out.first = f.first;
    if (first || f.second < out.second) out.second = f.second;
    first = false;
    const bool is_low =
        p->kind == MatchExpr::Kind::kGt || p->kind == MatchExpr::Kind::kGte;
    // The key bound this predicate tightens: in a descending index greater
    // values have smaller keys.
    const bool bound_is_begin = is_low != descending;
    const std::string& bound = bound_is_begin ? f.first : f.second;
    const MatchExpr*& best = is_low ? low : high;
    std::string& best_bound = is_low ? low_bound : high_bound;
    if (best == nullptr ||
        (bound_is_begin ? bound > best_bound : bound < best_bound)) {
      best = p;
      best_bound = bound;
    }
  }
  if (out.second < out.first) out.second = out.first;  // empty
  Interval v;
  if (low != nullptr) {
    v.lo = ToJson(low->operand);
    v.lo_inclusive = low->kind != MatchExpr::Kind::kGt;
  } else {
    v.lo = absl::StrCat(TypeName(high->operand.type()), " min");
  }
  if (high != nullptr) {
    v.hi = ToJson(high->operand);
    v.hi_inclusive = high->kind != MatchExpr::Kind::kLt;
  } else {
    v.hi = absl::StrCat(TypeName(low->operand.type()), " max");
  }
  *text = {std::move(v)};
  return out;
}

}  // namespace planner
}  // namespace ttldb
