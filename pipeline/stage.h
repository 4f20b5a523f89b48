// The building blocks of an aggregation pipeline: document streams, the
// database access the stages need, and parsed stages.
//
// A pipeline is parsed once into immutable StageSpecs (pipeline/pipeline.h);
// running it chains one Cursor per stage, each pulling documents from the
// one before it, so documents flow one at a time except through the
// blocking stages ($group, $sort, $bucket, $facet, ...), which are bounded
// by RunContext::max_memory_bytes.
#ifndef TTLDB_PIPELINE_STAGE_H_
#define TTLDB_PIPELINE_STAGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "document/collator.h"
#include "expr/expression.h"
#include "query/top_level_fields.h"
#include "ttldb/cursor.h"
#include "ttldb/value.h"

namespace ttldb {
namespace agg {

// A stage's input and output is a Cursor (ttldb/cursor.h), the type a
// find returns: a collection scan feeds the first stage as it is, and the
// last stage is what Aggregate returns. Documents held in memory are a
// VectorCursor (document/vector_cursor.h).

// What a pipeline asks of a collection scan: a find's filter, sort, skip and
// limit (null filter / sort: none; limit 0: none).
struct ScanRequest {
  Value filter = Value::MakeObject();
  Value sort;
  int64_t skip = 0;
  int64_t limit = 0;
  // The top-level fields the rest of the pipeline reads: the scan may
  // return documents without the others (MongoDB's $cursor stage fetches
  // only its DepsTracker's fields). all(): every field.
  TopLevelFields fields = TopLevelFields::All();
};

// The database the pipeline runs in (the engine implements it). Every read
// hides expired documents as the collection's reads do.
class DatabaseAccess {
 public:
  virtual ~DatabaseAccess() = default;
  // A find over `collection` (empty if it does not exist).
  virtual absl::StatusOr<std::unique_ptr<Cursor>> Scan(
      absl::string_view collection, const ScanRequest& request) = 0;
  // Whether the find's plan for `filter` returns documents in `sort`'s
  // order by itself (an index scan), without an in-memory sort. A $sort it
  // cannot provide stays in the pipeline, where the stage's memory bound
  // and allowDiskUse apply.
  virtual absl::StatusOr<bool> ProvidesSort(absl::string_view collection,
                                            const Value& filter,
                                            const Value& sort) = 0;
  // The find's explain (Collection::Explain) for the same request.
  virtual absl::StatusOr<Value> ExplainScan(absl::string_view collection,
                                            const ScanRequest& request) = 0;
  // Inserts a document (fails as Collection::InsertOne does).
  virtual absl::Status Insert(absl::string_view collection,
                              const Value& doc) = 0;
  // Replaces the document whose _id is doc's _id.
  virtual absl::Status ReplaceById(absl::string_view collection,
                                   const Value& doc) = 0;
  // Removes every document of `collection`, keeping it and its indexes.
  virtual absl::Status DeleteAll(absl::string_view collection) = 0;
  // Renames `from` to `to`, which must not exist (used by $out after it
  // has dropped the old target).
  virtual absl::Status Rename(absl::string_view from, absl::string_view to) = 0;
  // Creates an empty collection (no-op if it exists).
  virtual absl::Status Create(absl::string_view collection) = 0;
  // Drops a collection; false if it did not exist.
  virtual absl::StatusOr<bool> Drop(absl::string_view collection) = 0;
  // The list of index specs of `collection` (listIndexes shape).
  virtual absl::StatusOr<std::vector<Value>> ListIndexes(
      absl::string_view collection) = 0;
  virtual absl::Status CreateIndex(absl::string_view collection,
                                   const Value& keys, const Value& options) = 0;
  // A directory, inside the database's, for spill files; created on demand
  // and removed by the engine (at Close and at the next Open).
  virtual absl::StatusOr<std::string> TempDir() = 0;
  // The database `name` that $out / $merge {db, coll} write into: this
  // one when `name` is its own, another one (created if need be) kept open
  // while the pipeline runs. Fails when the database cannot be opened, or
  // when the caller gave no way to reach other databases.
  virtual absl::StatusOr<DatabaseAccess*> DatabaseNamed(
      absl::string_view name) = 0;
  // $collStats' one document for `collection`: {ns, host, localTime,
  // then latencyStats, storageStats, count, queryExecStats as `request`
  // asks ({latencyStats: {histograms}, storageStats: {scale: int >= 1},
  // count: {}, queryExecStats: {}}, already checked)}.
  virtual absl::StatusOr<Value> CollStats(absl::string_view collection,
                                          const Value& request) = 0;
  // $indexStats' documents, one per index of `collection`.
  virtual absl::StatusOr<std::vector<Value>> IndexStats(
      absl::string_view collection) = 0;
};

// 100 MiB: MongoDB's internalQueryMaxBlockingSortMemoryUsageBytes and
// internalDocumentSourceGroupMaxMemoryBytes.
inline constexpr size_t kDefaultMaxStageMemoryBytes = 100 << 20;

// 16 MiB + 16 KiB: MongoDB's BSONObjMaxInternalSize
// (src/mongo/bson/util/builder.h), the largest document a pipeline may
// return (mongod's reply to jstests/core/query/bson_size_limit.js holds one
// "just over 16MB"); beyond it 10334 BSONObjectTooLarge. Also the bound of
// any value an expression builds (expr/ops_util.h).
inline constexpr size_t kMaxOutputDocumentBytes = (16 << 20) + (16 << 10);

// 100 MiB: MongoDB's internalLookupStageIntermediateDocumentMaxSizeBytes,
// the bound of the array one $lookup joins into a document (4568).
inline constexpr size_t kMaxLookupResultBytes = 100 << 20;

// 100 MiB: MongoDB's internalQueryFacetMaxOutputDocSizeBytes, the bound of
// the document $facet builds (4031700).
inline constexpr size_t kMaxFacetOutputBytes = 100 << 20;

// Per-run state shared by the stages of one pipeline run (and the
// sub-pipelines of $lookup and $facet).
struct RunContext {
  DatabaseAccess* db = nullptr;  // not owned
  // The collection the pipeline is run on ($lookup's default "from").
  std::string collection;
  // Bindings of the pipeline's `let` (and, inside a $lookup pipeline, its
  // own `let`), and $$NOW, copied into each stage's Variables.
  Variables vars{nullptr, 0};
  // Each blocking stage's memory bound; beyond it 292 unless
  // allow_disk_use, then $sort and $group spill to db->TempDir().
  size_t max_memory_bytes = kDefaultMaxStageMemoryBytes;
  bool allow_disk_use = false;
  // Spill files made so far (names are unique per run).
  int64_t spill_files = 0;
  // The pipeline's collation (nullptr: simple): $match and $sort compare
  // strings by it; the engine's scans get the same.
  std::shared_ptr<const Collator> collator;
};

// A parsed stage. Immutable; Open may be called many times (a $lookup
// sub-pipeline runs once per input document).
class StageSpec {
 public:
  virtual ~StageSpec() = default;
  // MongoDB's name: "$match", ...
  virtual absl::string_view name() const = 0;
  // Chains this stage after `input`. `ctx` outlives the stream.
  virtual absl::StatusOr<std::unique_ptr<Cursor>> Open(
      std::unique_ptr<Cursor> input, RunContext* ctx) const = 0;
  // The stage's operand as the find it is pushed into must see it ($match:
  // its filter with the run's variables bound). Default: the operand as
  // parsed.
  virtual absl::StatusOr<Value> BoundOperand(RunContext* ctx) const {
    (void)ctx;
    return spec_.object_fields()[0].second;
  }
  // For a stage whose output documents are its own ($group, $bucket,
  // $count), so that no later stage sees its input: the top-level fields of
  // its input documents it reads (TopLevelFields::All() for all). nullptr
  // for every other stage. A scan before it need fetch only these.
  virtual const TopLevelFields* InputFields() const { return nullptr; }
  // The stage as explain shows it ({$match: {...}}): by default the spec it
  // was parsed from.
  virtual Value Explain() const { return spec_; }
  void set_spec(Value spec) { spec_ = std::move(spec); }
  const Value& spec() const { return spec_; }

 private:
  Value spec_;
};

// Errors of pipeline parsing and execution: InvalidArgument with MongoDB's
// code.
absl::Status StageError(int code, absl::string_view message);

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_PIPELINE_STAGE_H_
