// Query planning and execution over one collection.
#include "engine/query_exec.h"

#include <algorithm>
#include <set>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "base/op_context.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "document/vector_cursor.h"
#include "index/key_codec.h"
#include "leveldb/db.h"
#include "query/sorter.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "storage/leading_entries.h"
#include "storage/leveldb_status.h"
#include "storage/spill_directory.h"
#include "ttl/expiry.h"
#include "ttldb/json.h"

namespace ttldb {

std::string PlanSummary(const QueryPlan& plan) {
  switch (plan.kind) {
    case QueryPlan::Kind::kCollectionScan:
      return "COLLSCAN";
    case QueryPlan::Kind::kIdLookup:
      return "IDHACK";
    case QueryPlan::Kind::kIndexScan:
      break;
  }
  // Explain::getPlanSummary: the leaf stage and its key pattern as
  // BSONObj::toString writes it.
  std::string out = "IXSCAN {";
  const char* sep = " ";
  for (const auto& k : plan.index_state->spec.key) {
    absl::StrAppend(&out, sep, k.path, ": ", k.direction);
    sep = ", ";
  }
  absl::StrAppend(&out, " }");
  return out;
}

void RecordPlanUse(DbImpl* engine, const CollectionState& state,
                   const QueryPlan& plan) {
  if (OpCounters* counters = CurrentOpCounters();
      counters != nullptr && counters->plan_summary.empty()) {
    counters->plan_summary = PlanSummary(plan);
  }
  IndexUsage& usage = engine->index_usage();
  switch (plan.kind) {
    case QueryPlan::Kind::kCollectionScan:
      usage.RecordCollectionScan(state.info.id());
      break;
    case QueryPlan::Kind::kIdLookup:
      usage.RecordAccess(state.info.id(), kIdIndexId);
      break;
    case QueryPlan::Kind::kIndexScan:
      usage.RecordAccess(state.info.id(), plan.index_state->spec.id);
      break;
  }
}

absl::StatusOr<QueryPlan> PlanQuery(const CollectionState& state,
                                    const Filter& filter, const SortSpec* sort,
                                    const planner::Hint& hint) {
  std::vector<planner::IndexInfo> infos;
  infos.reserve(state.indexes.size());
  for (const auto& idx : state.indexes) {
    planner::IndexInfo info;
    info.spec = &idx->spec;
    info.prefix = idx->prefix;
    info.partial = idx->partial.has_value() ? &idx->partial->root() : nullptr;
    info.multikey = idx->multikey;
    info.collator = idx->collator.get();
    infos.push_back(std::move(info));
  }
  ASSIGN_OR_RETURN(planner::Plan chosen,
                   planner::ChoosePlan(infos, filter, sort, hint));
  QueryPlan plan;
  static_cast<planner::Plan&>(plan) = std::move(chosen);
  if (plan.kind == QueryPlan::Kind::kIdLookup) {
    std::set<std::string> encoded;
    for (const Value& v : plan.ids) encoded.insert(EncodeId(v));
    if (plan.backward) {
      plan.encoded_ids.assign(encoded.rbegin(), encoded.rend());
    } else {
      plan.encoded_ids.assign(encoded.begin(), encoded.end());
    }
  } else if (plan.kind == QueryPlan::Kind::kIndexScan) {
    plan.index_state = state.indexes[plan.index].get();
  }
  return plan;
}

namespace {

using KeyRanges = std::vector<std::pair<std::string, std::string>>;

// `ranges` (ascending, disjoint) without [skip.first, skip.second).
KeyRanges SubtractRanges(const KeyRanges& ranges,
                         const std::pair<std::string, std::string>& skip) {
  KeyRanges out;
  for (const auto& [begin, end] : ranges) {
    const bool ends_before = !end.empty() && end <= skip.first;
    if (ends_before || begin >= skip.second) {
      out.emplace_back(begin, end);
      continue;
    }
    if (begin < skip.first) out.emplace_back(begin, skip.first);
    if (end.empty() || end > skip.second) out.emplace_back(skip.second, end);
  }
  return out;
}

}  // namespace

void SkipExpiredEntries(const DbImpl& engine, absl::Time now, QueryPlan* plan) {
  if (!engine.options().hide_expired) return;
  if (plan->kind != QueryPlan::Kind::kIndexScan ||
      plan->index_state == nullptr) {
    return;
  }
  const IndexState& index = *plan->index_state;
  if (!index.ttl_seconds.has_value() || index.spec.key.size() != 1) return;
  if (now == absl::InfinitePast()) return;
  const int64_t cutoff = CutoffMillis(now, *index.ttl_seconds);
  // CutoffMillis saturates: when now - E lies below every Date, nothing is
  // expired.
  if (!IsDateExpired(cutoff, *index.ttl_seconds, now)) return;
  const bool descending = index.spec.key[0].direction < 0;
  const auto skip = DatesAtOrBelowKeys(index.prefix, descending, cutoff);
  KeyRanges narrowed = SubtractRanges(plan->ranges, skip);
  if (narrowed == plan->ranges) return;
  plan->ranges = std::move(narrowed);
  if (plan->multikey_ranges.has_value()) {
    plan->multikey_ranges = SubtractRanges(*plan->multikey_ranges, skip);
  }
  plan->skipped_expired_bounds = Value::MakeObject({Field(
      index.spec.key[0].path, Value::MakeArray({Value::String(absl::StrCat(
                                  "[", TypeName(ValueType::kDate), " min, ",
                                  ToJson(Value::Date(cutoff)), "]"))}))});
}

namespace {

// A projection's runtime error (the positional projection's 51246/51247)
// as the find command reports it.
absl::StatusOr<Value> ProjectForFind(const Query& query, const Value& doc) {
  const SortSpec* sort = query.sort.has_value() ? &*query.sort : nullptr;
  absl::StatusOr<Value> out = query.projection->Apply(doc, sort);
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
  PlanCursor(DbImpl* engine, std::shared_ptr<const CollectionState> state,
             QueryPlan plan, Query query, absl::Time now, ExecStats* stats)
      : engine_(engine),
        state_(std::move(state)),
        plan_(std::move(plan)),
        query_(std::move(query)),
        now_(now),
        stats_(stats != nullptr ? stats : &own_stats_) {
    // The count of entries below the Date bracket (engine/
    // leading_entries.h) is read before and after taking the snapshot: a
    // writer raises it before its commit (so the read after sees an entry
    // the snapshot holds) and lowers it after (so the read before sees an
    // entry whose deletion the snapshot may not hold).
    const bool leading_eligible = plan_.kind == QueryPlan::Kind::kIndexScan &&
                                  LeadingEntries::Eligible(*plan_.index_state);
    const bool none_before =
        leading_eligible &&
        engine_->leading_entries().KnownNone(plan_.index_state->prefix);
    // Likewise the collection's floor (DbImpl::doc_floor_): raised after
    // deletions commit, lowered before an insert commits.
    std::string scan_start;
    if (plan_.kind == QueryPlan::Kind::kCollectionScan) {
      scan_start = engine_->DocScanStart(state_->info.id(), state_->doc_prefix);
    }
    snapshot_ = engine_->db()->GetSnapshot();
    TTLDB_SYNC_POINT("PlanCursor:AfterSnapshot");
    if (plan_.kind == QueryPlan::Kind::kCollectionScan) {
      scan_start = std::min(
          scan_start,
          engine_->DocScanStart(state_->info.id(), state_->doc_prefix));
    }
    if (plan_.multikey_ranges.has_value() || plan_.sort_needs_not_multikey) {
      // The plan relied on the index not being multikey (intersected range
      // predicates, or a sort provided despite bounds on its fields). A
      // write that makes it multikey publishes the flag before it commits,
      // so if this snapshot holds such a document the current state says
      // so: then scan the first predicate's ranges, and sort in memory.
      auto current = engine_->GetState(state_->info.name());
      const IndexState* now_index =
          current != nullptr ? current->FindIndex(plan_.index_state->spec.name)
                             : nullptr;
      if (now_index == nullptr ||
          now_index->spec.id != plan_.index_state->spec.id ||
          now_index->multikey) {
        if (plan_.multikey_ranges.has_value()) {
          plan_.ranges = std::move(*plan_.multikey_ranges);
        }
        if (plan_.sort_needs_not_multikey) {
          plan_.provides_sort = false;
          plan_.sort_reason = absl::StrCat(
              "index ", plan_.index_state->spec.name, " became multikey");
        }
      }
      plan_.multikey_ranges.reset();
      plan_.sort_needs_not_multikey = false;
    }
    // Each document has one entry in an index that is not multikey. A
    // write that makes it multikey publishes the flag before it commits
    // (as above): if the state read after the snapshot says not multikey,
    // the snapshot holds one entry per document and needs no dedup.
    if (plan_.kind == QueryPlan::Kind::kIndexScan) {
      auto current = engine_->GetState(state_->info.name());
      const IndexState* now_index =
          current != nullptr ? current->FindIndex(plan_.index_state->spec.name)
                             : nullptr;
      dedup_ = now_index == nullptr ||
               now_index->spec.id != plan_.index_state->spec.id ||
               now_index->multikey || plan_.index_state->multikey;
    }
    // No entry below the Date bracket of an ascending TTL index in this
    // snapshot (the count was 0 before and after taking it): the ranges
    // start at the Dates, so that a scan from
    // the low end (a sort on the whole index) does not seek below them and
    // step over the tombstones a TTL pass left at the bottom of the bracket
    // (LevelDB's Seek walks them up to the first live key).
    if (none_before &&
        engine_->leading_entries().KnownNone(plan_.index_state->prefix)) {
      plan_.ranges = SubtractRanges(
          plan_.ranges,
          {plan_.index_state->prefix,
           LeadingEntries::DateBracket(plan_.index_state->prefix)});
    }
    // A find that returns some fields and sorts nothing in memory parses
    // only what it reads (its filter, projection and sort, and what hiding
    // needs); a blocking sort holds whole documents, as its memory bound
    // counts them.
    if (!query_.read_fields.all() &&
        (!query_.sort.has_value() || plan_.provides_sort)) {
      fields_ = query_.read_fields;
      fields_.Add(DocumentReader::HidingFields(*state_));
      if (!fields_.all()) read_fields_ = &fields_;
    }
    // Point lookups by _id need no iterator (creating one costs about as
    // much as the lookup itself).
    if (plan_.kind == QueryPlan::Kind::kIdLookup) return;
    leveldb::ReadOptions ro = storage::VerifiedRead(snapshot_);
    ro.fill_cache = true;
    it_.reset(engine_->db()->NewIterator(ro));
    if (plan_.backward) {
      // The last range first; range_ counts ranges done from the end.
      if (plan_.kind == QueryPlan::Kind::kCollectionScan) {
        SeekBefore(KeyPrefixEnd(state_->doc_prefix));
      } else if (plan_.kind == QueryPlan::Kind::kIndexScan &&
                 !plan_.ranges.empty()) {
        SeekBefore(plan_.ranges.back().second);
      }
    } else if (plan_.kind == QueryPlan::Kind::kCollectionScan) {
      // Not below the document prefix: DocScanStart never returns less.
      it_->Seek(scan_start);
    } else if (plan_.kind == QueryPlan::Kind::kIndexScan &&
               !plan_.ranges.empty()) {
      it_->Seek(plan_.ranges[0].first);
    }
  }
  // Whether the scan order satisfies the query's sort (false once the
  // constructor found that the plan's assumption no longer holds).
  bool provides_sort() const { return plan_.provides_sort; }

  // A matching document as the find returns it: projected, or its index
  // key (returnKey), with "$recordId" (showRecordId).
  absl::StatusOr<Value> Output(Value doc) const {
    if (!query_.keys.changes_output()) {
      if (!query_.projection.has_value()) return doc;
      return ProjectForFind(query_, doc);
    }
    Value out;
    if (query_.projection.has_value() && !query_.keys.return_key) {
      ASSIGN_OR_RETURN(out, ProjectForFind(query_, doc));
    } else {
      out = doc;
    }
    return KeyOptionsOutput(plan_, query_.keys, doc, std::move(out));
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
      // maxTimeMS: once per candidate, as mongod checks for interrupt
      // between the work units of a plan.
      RETURN_IF_ERROR(CheckOpDeadline());
      if (!doc.has_value()) continue;
      ++stats_->docs_examined;
      CountDocExamined();
      // A $expr evaluation error fails the query, as in MongoDB.
      ASSIGN_OR_RETURN(bool matched, query_.filter.MatchesOrError(*doc));
      if (!matched) continue;
      if (engine_->reader().IsHidden(*state_, *doc, now_)) continue;
      if (query_.keys.bounded() && plan_.index_state != nullptr) {
        ASSIGN_OR_RETURN(bool in,
                         InKeyBounds(*plan_.index_state, query_.keys, *doc));
        if (!in) continue;
      }
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
      ASSIGN_OR_RETURN(Value out, Output(std::move(**doc)));
      return std::optional<Value>(std::move(out));
    }
  }

