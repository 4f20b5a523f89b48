// Query execution: asks planner/planner.h for a plan over a collection's
// indexes and streams the matching documents from a LevelDB snapshot.
// Internal.
#ifndef TTLDB_ENGINE_QUERY_EXEC_H_
#define TTLDB_ENGINE_QUERY_EXEC_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/db_impl.h"
#include "engine/find_key_options.h"
#include "planner/planner.h"
#include "query/filter.h"
#include "query/projection.h"
#include "query/sort.h"
#include "query/top_level_fields.h"
#include "ttldb/cursor.h"
#include "ttldb/results.h"
#include "ttldb/value.h"

namespace ttldb {

// How candidate documents are found: the planner's plan (kind, key ranges,
// direction, whether it provides the sort, explain's bounds), resolved
// against the collection the executor runs it on.
struct QueryPlan : planner::Plan {
  // kIdLookup: `ids` encoded (storage/keys.h EncodeId), distinct, in scan
  // order (ascending, or descending when `backward`).
  std::vector<std::string> encoded_ids;
  // kIndexScan: the index at `index` of the collection's indexes.
  const IndexState* index_state = nullptr;
  // For explain, set by SkipExpiredEntries when it narrowed `ranges`:
  // {field: ["[Date min, cutoff]"]}, the key range left out.
  Value skipped_expired_bounds;
};

// MongoDB's planSummary of `plan`: "COLLSCAN", "IDHACK" or
// "IXSCAN { a: 1, b: -1 }" (Explain::getPlanSummary).
std::string PlanSummary(const QueryPlan& plan);

// Counts the plan's use of its index, or its collection scan, in the
// engine's IndexUsage ($indexStats, $collStats' queryExecStats), and gives
// the thread's operation (base/op_context.h) its planSummary if it has
// none yet. Every query that runs a plan calls it once; explain does not.
void RecordPlanUse(DbImpl* engine, const CollectionState& state,
                   const QueryPlan& plan);

// Chooses a plan for `filter` (and `sort`, if any) with
// planner::ChoosePlan. A hint names an index that must be used (BadValue if
// it does not exist).
absl::StatusOr<QueryPlan> PlanQuery(const CollectionState& state,
                                    const Filter& filter, const SortSpec* sort,
                                    const planner::Hint& hint);

// With Options::hide_expired, every entry of a TTL index whose Date is <=
// now - expireAfterSeconds belongs to a hidden document (a document expires
// at its earliest indexed Date; an entry of a partial index exists only for
// a document that matches its filter): removes that Date key range from the
// scan of a TTL index, so that a scan starting at the low end of the index
// does not walk the expired entries nor the tombstones a TTL pass left of
// them (issue 19). Values of other types (null, numbers, strings, ...)
// never expire and stay in the ranges. Does nothing for other plans, other
// indexes, or with hide_expired off.
void SkipExpiredEntries(const DbImpl& engine, absl::Time now, QueryPlan* plan);

// Counters of one execution, for explain.
struct ExecStats {
  int64_t keys_examined = 0;
  int64_t docs_examined = 0;
  int64_t returned = 0;
};

// A parsed query, ready to run.
struct Query {
  Filter filter;
  std::optional<Projection> projection;
  std::optional<SortSpec> sort;
  int64_t skip = 0;
  int64_t limit = 0;
  bool allow_disk_use = false;
  planner::Hint hint;
  // min / max, returnKey, showRecordId (engine/find_key_options.h).
  KeyOptions keys;
  // The top-level fields the find reads and returns (its filter, sort and
  // projection), when its projection includes only some fields: a scan
  // that sorts nothing in memory parses only these (and those hiding
  // needs) of each document. all(): the whole document.
  TopLevelFields read_fields = TopLevelFields::All();
};

// The collation of an operation on the collection `state` (nullptr: none
// yet): `collation` when it is a collation document ({locale: "simple"}
// gives nullptr, the binary comparison), else, when null, the collection's
// default (create's collation). Errors are Collator::Make's.
absl::StatusOr<std::shared_ptr<const Collator>> ResolveCollation(
    const Value& collation, const CollectionState* state);

// Parses a find: the filter and the sort compare strings by
// ResolveCollation(options.collation, state).
absl::StatusOr<Query> ParseQuery(const Value& filter,
                                 const FindOptions& options,
                                 const CollectionState* state = nullptr);

// Runs `query` over `state` (nullptr: a collection that does not exist, so
// nothing matches) at wall time `now` (for hiding expired documents). The
// cursor owns a LevelDB snapshot. `stats` (optional) must outlive it; only
// explain asks for them, and its run is not counted as a use of the plan's
// index (RecordPlanUse), as MongoDB's explain does not count in
// $indexStats.
absl::StatusOr<std::unique_ptr<Cursor>> ExecuteQuery(
    DbImpl* engine, std::shared_ptr<const CollectionState> state, Query query,
    absl::Time now, ExecStats* stats = nullptr);

// Collection::Find on this engine, after the collection's name and the
// filter are checked: a view's find runs as its aggregation; otherwise
// ExecuteQuery at the clock's time, registered with the live cursors.
// `fields`: the top-level fields the caller reads of each document returned
// (all(): every field); documents may come without the others (the scan of
// an aggregation whose later stages read only those).
absl::StatusOr<std::unique_ptr<Cursor>> FindLocal(DbImpl* engine,
                                                  const std::string& collection,
                                                  const Value& filter,
                                                  const FindOptions& options,
                                                  const TopLevelFields& fields);

// Encoded _ids of the documents matching `filter` (at most `limit`, 0: all),
// from a fresh snapshot. For multi-document writes. When the filter selects
// by _id equality or $in, the ids themselves are returned unread (they may
// not exist or match): the caller must re-read and re-match each one.
absl::StatusOr<std::vector<std::string>> MatchingIds(
    DbImpl* engine, const std::shared_ptr<const CollectionState>& state,
    const Filter& filter, int64_t limit, absl::Time now);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_QUERY_EXEC_H_
