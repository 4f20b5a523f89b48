// Query planning and execution over one collection.
#include "engine/query_exec.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/compare.h"
#include "document/json.h"
#include "engine/entry_value.h"
#include "engine/keys.h"
#include "index/key_codec.h"
#include "leveldb/db.h"

namespace ttldb {
namespace {

using Kind = MatchExpr::Kind;
using Range = std::pair<std::string, std::string>;

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

// Key-space ranges (without the index prefix) of one field's predicate;
// false when the predicate cannot bound this field.
bool FieldRanges(const MatchExpr& e, bool descending, bool sparse,
                 std::vector<Range>* out, std::string* text) {
  auto point = [&](const Value& v) {
    std::string k = EncodeKeyValue(v, descending);
    out->emplace_back(k, KeyPrefixEnd(k));
  };
  switch (e.kind) {
    case Kind::kEq:
      if (!IndexableEquality(e.operand)) return false;
      if (e.operand.is_null() && sparse) return false;
      point(e.operand);
      *text =
          absl::StrCat("[", ToJson(e.operand), ", ", ToJson(e.operand), "]");
      return true;
    case Kind::kIn: {
      if (e.operands.empty()) return false;
      for (const Value& v : e.operands) {
        if (!IndexableEquality(v) || (v.is_null() && sparse)) return false;
      }
      std::vector<Value> sorted = e.operands;
      std::sort(sorted.begin(), sorted.end(), ValueLess());
      for (const Value& v : sorted) point(v);
      for (const Value& v : sorted) {
        absl::StrAppend(text, text->empty() ? "" : ", ", "[", ToJson(v), ", ",
                        ToJson(v), "]");
      }
      return true;
    }
    case Kind::kGt:
    case Kind::kGte:
    case Kind::kLt:
    case Kind::kLte: {
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
      const std::string k = EncodeKeyValue(v, descending);
      const std::string lo = KeyBracketStart(v.type(), descending);
      const std::string hi = KeyBracketEnd(v.type(), descending);
      // In a descending index greater values have smaller keys.
      bool above = e.kind == Kind::kGt || e.kind == Kind::kGte;
      bool inclusive = e.kind == Kind::kGte || e.kind == Kind::kLte;
      if (descending) above = !above;
      if (above) {
        out->emplace_back(inclusive ? k : KeyPrefixEnd(k), hi);
      } else {
        out->emplace_back(lo, inclusive ? KeyPrefixEnd(k) : k);
      }
      const char* op = e.kind == Kind::kGt    ? "("
                       : e.kind == Kind::kGte ? "["
                                              : "";
      if (e.kind == Kind::kGt || e.kind == Kind::kGte) {
        *text = absl::StrCat(op, ToJson(v), ", ", TypeName(v.type()), " max]");
      } else {
        *text = absl::StrCat("[", TypeName(v.type()), " min, ", ToJson(v),
                             e.kind == Kind::kLt ? ")" : "]");
      }
      return true;
    }
    default:
      return false;
  }
}

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

// Candidate plan over one index: the ranges of its leading fields.
struct Candidate {
  const IndexState* index = nullptr;
  std::vector<Range> ranges;  // full keys
  int eq_fields = 0;          // leading fields bound by equality
  bool range_field = false;   // a range on the field after them
  Value bounds;
  // Set when the range intersects several predicates (non-multikey index):
  // the ranges with only the first predicate.
  std::optional<std::vector<Range>> multikey_ranges;
};

bool IsRangeKind(Kind k) {
  return k == Kind::kGt || k == Kind::kGte || k == Kind::kLt || k == Kind::kLte;
}

// Intersects the single ranges of several range predicates on one field
// (valid only on a non-multikey index, where a document has one value per
// field): the tightest lower and upper bounds. Sets *text to the explain
// bounds, e.g. "(1, 5)".
Range IntersectRanges(const std::vector<const MatchExpr*>& preds,
                      bool descending, bool sparse, std::string* text) {
  Range out;
  bool first = true;
  const MatchExpr* low = nullptr;   // tightest $gt/$gte
  const MatchExpr* high = nullptr;  // tightest $lt/$lte
  std::string low_bound, high_bound;
  for (const MatchExpr* p : preds) {
    std::vector<Range> r;
    std::string t;
    FieldRanges(*p, descending, sparse, &r, &t);
    const Range& f = r.front();
    if (first || f.first > out.first) out.first = f.first;
    if (first || f.second < out.second) out.second = f.second;
    first = false;
    const bool is_low = p->kind == Kind::kGt || p->kind == Kind::kGte;
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
  std::string lo =
      low != nullptr
          ? absl::StrCat(low->kind == Kind::kGt ? "(" : "[",
                         ToJson(low->operand))
          : absl::StrCat("[", TypeName(high->operand.type()), " min");
  std::string hi = high != nullptr
                       ? absl::StrCat(ToJson(high->operand),
                                      high->kind == Kind::kLt ? ")" : "]")
                       : absl::StrCat(TypeName(low->operand.type()), " max]");
  *text = absl::StrCat(lo, ", ", hi);
  return out;
}

// Equality first (more selective), then a range, on as many leading fields
// as the filter binds.
std::optional<Candidate> PlanIndex(const IndexState& index,
                                   const std::vector<const MatchExpr*>& preds) {
  Candidate c;
  c.index = &index;
  std::vector<Range> acc = {{"", ""}};
  Value::Object bounds;
  bool stop = false;
  for (const auto& field : index.spec.key()) {
    if (stop) break;
    const bool desc = field.direction() < 0;
    // The field's equality (the last one wins) or its first range, with
    // their key ranges computed once.
    const MatchExpr* eq = nullptr;
    const MatchExpr* range = nullptr;
    std::vector<Range> eq_ranges, range_ranges;
    std::string eq_text, range_text;
    std::vector<const MatchExpr*> all_ranges;  // every usable range predicate
    for (const MatchExpr* p : preds) {
      if (p->path != field.path()) continue;
      std::vector<Range> tmp;
      std::string t;
      if (p->kind == Kind::kEq || p->kind == Kind::kIn) {
        if (FieldRanges(*p, desc, index.spec.sparse(), &tmp, &t)) {
          eq = p;
          eq_ranges = std::move(tmp);
          eq_text = std::move(t);
        }
      } else if (IsRangeKind(p->kind)) {
        if (FieldRanges(*p, desc, index.spec.sparse(), &tmp, &t)) {
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
    std::vector<Range> field_ranges =
        use == eq ? std::move(eq_ranges) : std::move(range_ranges);
    std::string text = use == eq ? std::move(eq_text) : std::move(range_text);
    // On a multikey index two range predicates may be satisfied by two
    // different elements of one array ({a: [0, 10]} matches {$gt: 1, $lt:
    // 5}), so only the first bounds the scan; on a known non-multikey index
    // a document has one value per field and the ranges intersect.
    std::vector<Range> first_only;
    if (use == range && all_ranges.size() > 1 && !index.multikey) {
      first_only = field_ranges;
      field_ranges = {
          IntersectRanges(all_ranges, desc, index.spec.sparse(), &text)};
    }
    bounds.emplace_back(field.path(), Value::MakeArray({Value::String(text)}));
    std::vector<Range> next;
    if (use == eq) {
      // Points: extend every accumulated prefix.
      for (const Range& a : acc) {
        for (const Range& f : field_ranges) {
          next.emplace_back(a.first + f.first, "");
        }
      }
      for (Range& r : next) r.second = KeyPrefixEnd(r.first);
      ++c.eq_fields;
    } else {
      // A range ends the usable prefix: [a+lo, a+hi).
      for (const Range& a : acc) {
        for (const Range& f : field_ranges) {
          next.emplace_back(a.first + f.first, a.first + f.second);
        }
      }
      if (!first_only.empty()) {
        std::vector<Range> mk;
        for (const Range& a : acc) {
          for (const Range& f : first_only) {
            mk.emplace_back(a.first + f.first, a.first + f.second);
          }
        }
        c.multikey_ranges = std::move(mk);
      }
      c.range_field = true;
      stop = true;
    }
    acc = std::move(next);
  }
  if (c.eq_fields == 0 && !c.range_field) return std::nullopt;
  auto finish = [&](std::vector<Range>* ranges) {
    for (Range& r : *ranges) {
      r.first.insert(0, index.prefix);
      r.second = r.second.empty() ? KeyPrefixEnd(index.prefix)
                                  : index.prefix + r.second;
    }
    std::sort(ranges->begin(), ranges->end());
  };
  if (c.multikey_ranges.has_value()) finish(&*c.multikey_ranges);
  finish(&acc);
  c.ranges = std::move(acc);
  c.bounds = Value::MakeObject(std::move(bounds));
  return c;
}

// Whether scanning `index` in key order yields `sort`'s order (ascending
// scans only: a sort on the index's leading fields in the same directions).
bool IndexProvidesSort(const IndexState& index, const SortSpec& sort,
                       int eq_fields) {
  const auto& fields = sort.fields();
  if (fields.empty()) return true;
  // Sort fields must follow the equality prefix in order and direction.
  int k = eq_fields;
  for (const auto& [path, dir] : fields) {
    if (k >= index.spec.key_size()) return false;
    if (index.spec.key(k).path() != path ||
        index.spec.key(k).direction() != dir) {
      return false;
    }
    ++k;
  }
  return true;
}

}  // namespace

absl::StatusOr<QueryPlan> PlanQuery(const CollectionState& state,
                                    const Filter& filter, const SortSpec* sort,
                                    const std::string& hint) {
  QueryPlan plan;
  std::vector<const MatchExpr*> preds = Conjuncts(filter.root());

  // _id equality or $in: point lookups (MongoDB's IDHACK).
  if (hint.empty()) {
    for (const MatchExpr* p : preds) {
      if (p->path != "_id") continue;
      std::vector<Value> ids;
      if (p->kind == Kind::kEq && IndexableEquality(p->operand)) {
        ids.push_back(p->operand);
      } else if (p->kind == Kind::kIn) {
        bool ok = true;
        for (const Value& v : p->operands) ok = ok && IndexableEquality(v);
        if (!ok) continue;
        ids = p->operands;
      } else {
        continue;
      }
      std::set<std::string> encoded;
      for (const Value& v : ids) encoded.insert(EncodeId(v));
      plan.kind = QueryPlan::Kind::kIdLookup;
      plan.ids.assign(encoded.begin(), encoded.end());
      plan.provides_sort =
          sort == nullptr || sort->fields().empty() ||
          (sort->fields().size() == 1 && sort->fields()[0].first == "_id" &&
           sort->fields()[0].second == 1);
      return plan;
    }
  }

  std::optional<Candidate> best;
  bool best_sorts = false;
  for (const auto& idx : state.indexes) {
    if (!hint.empty()) {
      if (idx->spec.name() != hint) continue;
    } else if (idx->spec.hidden() || idx->partial.has_value()) {
      // Hidden indexes are invisible to the planner; a partial index is
      // used only when hinted (the filter must imply its expression).
      continue;
    }
    std::optional<Candidate> c = PlanIndex(*idx, preds);
    if (!c.has_value()) {
      if (!hint.empty()) {
        // A hinted index with no usable predicate: a full index scan.
        Candidate full;
        full.index = idx.get();
        full.ranges = {{idx->prefix, KeyPrefixEnd(idx->prefix)}};
        full.bounds = Value::MakeObject();
        c = full;
      } else {
        continue;
      }
    }
    bool sorts = sort != nullptr && c->ranges.size() == 1 &&
                 IndexProvidesSort(*idx, *sort, c->eq_fields);
    // Prefer more equality fields, then a range, then one that sorts.
    auto score = [](const Candidate& x, bool s) {
      return x.eq_fields * 4 + (x.range_field ? 2 : 0) + (s ? 1 : 0);
    };
    if (!best.has_value() || score(*c, sorts) > score(*best, best_sorts)) {
      best = std::move(c);
      best_sorts = sorts;
    }
  }
  if (!hint.empty() && !best.has_value()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("hint provided does not correspond to an "
                                   "existing index: ",
                                   hint));
  }
  if (best.has_value()) {
    plan.kind = QueryPlan::Kind::kIndexScan;
    plan.index = best->index;
    plan.ranges = std::move(best->ranges);
    plan.multikey_ranges = std::move(best->multikey_ranges);
    plan.bounds = std::move(best->bounds);
    plan.provides_sort = sort == nullptr || best_sorts;
    return plan;
  }
  plan.provides_sort =
      sort == nullptr || sort->fields().empty() ||
      (sort->fields().size() == 1 && sort->fields()[0].first == "_id" &&
       sort->fields()[0].second == 1);
  return plan;
}

namespace {

// A projection's runtime error (the positional projection's 51246/51247)
// as the find command reports it.
absl::StatusOr<Value> ProjectForFind(const Projection& projection,
                                     const Value& doc) {
  absl::StatusOr<Value> out = projection.Apply(doc);
  if (!out.ok()) {
    return MongoError(absl::StatusCode::kInvalidArgument,
                      ErrorCode(out.status()),
                      absl::StrCat("Executor error during find command :: "
                                   "caused by :: ",
                                   out.status().message()));
  }
  return out;
}

// Streams candidate documents of a plan from a snapshot, then filters,
// hides expired documents, skips, limits and projects.
class PlanCursor : public Cursor {
 public:
  PlanCursor(Engine* engine, std::shared_ptr<const CollectionState> state,
             QueryPlan plan, Query query, absl::Time now, ExecStats* stats)
      : engine_(engine),
        state_(std::move(state)),
        plan_(std::move(plan)),
        query_(std::move(query)),
        now_(now),
        stats_(stats != nullptr ? stats : &own_stats_) {
    snapshot_ = engine_->db()->GetSnapshot();
    if (plan_.multikey_ranges.has_value()) {
      // The plan intersected range predicates because the index was not
      // multikey. A write that makes it multikey publishes the flag before
      // it commits, so if this snapshot holds such a document the current
      // state says so: then fall back to the first predicate's ranges.
      auto current = engine_->GetState(state_->info.name());
      const IndexState* now_index =
          current != nullptr ? current->FindIndex(plan_.index->spec.name())
                             : nullptr;
      if (now_index == nullptr ||
          now_index->spec.id() != plan_.index->spec.id() ||
          now_index->multikey) {
        plan_.ranges = std::move(*plan_.multikey_ranges);
      }
      plan_.multikey_ranges.reset();
    }
    // Point lookups by _id need no iterator (creating one costs about as
    // much as the lookup itself).
    if (plan_.kind == QueryPlan::Kind::kIdLookup) return;
    leveldb::ReadOptions ro;
    ro.snapshot = snapshot_;
    ro.fill_cache = true;
    it_.reset(engine_->db()->NewIterator(ro));
    if (plan_.kind == QueryPlan::Kind::kCollectionScan) {
      it_->Seek(state_->doc_prefix);
    } else if (plan_.kind == QueryPlan::Kind::kIndexScan &&
               !plan_.ranges.empty()) {
      it_->Seek(plan_.ranges[0].first);
    }
  }
  ~PlanCursor() override {
    it_.reset();
    engine_->db()->ReleaseSnapshot(snapshot_);
  }

  // The next document that passes filter and hiding (before skip/limit).
  absl::StatusOr<std::optional<Value>> NextMatch() {
    while (true) {
      std::optional<Value> doc;
      ASSIGN_OR_RETURN(bool more, NextCandidate(&doc));
      if (!more) return std::optional<Value>();
      if (!doc.has_value()) continue;
      ++stats_->docs_examined;
      if (!query_.filter.Matches(*doc)) continue;
      if (engine_->IsHidden(*state_, *doc, now_)) continue;
      return doc;
    }
  }

  absl::StatusOr<std::optional<Value>> Next() override {
    if (done_) return std::optional<Value>();
    while (true) {
      if (query_.limit > 0 && returned_ >= query_.limit) {
        done_ = true;
        return std::optional<Value>();
      }
      auto doc = NextMatch();
      if (!doc.ok() || !doc->has_value()) {
        done_ = true;
        return doc;
      }
      if (skipped_ < query_.skip) {
        ++skipped_;
        continue;
      }
      ++returned_;
      ++stats_->returned;
      if (query_.projection.has_value()) {
        ASSIGN_OR_RETURN(Value projected,
                         ProjectForFind(*query_.projection, **doc));
        return std::optional<Value>(std::move(projected));
      }
      return doc;
    }
  }

 private:
  // Sets *doc to the next candidate (or leaves it empty for a candidate
  // that vanished); returns false at the end.
  absl::StatusOr<bool> NextCandidate(std::optional<Value>* doc) {
    switch (plan_.kind) {
      case QueryPlan::Kind::kIdLookup: {
        if (next_id_ >= plan_.ids.size()) return false;
        ASSIGN_OR_RETURN(*doc, engine_->ReadDocument(
                                   *state_, plan_.ids[next_id_++], snapshot_));
        return true;
      }
      case QueryPlan::Kind::kCollectionScan: {
        if (!it_->Valid() || !it_->key().starts_with(state_->doc_prefix)) {
          RETURN_IF_ERROR(IterStatus());
          return false;
        }
        auto parsed = ParseDocument(
            absl::string_view(it_->value().data(), it_->value().size()));
        if (!parsed.ok()) {
          return absl::DataLossError(absl::StrCat(
              "collection '", state_->info.name(),
              "': stored document is corrupt: ", parsed.status().message()));
        }
        *doc = std::move(*parsed);
        it_->Next();
        return true;
      }
      case QueryPlan::Kind::kIndexScan: {
        while (true) {
          if (range_ >= plan_.ranges.size()) return false;
          const auto& r = plan_.ranges[range_];
          if (!it_->Valid() || it_->key().compare(r.second) >= 0) {
            RETURN_IF_ERROR(IterStatus());
            if (++range_ < plan_.ranges.size()) {
              it_->Seek(plan_.ranges[range_].first);
            }
            continue;
          }
          ++stats_->keys_examined;
          std::string id(EntryValueId(
              absl::string_view(it_->value().data(), it_->value().size())));
          it_->Next();
          // A multikey document has several entries: return it once.
          if (!seen_.insert(id).second) continue;
          ASSIGN_OR_RETURN(*doc, engine_->ReadDocument(*state_, id, snapshot_));
          return true;
        }
      }
    }
    return false;
  }

  absl::Status IterStatus() {
    if (!it_->status().ok()) {
      return absl::InternalError(
          absl::StrCat("read failed: ", it_->status().ToString()));
    }
    return absl::OkStatus();
  }

  Engine* const engine_;
  const std::shared_ptr<const CollectionState> state_;
  QueryPlan plan_;
  const Query query_;
  const absl::Time now_;
  ExecStats own_stats_;
  ExecStats* const stats_;
  const leveldb::Snapshot* snapshot_ = nullptr;
  std::unique_ptr<leveldb::Iterator> it_;
  size_t next_id_ = 0;
  size_t range_ = 0;
  std::set<std::string> seen_;
  int64_t skipped_ = 0;
  int64_t returned_ = 0;
  bool done_ = false;
};

// Returns prepared documents (already sorted, skipped, limited, projected).
class VectorCursor : public Cursor {
 public:
  explicit VectorCursor(std::vector<Value> docs) : docs_(std::move(docs)) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    if (next_ >= docs_.size()) return std::optional<Value>();
    return std::optional<Value>(std::move(docs_[next_++]));
  }

 private:
  std::vector<Value> docs_;
  size_t next_ = 0;
};

}  // namespace

absl::StatusOr<Query> ParseQuery(const Value& filter,
                                 const FindOptions& options) {
  Query q{};
  ASSIGN_OR_RETURN(q.filter, Filter::Parse(filter));
  if (!options.projection.is_null()) {
    if (!options.projection.is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        "projection must be an object");
    }
    if (!options.projection.object_fields().empty()) {
      ASSIGN_OR_RETURN(q.projection,
                       Projection::Parse(options.projection, &q.filter));
    }
  }
  if (!options.sort.is_null()) {
    if (!options.sort.is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        "sort must be an object");
    }
    if (!options.sort.object_fields().empty()) {
      ASSIGN_OR_RETURN(q.sort, SortSpec::Parse(options.sort));
    }
  }
  if (options.skip < 0) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "skip value must be non-negative");
  }
  if (options.limit < 0) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "limit value must be non-negative");
  }
  q.skip = options.skip;
  q.limit = options.limit;
  q.hint = options.hint;
  return q;
}