 private:
  // Sets *doc to the next candidate (or leaves it empty for a candidate
  // that vanished); returns false at the end.
  absl::StatusOr<bool> NextCandidate(std::optional<Value>* doc) {
    switch (plan_.kind) {
      case QueryPlan::Kind::kIdLookup: {
        if (next_id_ >= plan_.encoded_ids.size()) return false;
        ASSIGN_OR_RETURN(
            *doc, engine_->reader().Read(*state_, plan_.encoded_ids[next_id_++],
                                         snapshot_, read_fields_));
        return true;
      }
      case QueryPlan::Kind::kCollectionScan: {
        if (!it_->Valid() || !it_->key().starts_with(state_->doc_prefix)) {
          RETURN_IF_ERROR(IterStatus());
          return false;
        }
        doc->emplace();
        RETURN_IF_ERROR(DocumentReader::ParseStored(
            *state_,
            absl::string_view(it_->value().data(), it_->value().size()),
            read_fields_, &**doc));
        if (plan_.backward) {
          it_->Prev();
        } else {
          it_->Next();
        }
        return true;
      }
      case QueryPlan::Kind::kIndexScan:
        return NextIndexedDocument(doc);
    }
    return false;
  }

  // The index scan's documents, fetched in batches: the next batch's ids
  // are collected from the index (8, then twice as many each time, up to
  // 256), then read at once in key order (DocumentReader::ReadBatch), and
  // handed out in index order. The keys examined are counted as each
  // document is handed out (the entries that led to it), so explain's and
  // serverStatus' counts are those of a scan one entry at a time.
  absl::StatusOr<bool> NextIndexedDocument(std::optional<Value>* doc) {
    constexpr size_t kFirstBatch = 8, kMaxBatch = 256;
    if (batch_pos_ == batch_.size()) {
      batch_ids_.clear();
      batch_keys_.clear();
      if (!index_done_) {
        const size_t target = batch_target_;
        batch_target_ = std::min(kMaxBatch, std::max(kFirstBatch, 2 * target));
        while (batch_ids_.size() < std::max(target, kFirstBatch)) {
          std::string id;
          int64_t keys = 0;
          ASSIGN_OR_RETURN(bool more, plan_.backward
                                          ? NextBackwardEntry(&id, &keys)
                                          : NextForwardEntry(&id, &keys));
          if (!more) {
            index_done_ = true;
            trailing_keys_ = keys;
            break;
          }
          batch_ids_.push_back(std::move(id));
          batch_keys_.push_back(keys);
        }
      }
      if (batch_ids_.empty()) {
        CountKeys(trailing_keys_);
        trailing_keys_ = 0;
        return false;
      }
      RETURN_IF_ERROR(engine_->reader().ReadBatch(
          *state_, batch_ids_, snapshot_, read_fields_, &batch_));
      batch_pos_ = 0;
    }
    CountKeys(batch_keys_[batch_pos_]);
    *doc = std::move(batch_[batch_pos_++]);
    return true;
  }

