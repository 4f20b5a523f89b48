// The parsers of each pipeline stage (one file per stage family). Each
// appends the StageSpec(s) it parses to `out`; errors carry MongoDB's code.
#ifndef TTLDB_PIPELINE_STAGES_H_
#define TTLDB_PIPELINE_STAGES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/status.h"
#include "document/idl_errors.h"
#include "expr/expression.h"
#include "pipeline/stage.h"
#include "ttldb/value.h"

namespace ttldb {
namespace agg {

using StageList = std::vector<std::shared_ptr<StageSpec>>;

// The context of the errors a pipeline's blocking stages give past their
// memory bound (query/sorter.h SortMemoryLimitError), as MongoDB 8.0 words
// them.
inline constexpr absl::string_view kAggregationErrorContext =
    "PlanExecutor error during aggregation";

// The IDL parser's errors of a stage's spec: document/idl_errors.h.

// stage_basic.cc: FieldPath's checks of a dotted field name that a stage
// writes or reads (src/mongo/db/exec/document_value/field_path.cpp): 40352
// for "", 16410 for a leading '$', 15998 for an empty component ("a..b").
absl::Status CheckFieldPath(absl::string_view path);

// stage_sort.cc: where a blocking stage ($sort, $group) spills under
// allowDiskUse: the database's temporary area (DatabaseAccess::TempDir),
// each call counted in ctx->spill_files; nullptr without allowDiskUse.
std::function<absl::StatusOr<std::string>()> SpillDirectory(RunContext* ctx);

// stage_basic.cc
absl::Status ParseMatch(const Value& spec, ParseContext* ctx, StageList* out);
absl::Status ParseLimit(const Value& spec, ParseContext* ctx, StageList* out);
absl::Status ParseSkip(const Value& spec, ParseContext* ctx, StageList* out);
absl::Status ParseCount(const Value& spec, ParseContext* ctx, StageList* out);
absl::Status ParseSample(const Value& spec, ParseContext* ctx, StageList* out);
absl::Status ParseDocuments(const Value& spec, ParseContext* ctx,
                            StageList* out);
// transform.cc
absl::Status ParseProject(const Value& spec, ParseContext* ctx, StageList* out);
absl::Status ParseAddFields(const Value& spec, ParseContext* ctx,
                            StageList* out);  // also $set
absl::Status ParseUnset(const Value& spec, ParseContext* ctx, StageList* out);
absl::Status ParseReplaceRoot(const Value& spec, ParseContext* ctx,
                              StageList* out);
absl::Status ParseReplaceWith(const Value& spec, ParseContext* ctx,
                              StageList* out);
// stage_group.cc
absl::Status ParseGroup(const Value& spec, ParseContext* ctx, StageList* out);
absl::Status ParseSortByCount(const Value& spec, ParseContext* ctx,
                              StageList* out);
absl::Status ParseBucket(const Value& spec, ParseContext* ctx, StageList* out);
// stage_sort.cc
absl::Status ParseSort(const Value& spec, ParseContext* ctx, StageList* out);
// A $sort followed by $limit n: a top-n sort.
absl::StatusOr<std::unique_ptr<Cursor>> OpenSortWithLimit(
    const StageSpec& sort, int64_t limit, std::unique_ptr<Cursor> input,
    RunContext* ctx);
// stage_unwind.cc
absl::Status ParseUnwind(const Value& spec, ParseContext* ctx, StageList* out);
// stage_lookup.cc
absl::Status ParseLookup(const Value& spec, ParseContext* ctx, StageList* out);
// Sets the dotted `field` of `doc` to `v`, making (or replacing with) objects
// on the way: where $lookup and $graphLookup put their `as` array.
void SetDottedField(Value* doc, absl::string_view field, Value v);
// stage_union_with.cc
absl::Status ParseUnionWith(const Value& spec, ParseContext* ctx,
                            StageList* out);
// stage_graph_lookup.cc
absl::Status ParseGraphLookup(const Value& spec, ParseContext* ctx,
                              StageList* out);
// stage_facet.cc
absl::Status ParseFacet(const Value& spec, ParseContext* ctx, StageList* out);
// stage_stats.cc
absl::Status ParseCollStats(const Value& spec, ParseContext* ctx,
                            StageList* out);
absl::Status ParseIndexStats(const Value& spec, ParseContext* ctx,
                             StageList* out);
// stage_set_window_fields.cc
absl::Status ParseSetWindowFields(const Value& spec, ParseContext* ctx,
                                  StageList* out);
// stage_densify.cc
absl::Status ParseDensify(const Value& spec, ParseContext* ctx, StageList* out);
// stage_fill.cc
absl::Status ParseFill(const Value& spec, ParseContext* ctx, StageList* out);
// stage_out.cc
absl::Status ParseOut(const Value& spec, ParseContext* ctx, StageList* out);
absl::Status ParseMerge(const Value& spec, ParseContext* ctx, StageList* out);

// A stage built from a lambda-like transform of each document (nullopt:
// drop it).
class MapStream : public Cursor {
 public:
  MapStream(std::unique_ptr<Cursor> input) : input_(std::move(input)) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> doc, input_->Next());
      if (!doc.has_value()) return doc;
      ASSIGN_OR_RETURN(std::optional<Value> out, Map(std::move(*doc)));
      if (out.has_value()) return out;
    }
  }

 protected:
  virtual absl::StatusOr<std::optional<Value>> Map(Value doc) = 0;
  std::unique_ptr<Cursor> input_;
};

// A Variables for evaluating a stage's expressions: the run's bindings with
// ROOT to be set per document.
inline Variables StageVariables(const RunContext& ctx) { return ctx.vars; }

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_PIPELINE_STAGES_H_
