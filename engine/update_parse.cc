#include "engine/update_parse.h"

#include "base/status.h"
#include "pipeline/update_pipeline.h"

namespace ttldb {
namespace {

absl::Status ParseError(absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                    message);
}

}  // namespace

absl::StatusOr<Update> ParseUpdateArg(const Value& update,
                                      const UpdateParseArgs& args) {
  static const std::vector<Value> kNone;
  const std::vector<Value>& filters =
      args.array_filters != nullptr ? *args.array_filters : kNone;
  Value supplied;
  if (args.upsert_supplied) {
    if (!args.upsert) {
      return ParseError(
          "cannot specify 'upsertSupplied: true' for a non-upsert "
          "operation");
    }
    const Value* doc =
        args.constants.is_object() ? args.constants.Get("new") : nullptr;
    if (doc == nullptr || !doc->is_object()) {
      return ParseError(
          "the parameter 'upsertSupplied' is set to 'true', but no document "
          "was supplied");
    }
    supplied = *doc;
  }
  if (!update.is_array()) {
    if (!args.constants.is_null()) {
      return MongoError(absl::StatusCode::kInvalidArgument,
                        kConstantsWithoutPipeline,
                        "Constant values may only be specified for pipeline "
                        "updates");
    }
    return Update::Parse(update, filters);
  }
  // update_driver.cpp: an empty arrayFilters is allowed.
  if (!filters.empty()) {
    return ParseError(
        "arrayFilters may not be specified for pipeline-style updates");
  }
  ASSIGN_OR_RETURN(std::shared_ptr<const UpdateTransform> t,
                   agg::ParseUpdatePipeline(update, args.constants, args.let,
                                            args.now_millis, supplied));
  return Update::FromTransform(std::move(t));
}

}  // namespace ttldb