  void CountKeys(int64_t keys) {
    stats_->keys_examined += keys;
    for (int64_t i = 0; i < keys; ++i) CountKeyExamined();
  }

  // Sets *id to the encoded _id of the next document of the forward index
  // scan (each document once), adding to *keys the entries examined on the
  // way; false at the end.
  absl::StatusOr<bool> NextForwardEntry(std::string* id, int64_t* keys) {
    while (true) {
      if (range_ >= plan_.ranges.size()) return false;
      const auto& r = plan_.ranges[range_];
      if (!it_->Valid() || it_->key().compare(r.second) >= 0) {
        RETURN_IF_ERROR(IterStatus());
        // Already at or past the next range's start (the gap held no
        // entry): the current key is the first one there, and a seek
        // would cost as much again (a range before the skipped expired
        // Dates, SkipExpiredEntries, is often empty).
        if (++range_ < plan_.ranges.size() &&
            (!it_->Valid() ||
             it_->key().compare(plan_.ranges[range_].first) < 0)) {
          it_->Seek(plan_.ranges[range_].first);
        }
        continue;
      }
      ++*keys;
      const absl::string_view entry_id = EntryValueId(
          absl::string_view(it_->value().data(), it_->value().size()));
      id->assign(entry_id.data(), entry_id.size());
      it_->Next();
      // A multikey document has several entries: return it once.
      if (dedup_ && !seen_.insert(*id).second) continue;
      return true;
    }
  }

