#include "pipeline/update_pipeline.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/vector_cursor.h"
#include "expr/expression.h"
#include "pipeline/pipeline.h"
#include "pipeline/stage.h"

namespace ttldb {
namespace agg {
namespace {

// The stages whose constraints say isAllowedWithinUpdatePipeline
// (document_source_add_fields.h, document_source_project.h,
// document_source_replace_root.h: the single-document transformations).
bool AllowedInUpdate(const std::string& name) {
  static constexpr const char* kAllowed[] = {"$addFields",   "$set",
                                             "$project",     "$unset",
                                             "$replaceRoot", "$replaceWith"};
  for (const char* a : kAllowed) {
    if (name == a) return true;
  }
  return false;
}

class PipelineTransform : public UpdateTransform {
 public:
  absl::StatusOr<Value> Transform(const Value& doc, int64_t now_millis,
                                  bool is_insert) const override {
    if (is_insert && !supplied_insert_.is_null()) return supplied_insert_;
    RunContext ctx;
    ctx.vars = Variables(nullptr, now_millis);
    for (const auto& [id, v] : bindings_) ctx.vars.Set(id, v);
    ASSIGN_OR_RETURN(
        std::unique_ptr<Cursor> out,
        pipeline_.OpenOver(
            std::make_unique<VectorCursor>(std::vector<Value>{doc}), &ctx));
    ASSIGN_OR_RETURN(std::optional<Value> result, out->Next());
    if (!result.has_value()) {
      // Cannot happen with the allowed stages (each maps one document to
      // one); refused rather than read as a deletion.
      return StageError(kBadValue, "an update pipeline produced no document");
    }
    return std::move(*result);
  }

  Pipeline pipeline_;
  std::vector<std::pair<int, Value>> bindings_;
  Value supplied_insert_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<const UpdateTransform>> ParseUpdatePipeline(
    const Value& stages, const Value& constants, const Value& let,
    int64_t now_millis, const Value& supplied_insert) {
  auto t = std::make_shared<PipelineTransform>();
  ParseContext pctx;
  if (constants.is_object()) {
    for (const Field& f : constants.object_fields()) {
      // variable_validation.cpp validateNameForUserRead.
      RETURN_IF_ERROR(ValidateVariableName(f.first));
      t->bindings_.emplace_back(pctx.Push(f.first), f.second);
    }
  }
  if (let.is_object()) {
    Value empty = Value::MakeObject();
    Variables vars(&empty, now_millis);
    for (const auto& [id, v] : t->bindings_) vars.Set(id, v);
    for (const Field& f : let.object_fields()) {
      RETURN_IF_ERROR(ValidateVariableName(f.first));
      ASSIGN_OR_RETURN(std::unique_ptr<Expression> e,
                       ParseExpression(f.second, &pctx));
      ASSIGN_OR_RETURN(std::optional<Value> v, e->Evaluate(empty, &vars));
      const int id = pctx.Push(f.first);
      vars.Set(id, v.value_or(Value::Null()));
      t->bindings_.emplace_back(id, v.value_or(Value::Null()));
    }
  }
  ASSIGN_OR_RETURN(t->pipeline_, Pipeline::Parse(stages, &pctx));
  // pipeline_executor.cpp: after the whole pipeline parsed, each stage in
  // order.
  for (const Value& stage : stages.array_items()) {
    const std::string& name = stage.object_fields()[0].first;
    if (!AllowedInUpdate(name)) {
      return StageError(
          kInvalidOptions,
          absl::StrCat(name, " is not allowed to be used within an update"));
    }
  }
  t->supplied_insert_ = supplied_insert;
  return std::shared_ptr<const UpdateTransform>(std::move(t));
}

}  // namespace agg
}  // namespace ttldb
