// Parsing and running MongoDB aggregation pipelines ([{$match: ...},
// {$group: ...}, ...]).
//
//   ParseContext pctx;
//   ASSIGN_OR_RETURN(Pipeline p, Pipeline::Parse(stages, &pctx));
//   ASSIGN_OR_RETURN(auto out, p.Open(collection, &run_context));
//
// Parse checks every stage's specification with MongoDB's error codes and
// messages (an unknown stage is 40324 "Unrecognized pipeline stage name:
// '$x'"). Open splits off the prefix a find can answer (a leading $match,
// $sort, or $match + $sort, with a $skip / $limit right after) and hands it
// to DatabaseAccess::Scan, so the planner and its indexes serve it; the
// remaining stages run over the scan's documents.
#ifndef TTLDB_PIPELINE_PIPELINE_H_
#define TTLDB_PIPELINE_PIPELINE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "expr/expression.h"
#include "pipeline/stage.h"
#include "ttldb/value.h"

namespace ttldb {
namespace agg {

class Pipeline {
 public:
  // `stages` must be an array of single-field objects (14 TypeMismatch
  // "Each element of the 'pipeline' array must be an object", 40323 "A
  // pipeline stage specification object must contain exactly one field.").
  static absl::StatusOr<Pipeline> Parse(const Value& stages, ParseContext* ctx);

  // Runs the pipeline over `collection` of ctx->db, pushing the leading
  // $match/$sort/$skip/$limit into the scan.
  absl::StatusOr<std::unique_ptr<Cursor>> Open(absl::string_view collection,
                                               RunContext* ctx) const;

  // Runs every stage over `input` (no pushdown): $facet's and $lookup's
  // sub-pipelines.
  absl::StatusOr<std::unique_ptr<Cursor>> OpenOver(
      std::unique_ptr<Cursor> input, RunContext* ctx) const;

  // {stages: [{$cursor: {queryPlanner: ..., executionStats: ... (the
  // pushed-down find's explain), pushedDown: [the stages it answers]}},
  // {$group: ...}, ...]}.
  absl::StatusOr<Value> Explain(absl::string_view collection,
                                RunContext* ctx) const;

  // True if the pipeline starts with a stage that makes its own documents
  // instead of reading the collection ($documents, $collStats,
  // $indexStats), or ends with $out / $merge.
  bool starts_with_source() const;
  bool writes() const;

  const std::vector<std::shared_ptr<const StageSpec>>& stages() const {
    return stages_;
  }

 private:
  // How many leading stages the scan answers, and the request.
  absl::StatusOr<size_t> PushDown(absl::string_view collection,
                                  ScanRequest* request, RunContext* ctx) const;

  std::vector<std::shared_ptr<const StageSpec>> stages_;
};

// Parses one stage ({$name: spec}); may expand into several ($sortByCount
// is $group + $sort, $bucket is $group + $sort).
absl::Status ParseStage(const Value& stage, ParseContext* ctx,
                        std::vector<std::shared_ptr<const StageSpec>>* out);

// Every stage name ParseStage knows, in registration order: the registry
// docs/compatibility.md is checked against.
std::vector<std::string> StageNames();

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_PIPELINE_PIPELINE_H_