  // Positions the iterator at the last key before `end` ("": the last key of
  // the database), or invalid when there is none.
  void SeekBefore(const std::string& end) {
    if (end.empty()) {
      it_->SeekToLast();
      return;
    }
    it_->Seek(end);
    if (it_->Valid()) {
      it_->Prev();
    } else if (it_->status().ok()) {
      it_->SeekToLast();
    }
  }

  // The index scan from the high end: ranges last to first, each [begin,
  // end) walked from its last key down to begin (MongoDB's backward IXSCAN).
  // range_ counts the ranges done.
  absl::StatusOr<bool> NextBackwardEntry(std::string* id, int64_t* keys) {
    while (true) {
      if (range_ >= plan_.ranges.size()) return false;
      const auto& r = plan_.ranges[plan_.ranges.size() - 1 - range_];
      if (!it_->Valid() || it_->key().compare(r.first) < 0) {
        RETURN_IF_ERROR(IterStatus());
        // Already below the next range's end (the gap held no entry): the
        // current key is the last one there, no seek needed. Invalid here
        // means no key precedes this range's begin: the scan is over.
        if (!it_->Valid()) return false;
        if (++range_ < plan_.ranges.size()) {
          const std::string& end =
              plan_.ranges[plan_.ranges.size() - 1 - range_].second;
          if (it_->key().compare(end) >= 0) SeekBefore(end);
        }
        continue;
      }
      ++*keys;
      const absl::string_view entry_id = EntryValueId(
          absl::string_view(it_->value().data(), it_->value().size()));
      id->assign(entry_id.data(), entry_id.size());
      it_->Prev();
      // A multikey document has several entries: return it once, at the
      // first met (its greatest key of the scan).
      if (dedup_ && !seen_.insert(*id).second) continue;
      return true;
    }
  }

