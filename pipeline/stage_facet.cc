// $facet (document_source_facet.cpp): several sub-pipelines over the same
// input, one output document {name: [results], ...}. The input is buffered
// in memory, bounded by RunContext::max_memory_bytes (292 beyond it; the
// buffer does not spill).
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/vector_cursor.h"
#include "pipeline/pipeline.h"
#include "pipeline/stages.h"
#include "query/sorter.h"

namespace ttldb {
namespace agg {
namespace {

struct FacetDef {
  std::vector<std::pair<std::string, Pipeline>> facets;
};

class FacetStream : public Cursor {
 public:
  FacetStream(std::unique_ptr<Cursor> in, std::shared_ptr<const FacetDef> def,
              RunContext* ctx)
      : input_(std::move(in)), def_(std::move(def)), ctx_(ctx) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    if (done_) return std::optional<Value>();
    done_ = true;
    std::vector<Value> docs;
    size_t bytes = 0;
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> d, input_->Next());
      if (!d.has_value()) break;
      bytes += BsonValueSize(*d);
      if (bytes > ctx_->max_memory_bytes) {
        return SortMemoryLimitError(kAggregationErrorContext,
                                    ctx_->max_memory_bytes);
      }
      docs.push_back(std::move(*d));
    }
    Value::Object out;
    // The document built is bounded as MongoDB bounds it
    // (document_source_facet.cpp, 4031700), counted as its results arrive.
    size_t out_bytes = 0;
    for (size_t i = 0; i < def_->facets.size(); ++i) {
      const auto& [name, pipeline] = def_->facets[i];
      // Each facet reads its own copy of the input; the last one takes it.
      std::vector<Value> input =
          i + 1 == def_->facets.size() ? std::move(docs) : docs;
      ASSIGN_OR_RETURN(
          std::unique_ptr<Cursor> s,
          pipeline.OpenOver(std::make_unique<VectorCursor>(std::move(input)),
                            ctx_));
      Value::Array results;
      while (true) {
        ASSIGN_OR_RETURN(std::optional<Value> d, s->Next());
        if (!d.has_value()) break;
        out_bytes += BsonValueSize(*d);
        if (out_bytes > kMaxFacetOutputBytes) {
          return StageError(
              4031700,
              absl::StrCat("document constructed by $facet is ", out_bytes,
                           " bytes, which exceeds the limit of ",
                           kMaxFacetOutputBytes, " bytes"));
        }
        results.push_back(std::move(*d));
      }
      out.emplace_back(name, Value::MakeArray(std::move(results)));
    }
    return std::optional<Value>(Value::MakeObject(std::move(out)));
  }

 private:
  std::unique_ptr<Cursor> input_;
  std::shared_ptr<const FacetDef> def_;
  RunContext* ctx_;
  bool done_ = false;
};

class FacetSpec : public StageSpec {
 public:
  explicit FacetSpec(std::shared_ptr<const FacetDef> d) : def_(std::move(d)) {}
  absl::string_view name() const override { return "$facet"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<FacetStream>(std::move(input), def_, ctx));
  }

 private:
  std::shared_ptr<const FacetDef> def_;
};

}  // namespace

absl::Status ParseFacet(const Value& spec, ParseContext* ctx, StageList* out) {
  if (!spec.is_object() || spec.object_fields().empty()) {
    return StageError(40169,
                      "the $facet specification must be a non-empty object");
  }
  auto def = std::make_shared<FacetDef>();
  for (const Field& f : spec.object_fields()) {
    if (f.first.empty() || f.first[0] == '$' ||
        f.first.find('.') != std::string::npos) {
      return StageError(40352,
                        absl::StrCat("FieldPath field names may not start "
                                     "with '$' or contain '.': ",
                                     f.first));
    }
    if (!f.second.is_array()) {
      return StageError(
          40170, absl::StrCat("arguments to $facet must be arrays, ", f.first,
                              " is type ", TypeName(f.second.type())));
    }
    ASSIGN_OR_RETURN(Pipeline p, Pipeline::Parse(f.second, ctx));
    for (const auto& s : p.stages()) {
      if (s->name() == "$out" || s->name() == "$merge" ||
          s->name() == "$facet" || s->name() == "$documents" ||
          s->name() == "$collStats" || s->name() == "$indexStats") {
        return StageError(40600, absl::StrCat(s->name(),
                                              " is not allowed to be used "
                                              "within a $facet stage"));
      }
    }
    def->facets.emplace_back(f.first, std::move(p));
  }
  out->push_back(std::make_shared<FacetSpec>(std::move(def)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