absl::StatusOr<std::unique_ptr<Cursor>> ExecuteQuery(
    Engine* engine, std::shared_ptr<const CollectionState> state, Query query,
    absl::Time now, ExecStats* stats) {
  if (state == nullptr) return std::unique_ptr<Cursor>(new VectorCursor({}));
  const SortSpec* sort = query.sort.has_value() ? &*query.sort : nullptr;
  ASSIGN_OR_RETURN(QueryPlan plan,
                   PlanQuery(*state, query.filter, sort, query.hint));
  if (plan.provides_sort) {
    return std::unique_ptr<Cursor>(
        new PlanCursor(engine, std::move(state), std::move(plan),
                       std::move(query), now, stats));
  }
  // Blocking sort: gather every match, sort, then skip/limit/project.
  Query unsorted = query;
  unsorted.skip = 0;
  unsorted.limit = 0;
  unsorted.projection.reset();
  PlanCursor source(engine, state, std::move(plan), std::move(unsorted), now,
                    stats);
  std::vector<Value> docs;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, source.NextMatch());
    if (!doc.has_value()) break;
    docs.push_back(std::move(*doc));
  }
  std::stable_sort(docs.begin(), docs.end(),
                   [&](const Value& a, const Value& b) {
                     return query.sort->Compare(a, b) < 0;
                   });
  std::vector<Value> out;
  for (size_t i = query.skip; i < docs.size(); ++i) {
    if (query.limit > 0 && static_cast<int64_t>(out.size()) >= query.limit) {
      break;
    }
    if (query.projection.has_value()) {
      ASSIGN_OR_RETURN(Value projected,
                       ProjectForFind(*query.projection, docs[i]));
      out.push_back(std::move(projected));
    } else {
      out.push_back(std::move(docs[i]));
    }
  }
  if (stats != nullptr) stats->returned = out.size();
  return std::unique_ptr<Cursor>(new VectorCursor(std::move(out)));
}

absl::StatusOr<std::vector<std::string>> MatchingIds(
    Engine* engine, const std::shared_ptr<const CollectionState>& state,
    const Filter& filter, int64_t limit, absl::Time now) {
  std::vector<std::string> ids;
  if (state == nullptr) return ids;
  // By _id: the candidates are the ids themselves. The caller re-reads and
  // re-matches every candidate under the writers' lock anyway, so reading
  // and parsing them here too would only parse each document twice.
  ASSIGN_OR_RETURN(QueryPlan plan, PlanQuery(*state, filter, nullptr, ""));
  if (plan.kind == QueryPlan::Kind::kIdLookup &&
      (limit == 0 || static_cast<int64_t>(plan.ids.size()) <= limit)) {
    return std::move(plan.ids);
  }
  Query q{};
  q.filter = filter;
  q.limit = limit;
  ASSIGN_OR_RETURN(auto cursor, ExecuteQuery(engine, state, std::move(q), now));
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
    if (!doc.has_value()) break;
    const Value* id = doc->Get("_id");
    if (id != nullptr) ids.push_back(EncodeId(*id));
  }
  return ids;
}

}  // namespace ttldb