  absl::Status IterStatus() {
    if (!it_->status().ok()) {
      return storage::FromLevelDB(
          it_->status(),
          absl::StrCat("reading collection '", state_->info.name(), "'"));
    }
    return absl::OkStatus();
  }

  DbImpl* const engine_;
  const std::shared_ptr<const CollectionState> state_;
  QueryPlan plan_;
  const Query query_;
  const absl::Time now_;
  ExecStats own_stats_;
  ExecStats* const stats_;
  const leveldb::Snapshot* snapshot_ = nullptr;
  std::unique_ptr<leveldb::Iterator> it_;
  // The fields each document is parsed for (nullptr: all); points at
  // fields_.
  TopLevelFields fields_;
  const TopLevelFields* read_fields_ = nullptr;
  size_t next_id_ = 0;
  size_t range_ = 0;
  // Whether index entries may repeat a document (a multikey index).
  bool dedup_ = true;
  absl::flat_hash_set<std::string> seen_;
  // The index scan's batch (NextIndexedDocument): the ids read, the keys
  // examined for each, the documents, the next to hand out.
  std::vector<std::string> batch_ids_;
  std::vector<int64_t> batch_keys_;
  std::vector<std::optional<Value>> batch_;
  size_t batch_pos_ = 0;
  size_t batch_target_ = 0;
  bool index_done_ = false;
  int64_t trailing_keys_ = 0;
  int64_t skipped_ = 0;
  int64_t returned_ = 0;
  bool done_ = false;
};

// A blocking sort's results: the sorter's slice (query/sorter.h), each
// document projected as it leaves. Holds the plan's cursor for Output.
class SortedCursor : public Cursor {
 public:
  SortedCursor(std::unique_ptr<PlanCursor> source,
               std::unique_ptr<SortSpec> sort, std::unique_ptr<Sorter> sorter,
               ExecStats* stats)
      : source_(std::move(source)),
        sort_(std::move(sort)),
        sorter_(std::move(sorter)),
        stats_(stats) {}

