#include "planner/planner.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/compare.h"
#include "index/key_codec.h"
#include "planner/implication.h"
#include "planner/sort_provision.h"

namespace ttldb {
namespace planner {
namespace {

using Kind = MatchExpr::Kind;

// The top-level conjuncts of a filter.
std::vector<const MatchExpr*> Conjuncts(const MatchExpr& root) {
  std::vector<const MatchExpr*> out;
  if (root.kind == Kind::kAnd) {
    for (const MatchExpr& c : root.children) {
      if (c.kind == Kind::kAnd) {
        auto nested = Conjuncts(c);
        out.insert(out.end(), nested.begin(), nested.end());
      } else {
        out.push_back(&c);
      }
    }
  } else {
    out.push_back(&root);
  }
  return out;
}

bool IsRangeKind(Kind k) {
  return k == Kind::kGt || k == Kind::kGte || k == Kind::kLt || k == Kind::kLte;
}

// One bounded key field's explain intervals.
struct FieldIntervals {
  std::string path;
  bool descending = false;
  std::vector<Interval> intervals;
};

// Explain's indexBounds: {field: ["[lo, hi], ..."]}, each field's intervals
// in the scan's key order (index_bounds.h RenderIntervals).
Value BoundsValue(const std::vector<FieldIntervals>& fields, bool backward) {
  Value::Object out;
  for (const FieldIntervals& f : fields) {
    out.emplace_back(f.path, Value::MakeArray({Value::String(RenderIntervals(
                                 f.intervals, f.descending != backward))}));
  }
  return Value::MakeObject(std::move(out));
}

// Candidate plan over one index: the ranges of its leading fields.
struct Candidate {
  int index = -1;
  std::vector<KeyRange> ranges;           // full keys
  int eq_fields = 0;                      // leading fields bound by equality
  bool range_field = false;               // a range on the field after them
  std::vector<FieldBounds> field_bounds;  // one per key field
  // For explain: the bounded fields' intervals, in value order.
  std::vector<FieldIntervals> bounds;
  // Set when the range intersects several predicates (non-multikey index):
  // the ranges with only the first predicate.
  std::optional<std::vector<KeyRange>> multikey_ranges;
};

// Equality first (more selective), then a range, on as many leading fields
// as the filter binds.
std::optional<Candidate> PlanIndex(const IndexInfo& index, int position,
                                   const std::vector<const MatchExpr*>& preds) {
  const IndexSpec& spec = *index.spec;
  Candidate c;
  c.index = position;
  c.field_bounds.assign(spec.key.size(), FieldBounds::kFull);
  std::vector<KeyRange> acc = {{"", ""}};
  std::vector<absl::string_view> bounded_roots;
  for (size_t fi = 0; fi < spec.key.size(); ++fi) {
    const auto& field = spec.key[fi];
    // Key fields under one array ("items.sku", "items.qty") are keyed per
    // array element (document/path_keys.h), but without $elemMatch a filter
    // may satisfy them with different elements: their bounds must not be
    // compounded (MongoDB's planner decides this with multikey paths).
    // Decided on the key pattern alone, so it also holds when the index
    // becomes multikey after planning.
    const absl::string_view root =
        absl::string_view(field.path).substr(0, field.path.find('.'));
    if (std::find(bounded_roots.begin(), bounded_roots.end(), root) !=
        bounded_roots.end()) {
      break;
    }
    bounded_roots.push_back(root);
    const bool desc = field.direction < 0;
    // The field's equality (the last one wins) or its first range, with
    // their key ranges computed once.
    const MatchExpr* eq = nullptr;
    const MatchExpr* range = nullptr;
    std::vector<KeyRange> eq_ranges, range_ranges;
    std::vector<Interval> eq_text, range_text;
    std::vector<const MatchExpr*> all_ranges;  // every usable range predicate
    for (const MatchExpr* p : preds) {
      if (p->path != field.path) continue;
      std::vector<KeyRange> tmp;
      std::vector<Interval> t;
      if (field.hashed) {
        // Only equality and $in, by their hashes; ranges cannot use it.
        if (HashedFieldRanges(*p, spec.sparse, &tmp, &t)) {
          eq = p;
          eq_ranges = std::move(tmp);
          eq_text = std::move(t);
        }
        continue;
      }
      if (p->kind == Kind::kEq || p->kind == Kind::kIn) {
        if (FieldRanges(*p, desc, spec.sparse, &tmp, &t)) {
          eq = p;
          eq_ranges = std::move(tmp);
          eq_text = std::move(t);
        }
      } else if (IsRangeKind(p->kind)) {
        if (FieldRanges(*p, desc, spec.sparse, &tmp, &t)) {
          if (range == nullptr) {
            range = p;
            range_ranges = std::move(tmp);
            range_text = std::move(t);
          }
          all_ranges.push_back(p);
        }
      }
    }
    const MatchExpr* use = eq != nullptr ? eq : range;
    if (use == nullptr) break;
    std::vector<KeyRange> field_ranges =
        use == eq ? std::move(eq_ranges) : std::move(range_ranges);
    std::vector<Interval> text =
        use == eq ? std::move(eq_text) : std::move(range_text);
    // On a multikey index two range predicates may be satisfied by two
    // different elements of one array ({a: [0, 10]} matches {$gt: 1, $lt:
    // 5}), so only the first bounds the scan; on a known non-multikey index
    // a document has one value per field and the ranges intersect.
    std::vector<KeyRange> first_only;
    if (use == range && all_ranges.size() > 1 && !index.multikey) {
      first_only = field_ranges;
      field_ranges = {IntersectRanges(all_ranges, desc, spec.sparse, &text)};
    }
    c.bounds.push_back(FieldIntervals{field.path, desc, std::move(text)});
    std::vector<KeyRange> next;
    if (use == eq) {
      // Points: extend every accumulated prefix.
      for (const KeyRange& a : acc) {
        for (const KeyRange& f : field_ranges) {
          next.emplace_back(a.first + f.first, "");
        }
      }
      for (KeyRange& r : next) r.second = KeyPrefixEnd(r.first);
      c.field_bounds[fi] =
          field_ranges.size() == 1 ? FieldBounds::kPoint : FieldBounds::kOther;
      ++c.eq_fields;
      acc = std::move(next);
      continue;
    }
    // A range ends the usable prefix: [a+lo, a+hi).
    for (const KeyRange& a : acc) {
      for (const KeyRange& f : field_ranges) {
        next.emplace_back(a.first + f.first, a.first + f.second);
      }
    }
    if (!first_only.empty()) {
      std::vector<KeyRange> mk;
      for (const KeyRange& a : acc) {
        for (const KeyRange& f : first_only) {
          mk.emplace_back(a.first + f.first, a.first + f.second);
        }
      }
      c.multikey_ranges = std::move(mk);
    }
    c.field_bounds[fi] = FieldBounds::kOther;
    c.range_field = true;
    acc = std::move(next);
    break;
  }
  if (c.eq_fields == 0 && !c.range_field) return std::nullopt;
  auto finish = [&](std::vector<KeyRange>* ranges) {
    for (KeyRange& r : *ranges) {
      r.first.insert(0, index.prefix);
      r.second = r.second.empty() ? KeyPrefixEnd(index.prefix)
                                  : index.prefix + r.second;
    }
    std::sort(ranges->begin(), ranges->end());
  };
  if (c.multikey_ranges.has_value()) finish(&*c.multikey_ranges);
  finish(&acc);
  c.ranges = std::move(acc);
  return c;
}

// A whole-index scan, for a hinted index that bounds nothing.
Candidate FullScan(const IndexInfo& index, int position) {
  Candidate full;
  full.index = position;
  full.ranges = {{index.prefix, KeyPrefixEnd(index.prefix)}};
  full.field_bounds.assign(index.spec->key.size(), FieldBounds::kFull);
  return full;
}

// Whether `pattern` is the key pattern of `spec` (directions compared as
// numbers: {a: 1.0} names {a: 1}).
bool SameKeyPattern(const IndexSpec& spec, const Value& pattern) {
  const auto& fields = pattern.object_fields();
  if (fields.size() != spec.key.size()) return false;
  for (size_t i = 0; i < spec.key.size(); ++i) {
    if (spec.key[i].hashed) {
      if (fields[i].first != spec.key[i].path ||
          !fields[i].second.is_string() ||
          fields[i].second.string_value() != "hashed") {
        return false;
      }
      continue;
    }
    if (fields[i].first != spec.key[i].path || !fields[i].second.is_number() ||
        fields[i].second.AsDouble() != spec.key[i].direction) {
      return false;
    }
  }
  return true;
}

absl::Status BadHint() {
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                    "hint provided does not correspond to an existing index");
}

// Whether a collection scan (or _id lookups, which come in _id order)
// returns documents in `sort` order.
bool IdOrderSorts(const SortSpec* sort) {
  return sort == nullptr || sort->fields().empty() ||
         (sort->fields().size() == 1 && sort->fields()[0].first == "_id" &&
          sort->fields()[0].second == 1 && sort->collator() == nullptr);
}

// Whether a backward collection scan (or _id lookups in descending order)
// returns documents in `sort` order: the sort is {_id: -1}.
bool IdOrderReverses(const SortSpec* sort) {
  return sort != nullptr && sort->fields().size() == 1 &&
         sort->fields()[0].first == "_id" && sort->fields()[0].second == -1 &&
         sort->collator() == nullptr;
}

// Documents in _id order, forward or backward as `sort` asks: sets
// provides_sort, backward and, when the order is not the sort's, the reason.
void IdOrder(const SortSpec* sort, const char* reason, Plan* plan) {
  plan->backward = IdOrderReverses(sort);
  plan->provides_sort = plan->backward || IdOrderSorts(sort);
  if (!plan->provides_sort) plan->sort_reason = reason;
}

// Whether `hint` names the _id index: "_id_" or the key pattern {_id: 1}.
bool HintsIdIndex(const Hint& hint) {
  if (!hint.name.empty()) return hint.name == "_id_";
  const Value& kp = hint.key_pattern;
  return kp.is_object() && kp.object_fields().size() == 1 &&
         kp.object_fields()[0].first == "_id" &&
         kp.object_fields()[0].second.is_number() &&
         kp.object_fields()[0].second.AsDouble() == 1;
}

// The predicates whose operands no collation can change the meaning of:
// comparisons with operands that are not and hold no string.
std::vector<const MatchExpr*> NonStringPredicates(
    const std::vector<const MatchExpr*>& preds) {
  std::vector<const MatchExpr*> out;
  for (const MatchExpr* p : preds) {
    bool strings = HoldsString(p->operand);
    for (const Value& v : p->operands) strings = strings || HoldsString(v);
    if (!strings) out.push_back(p);
  }
  return out;
}

}  // namespace

absl::StatusOr<Plan> ChoosePlan(absl::Span<const IndexInfo> indexes,
                                const Filter& filter, const SortSpec* sort,
                                const Hint& hint) {
  Plan plan;
  std::vector<const MatchExpr*> preds = Conjuncts(filter.root());

  // The hinted index, if any; {$natural: 1} hints a collection scan.
  int hinted = -1;
  bool hinted_id = false;
  if (!hint.empty()) {
    if (!hint.name.empty() && !hint.key_pattern.is_null()) return BadHint();
    const Value& kp = hint.key_pattern;
    if (kp.is_object() && kp.object_fields().size() == 1 &&
        kp.object_fields()[0].first == "$natural") {
      const Value& dir = kp.object_fields()[0].second;
      if (!dir.is_number() || (dir.AsDouble() != 1 && dir.AsDouble() != -1)) {
        return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                          "ttldb supports only the hints {$natural: 1} and "
                          "{$natural: -1} (a forward or backward collection "
                          "scan)");
      }
      // Natural order is _id order in ttldb (documents are stored by _id):
      // {$natural: -1} scans the collection backward.
      plan.backward = dir.AsDouble() < 0;
      plan.provides_sort = plan.backward
                               ? sort == nullptr || sort->fields().empty() ||
                                     IdOrderReverses(sort)
                               : IdOrderSorts(sort);
      if (!plan.provides_sort) {
        plan.sort_reason =
            plan.backward
                ? "the hint {$natural: -1} forces a backward collection scan"
                : "the hint {$natural: 1} forces a collection scan";
      }
      return plan;
    }
    if (!kp.is_null() && !kp.is_object()) return BadHint();
    if (HintsIdIndex(hint)) {
      // Documents are stored in _id order, so the _id index is the
      // collection itself: _id lookups when the filter has them, else the
      // whole collection in _id order.
      hinted_id = true;
    }
    for (size_t i = 0; !hinted_id && i < indexes.size(); ++i) {
      const IndexSpec& spec = *indexes[i].spec;
      if (hint.name.empty() ? SameKeyPattern(spec, kp)
                            : spec.name == hint.name) {
        if (hinted >= 0) {
          // Several indexes on one key pattern (different partial filters,
          // say): MongoDB's query_planner.cpp refuses the hint.
          return MongoError(
              absl::StatusCode::kInvalidArgument, kIndexNotFound,
              absl::StrCat("Hint matched multiple indexes, must hint by index "
                           "name. Matched: ",
                           indexes[hinted].spec->name, " and ", spec.name));
        }
        hinted = static_cast<int>(i);
      }
    }
    // Hidden indexes are invisible to the planner, hints included (MongoDB:
    // "Can't 'hint' a hidden index", BadValue). A hinted sparse or partial
    // index is used even when it may miss matches, as MongoDB does
    // (query_planner.cpp: "Hinted index could not provide a bounded scan,
    // reverting to whole index scan"; SERVER-26413, SERVER-18449).
    if (!hinted_id && (hinted < 0 || indexes[hinted].spec->hidden)) {
      return BadHint();
    }
  }

