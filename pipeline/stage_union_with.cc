// $unionWith (src/mongo/db/pipeline/document_source_union_with.cpp, its
// IDL document_source_union_with.idl): the pipeline's own documents, then
// those of another collection of the same database, optionally through a
// sub-pipeline of their own. {$unionWith: "coll"} or {$unionWith: {coll,
// pipeline}}; without `coll` the sub-pipeline must start with $documents.
// The other collection is read through DatabaseAccess::Scan (its indexes,
// no expired documents), and the sub-pipeline shares the run's variables
// and bounds, as $lookup's does.
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/vector_cursor.h"
#include "pipeline/pipeline.h"
#include "pipeline/stages.h"

namespace ttldb {
namespace agg {
namespace {

struct UnionDef {
  std::string coll;  // "" with a collectionless sub-pipeline
  std::optional<Pipeline> pipeline;
};

class UnionStream : public Cursor {
 public:
  UnionStream(std::unique_ptr<Cursor> input,
              std::shared_ptr<const UnionDef> def, RunContext* ctx)
      : input_(std::move(input)), def_(std::move(def)), ctx_(ctx) {}

  absl::StatusOr<std::optional<Value>> Next() override {
    if (input_ != nullptr) {
      ASSIGN_OR_RETURN(std::optional<Value> doc, input_->Next());
      if (doc.has_value()) return doc;
      input_.reset();  // the pipeline's own documents are done
    }
    if (other_ == nullptr) {
      sub_ = *ctx_;
      if (def_->pipeline.has_value()) {
        ASSIGN_OR_RETURN(other_, def_->pipeline->Open(def_->coll, &sub_));
      } else {
        ASSIGN_OR_RETURN(other_, ctx_->db->Scan(def_->coll, ScanRequest()));
      }
    }
    ASSIGN_OR_RETURN(std::optional<Value> doc, other_->Next());
    if (!doc.has_value()) ctx_->spill_files = sub_.spill_files;
    return doc;
  }

 private:
  std::unique_ptr<Cursor> input_;  // null once exhausted
  std::shared_ptr<const UnionDef> def_;
  RunContext* ctx_;
  RunContext sub_;
  std::unique_ptr<Cursor> other_;
};

class UnionSpec : public StageSpec {
 public:
  explicit UnionSpec(std::shared_ptr<const UnionDef> d) : def_(std::move(d)) {}
  absl::string_view name() const override { return "$unionWith"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    if (input == nullptr) {  // first stage of a collectionless pipeline
      input = std::make_unique<VectorCursor>(std::vector<Value>());
    }
    return std::unique_ptr<Cursor>(
        std::make_unique<UnionStream>(std::move(input), def_, ctx));
  }

 private:
  std::shared_ptr<const UnionDef> def_;
};

}  // namespace

absl::Status ParseUnionWith(const Value& spec, ParseContext* ctx,
                            StageList* out) {
  auto def = std::make_shared<UnionDef>();
  if (spec.is_string()) {
    def->coll = spec.string_value();
    out->push_back(std::make_shared<UnionSpec>(std::move(def)));
    return absl::OkStatus();
  }
  if (!spec.is_object()) {
    return StageError(kFailedToParse,
                      absl::StrCat("the $unionWith stage specification must "
                                   "be an object or string, but found ",
                                   TypeName(spec.type())));
  }
  const Value* coll = nullptr;
  const Value* pipeline = nullptr;
  for (const Field& f : spec.object_fields()) {
    if (f.first == "coll") {
      if (!f.second.is_string())
        return IdlWrongType("$unionWith.coll", f.second, "string");
      coll = &f.second;
    } else if (f.first == "pipeline") {
      if (!f.second.is_array()) {
        return IdlWrongType("$unionWith.pipeline", f.second, "array");
      }
      const auto& items = f.second.array_items();
      for (size_t i = 0; i < items.size(); ++i) {
        if (!items[i].is_object()) {
          return IdlWrongType(absl::StrCat("$unionWith.pipeline.", i), items[i],
                              "object");
        }
      }
      pipeline = &f.second;
    } else {
      return IdlUnknownField(absl::StrCat("$unionWith.", f.first));
    }
  }
  if (coll != nullptr) {
    def->coll = coll->string_value();
  } else {
    // validateUnionWithCollectionlessPipeline.
    const auto* items =
        pipeline != nullptr ? &pipeline->array_items() : nullptr;
    if (items == nullptr || items->empty() ||
        (*items)[0].Get("$documents") == nullptr) {
      return StageError(kFailedToParse,
                        "$unionWith stage without explicit collection must "
                        "have a pipeline with $documents as first stage");
    }
  }
  if (pipeline != nullptr) {
    ASSIGN_OR_RETURN(Pipeline p, Pipeline::Parse(*pipeline, ctx));
    for (const auto& s : p.stages()) {
      // UnionRequirement::kNotAllowed.
      if (s->name() == "$out" || s->name() == "$merge") {
        return StageError(31441, absl::StrCat(s->name(),
                                              " is not allowed within a "
                                              "$unionWith's sub-pipeline"));
      }
    }
    def->pipeline = std::move(p);
  }
  out->push_back(std::make_shared<UnionSpec>(std::move(def)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