  absl::StatusOr<std::optional<Value>> Next() override {
    if (ended_.has_value()) {
      if (!ended_->ok()) return *ended_;
      return std::optional<Value>();
    }
    absl::StatusOr<std::optional<Value>> doc = sorter_->Next();
    if (doc.ok() && doc->has_value()) {
      if (stats_ != nullptr) ++stats_->returned;
      absl::StatusOr<Value> out = source_->Output(**std::move(doc));
      if (out.ok()) return std::optional<Value>(*std::move(out));
      doc = out.status();
    }
    // The end, or an error (a spill file unreadable): Next keeps saying so.
    ended_ = doc.status();
    return doc;
  }

 private:
  std::unique_ptr<PlanCursor> source_;
  std::unique_ptr<SortSpec> sort_;  // the sorter's
  std::unique_ptr<Sorter> sorter_;
  ExecStats* stats_;
  std::optional<absl::Status> ended_;
};

// canonical_query.cpp isValid(): $natural alone in a sort or a hint, and
// a $natural sort only with no hint or a $natural one of its direction.
absl::Status CheckNatural(const FindOptions& options) {
  const Value* sort =
      options.sort.is_object() ? options.sort.Get("$natural") : nullptr;
  const Value* hint = options.hint_keys.is_object()
                          ? options.hint_keys.Get("$natural")
                          : nullptr;
  auto bad = [](absl::string_view msg, const Value* spec) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kBadValue,
        spec == nullptr ? std::string(msg) : absl::StrCat(msg, ToJson(*spec)));
  };
  if (sort != nullptr && options.sort.object_fields().size() != 1) {
    return bad("Cannot include '$natural' in compound sort: ", &options.sort);
  }
  if (hint != nullptr && options.hint_keys.object_fields().size() != 1) {
    return bad("Cannot include '$natural' in compound hint: ",
               &options.hint_keys);
  }
  if (sort == nullptr) return absl::OkStatus();
  if (hint == nullptr &&
      (!options.hint.empty() || options.hint_keys.is_object())) {
    return bad("index hint not allowed with $natural sort order", nullptr);
  }
  if (hint != nullptr && sort->is_number() && hint->is_number() &&
      (sort->AsDouble() < 0) != (hint->AsDouble() < 0)) {
    return bad(
        "$natural hint must be in the same direction as $natural sort "
        "order",
        nullptr);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Collator>> ResolveCollation(
    const Value& collation, const CollectionState* state) {
  if (collation.is_null()) {
    return state != nullptr ? state->collator
                            : std::shared_ptr<const Collator>();
  }
  return Collator::Make(collation);
}

// The fields an inclusion projection ({a: 1, "b.c": true, _id: 0})
// returns; all() for any other projection (an exclusion needs every other
// field; a computed or $meta field is not followed).
static TopLevelFields ProjectionReadFields(const Value& projection) {
  TopLevelFields fields;
  bool id = true;
  for (const Field& f : projection.object_fields()) {
    const Value& v = f.second;
    const bool included = (v.type() == ValueType::kBool && v.bool_value()) ||
                          (v.is_number() && v.AsDouble() != 0);
    const bool excluded = (v.type() == ValueType::kBool && !v.bool_value()) ||
                          (v.is_number() && v.AsDouble() == 0);
    if (f.first == "_id" && (included || excluded)) {
      id = included;
    } else if (!included || f.first.empty() || f.first[0] == '$') {
      return TopLevelFields::All();
    } else {
      fields.AddPath(f.first);
    }
  }
  // {_id: 0} alone excludes _id and keeps everything else.
  if (fields.names().empty() && !id) return TopLevelFields::All();
  if (id) fields.AddPath("_id");
  return fields;
}

absl::StatusOr<Query> ParseQuery(const Value& filter,
                                 const FindOptions& options,
                                 const CollectionState* state) {
  RETURN_IF_ERROR(CheckNatural(options));
  ASSIGN_OR_RETURN(std::shared_ptr<const Collator> collator,
                   ResolveCollation(options.collation, state));
  Query q{};
  ASSIGN_OR_RETURN(q.filter, Filter::Parse(filter, absl::Now(), collator));
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
  // canonical_query.cpp: the sort key exists only for a sorted find.
  if (q.projection.has_value() && q.projection->wants_sort_key() &&
      (!options.sort.is_object() || options.sort.object_fields().empty())) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "cannot use sortKey $meta projection without a sort");
  }
  if (!options.sort.is_null()) {
    if (!options.sort.is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        "sort must be an object");
    }
    const Value* natural = options.sort.Get("$natural");
    if (natural != nullptr) {
      // Its value is checked as any sort key's (1 or -1: fuzz/
      // find_projection_sort found {$natural: -2} accepted).
      RETURN_IF_ERROR(SortSpec::Parse(options.sort).status());
      // Natural order is the documents' key order (_id's): {$natural: 1}
      // is the plain scan, {$natural: -1} the same backwards.
      if (natural->is_number() && natural->AsDouble() < 0) {
        ASSIGN_OR_RETURN(
            q.sort,
            SortSpec::Parse(Value::MakeObject({{"_id", Value::Int32(-1)}})));
      }
    } else if (!options.sort.object_fields().empty()) {
      ASSIGN_OR_RETURN(q.sort, SortSpec::Parse(options.sort, collator));
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
  q.allow_disk_use = options.allow_disk_use;
  q.hint.name = options.hint;
  q.hint.key_pattern = options.hint_keys;
  ASSIGN_OR_RETURN(q.keys, ParseKeyOptions(options));
  if (q.projection.has_value() && !q.keys.changes_output() &&
      !q.keys.bounded()) {
    q.read_fields = ProjectionReadFields(options.projection);
    q.read_fields.AddFilter(filter);
    q.read_fields.AddKeyPattern(options.sort);
  }
  return q;
}