  // _id equality or $in: point lookups (MongoDB's IDHACK).
  if (hint.empty() || hinted_id) {
    for (const MatchExpr* p : preds) {
      if (p->path != "_id") continue;
      // Documents are keyed by their binary _id: a collated equality to a
      // string may match other _ids.
      const bool collated = filter.collator() != nullptr;
      if (p->kind == Kind::kEq && IndexableEquality(p->operand) &&
          !(collated && HoldsString(p->operand))) {
        plan.ids.push_back(p->operand);
      } else if (p->kind == Kind::kIn) {
        bool ok = true;
        for (const Value& v : p->operands) {
          ok = ok && IndexableEquality(v) && !(collated && HoldsString(v));
        }
        if (!ok) continue;
        plan.ids = p->operands;
      } else {
        continue;
      }
      plan.kind = Plan::Kind::kIdLookup;
      IdOrder(sort, "the _id lookup returns documents in _id order", &plan);
      return plan;
    }
  }
  if (hinted_id) {
    IdOrder(sort, "the hinted _id index returns documents in _id order", &plan);
    return plan;
  }

  std::optional<Candidate> best;
  SortProvision best_sort;
  bool best_needs_not_multikey = false;
  for (size_t i = 0; i < indexes.size(); ++i) {
    const IndexInfo& idx = indexes[i];
    if (hinted >= 0) {
      if (static_cast<int>(i) != hinted) continue;
    } else if (idx.spec->hidden ||
               (idx.partial != nullptr &&
                !FilterImplies(filter.root(), *idx.partial))) {
      // Hidden indexes are invisible to the planner; a partial index must
      // hold every document the filter matches.
      continue;
    }
    // Its string keys answer the filter only in its own collation; in
    // another, only the predicates whose operands hold no string bound it
    // (MongoDB's planner_ixselect.cpp: an index of another collation is
    // compatible with a predicate whose operand is not collatable).
    std::optional<Candidate> c;
    if (SameCollation(idx.collator, filter.collator())) {
      c = PlanIndex(idx, static_cast<int>(i), preds);
    } else {
      c = PlanIndex(idx, static_cast<int>(i), NonStringPredicates(preds));
    }
    if (!c.has_value()) {
      if (hinted < 0) continue;
      c = FullScan(idx, static_cast<int>(i));
    }
    SortProvision sorts;
    bool needs_not_multikey = false;
    if (sort != nullptr && !SameCollation(idx.collator, sort->collator())) {
      sorts.reason = "the index's collation is not the sort's";
    } else if (sort != nullptr) {
      sorts =
          IndexProvidesSort(*idx.spec, idx.multikey, c->field_bounds, *sort);
      // A plan made while the index is not multikey stays valid only while
      // it is not: the executor re-checks after taking its snapshot.
      if (sorts.provided && !idx.multikey) {
        const SortProvision if_multikey =
            IndexProvidesSort(*idx.spec, true, c->field_bounds, *sort);
        needs_not_multikey =
            !if_multikey.provided || if_multikey.backward != sorts.backward;
      }
    }
    // Prefer more equality fields, then a range, then one that sorts.
    auto score = [](const Candidate& x, bool s) {
      return x.eq_fields * 4 + (x.range_field ? 2 : 0) + (s ? 1 : 0);
    };
    if (!best.has_value() ||
        score(*c, sorts.provided) > score(*best, best_sort.provided)) {
      best = std::move(c);
      best_sort = std::move(sorts);
      best_needs_not_multikey = needs_not_multikey;
    }
  }
  // No index bounds the filter: an index that holds every document (not
  // sparse, not partial) and provides the sort saves the blocking sort, as
  // MongoDB's planner adds such whole-index scans ("outputting soln that
  // uses index to provide sort").
  if (!best.has_value() && hinted < 0 && sort != nullptr &&
      !IdOrderSorts(sort) && !IdOrderReverses(sort)) {
    for (size_t i = 0; i < indexes.size(); ++i) {
      const IndexInfo& idx = indexes[i];
      if (idx.spec->hidden || idx.spec->sparse || idx.partial != nullptr ||
          !SameCollation(idx.collator, sort->collator())) {
        continue;
      }
      Candidate full = FullScan(idx, static_cast<int>(i));
      SortProvision sorts =
          IndexProvidesSort(*idx.spec, idx.multikey, full.field_bounds, *sort);
      if (!sorts.provided) continue;
      best = std::move(full);
      best_sort = std::move(sorts);
      best_needs_not_multikey = false;  // full bounds: multikey or not
      break;
    }
  }
  if (best.has_value()) {
    plan.kind = Plan::Kind::kIndexScan;
    plan.index = best->index;
    plan.ranges = std::move(best->ranges);
    plan.multikey_ranges = std::move(best->multikey_ranges);
    plan.provides_sort = sort == nullptr || best_sort.provided;
    plan.backward = sort != nullptr && best_sort.provided && best_sort.backward;
    plan.bounds = BoundsValue(best->bounds, plan.backward);
    plan.sort_needs_not_multikey = best_needs_not_multikey;
    if (!plan.provides_sort) plan.sort_reason = std::move(best_sort.reason);
    return plan;
  }
  IdOrder(sort,
          "no index bounds the filter, and none that holds every document "
          "provides the sort",
          &plan);
  return plan;
}

}  // namespace planner
}  // namespace ttldb