absl::StatusOr<std::unique_ptr<Cursor>> ExecuteQuery(
    DbImpl* engine, std::shared_ptr<const CollectionState> state, Query query,
    absl::Time now, ExecStats* stats) {
  if (state == nullptr) return std::unique_ptr<Cursor>(new VectorCursor({}));
  const SortSpec* sort = query.sort.has_value() ? &*query.sort : nullptr;
  ASSIGN_OR_RETURN(QueryPlan plan,
                   PlanQuery(*state, query.filter, sort, query.hint));
  RETURN_IF_ERROR(ResolveKeyBounds(&plan, &query.keys));
  if (stats == nullptr) RecordPlanUse(engine, *state, plan);
  SkipExpiredEntries(*engine, now, &plan);
  // Between planning and the cursor's snapshot: a write here may make the
  // planned index multikey (tests force it).
  TTLDB_SYNC_POINT("ExecuteQuery:AfterPlan");
  auto source = std::make_unique<PlanCursor>(
      engine, std::move(state), std::move(plan), query, now, stats);
  if (source->provides_sort())
    return std::unique_ptr<Cursor>(std::move(source));
  // Blocking sort (query/sorter.h): a top-k sort with a limit, a full one
  // without, within Options::max_blocking_sort_bytes or spilling under
  // allowDiskUse. Every match is sorted now, so the errors of the sort
  // (292, a parallel-arrays key) are Find's; the cursor then yields the
  // sorted slice, projected.
  SorterOptions o;
  o.skip = query.skip;
  o.limit = query.limit;
  o.max_memory_bytes = engine->options().max_blocking_sort_bytes;
  if (query.allow_disk_use) {
    o.spill_directory = [engine] {
      return SpillDirectory(engine->path(), engine->options().in_memory);
    };
  }
  auto owned_sort = std::make_unique<SortSpec>(*std::move(query.sort));
  auto sorter = std::make_unique<Sorter>(owned_sort.get(), std::move(o));
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, source->NextMatch());
    if (!doc.has_value()) break;
    RETURN_IF_ERROR(sorter->Add(*std::move(doc)));
  }
  return std::unique_ptr<Cursor>(new SortedCursor(
      std::move(source), std::move(owned_sort), std::move(sorter), stats));
}

absl::StatusOr<std::unique_ptr<Cursor>> FindLocal(
    DbImpl* engine, const std::string& collection, const Value& filter,
    const FindOptions& options, const TopLevelFields& fields) {
  {
    ASSIGN_OR_RETURN(auto view, engine->ResolveView(collection));
    if (view.has_value()) {
      AggregateOptions aggregate;
      aggregate.allow_disk_use = options.allow_disk_use;
      return engine->collection(view->collection)
          .Aggregate(FindAsViewPipeline(view->pipeline, filter, options),
                     aggregate);
    }
  }
  std::shared_ptr<const CollectionState> state = engine->GetState(collection);
  ASSIGN_OR_RETURN(Query q, ParseQuery(filter, options, state.get()));
  if (!fields.all() && !q.keys.changes_output() && !q.keys.bounded()) {
    // The caller reads only `fields` of what the find returns.
    TopLevelFields read = fields;
    if (q.projection.has_value()) read.Add(q.read_fields);
    read.AddFilter(filter);
    read.AddKeyPattern(options.sort);
    q.read_fields = std::move(read);
  }
  return engine->live_cursors()->Open([&] {
    return ExecuteQuery(engine, std::move(state), std::move(q),
                        engine->clock()->WallNow());
  });
}

absl::StatusOr<std::vector<std::string>> MatchingIds(
    DbImpl* engine, const std::shared_ptr<const CollectionState>& state,
    const Filter& filter, int64_t limit, absl::Time now) {
  std::vector<std::string> ids;
  if (state == nullptr) return ids;
  // By _id: the candidates are the ids themselves. The caller re-reads and
  // re-matches every candidate under the writers' lock anyway, so reading
  // and parsing them here too would only parse each document twice.
  ASSIGN_OR_RETURN(QueryPlan plan,
                   PlanQuery(*state, filter, nullptr, planner::Hint()));
  if (plan.kind == QueryPlan::Kind::kIdLookup &&
      (limit == 0 || static_cast<int64_t>(plan.encoded_ids.size()) <= limit)) {
    RecordPlanUse(engine, *state, plan);
    return std::move(plan.encoded_ids);
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
