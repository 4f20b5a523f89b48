#include "commands/find_request.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"

namespace ttldb {
namespace commands {
namespace {

// 51024: find_command.idl's validator "value must be >= 0".
absl::Status NonNegative(absl::string_view field, int64_t v) {
  if (v >= 0) return absl::OkStatus();
  return MongoError(
      absl::StatusCode::kInvalidArgument, 51024,
      absl::StrCat("BSON field '", field,
                   "' value must be >= 0, actual value '", v, "'"));
}

}  // namespace

absl::Status ApplyHint(const CommandContext& ctx, FindOptions* options) {
  const Value* hint = Arg(ctx, "hint");
  if (hint == nullptr || hint->is_null()) return absl::OkStatus();
  if (hint->is_string()) {
    options->hint = hint->string_value();
  } else if (hint->is_object()) {
    if (!hint->object_fields().empty()) options->hint_keys = *hint;
  } else {
    return IdlWrongTypes(absl::StrCat(ctx.name, ".hint"), *hint,
                         "[string, object]");
  }
  return absl::OkStatus();
}

absl::StatusOr<FindRequest> ParseFindRequest(const CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"filter",
                                    "projection",
                                    "sort",
                                    "hint",
                                    "skip",
                                    "limit",
                                    "batchSize",
                                    "singleBatch",
                                    "let",
                                    "collation",
                                    "allowDiskUse",
                                    "min",
                                    "max",
                                    "returnKey",
                                    "showRecordId",
                                    "tailable",
                                    "oplogReplay",
                                    "noCursorTimeout",
                                    "awaitData",
                                    "allowPartialResults",
                                    "readOnce",
                                    "allowSpeculativeMajorityRead",
                                    "$_requestResumeToken",
                                    "$_resumeAfter",
                                    "includeQueryStatsMetrics",
                                    "term",
                                    "ntoreturn",
                                    "requestResumeToken",
                                    "resumeAfter"}));
  FindRequest req;
  ASSIGN_OR_RETURN(req.collection, CollectionArg(ctx));
  ASSIGN_OR_RETURN(Value filter, ObjectArg(ctx, "filter"));
  if (filter.is_object()) req.filter = std::move(filter);
  ASSIGN_OR_RETURN(Value projection, ObjectArg(ctx, "projection"));
  if (projection.is_object() && !projection.object_fields().empty()) {
    req.options.projection = std::move(projection);
  }
  ASSIGN_OR_RETURN(Value sort, ObjectArg(ctx, "sort"));
  if (sort.is_object() && !sort.object_fields().empty()) {
    req.options.sort = std::move(sort);
  }
  RETURN_IF_ERROR(ApplyHint(ctx, &req.options));
  ASSIGN_OR_RETURN(std::optional<int64_t> skip, IntArg(ctx, "skip"));
  ASSIGN_OR_RETURN(std::optional<int64_t> limit, IntArg(ctx, "limit"));
  ASSIGN_OR_RETURN(std::optional<int64_t> batch, IntArg(ctx, "batchSize"));
  if (skip.has_value()) {
    RETURN_IF_ERROR(NonNegative("skip", *skip));
    req.options.skip = *skip;
  }
  if (limit.has_value()) {
    RETURN_IF_ERROR(NonNegative("limit", *limit));
    req.options.limit = *limit;
  }
  if (batch.has_value()) {
    RETURN_IF_ERROR(NonNegative("batchSize", *batch));
    req.batch_size = *batch;
  }
  ASSIGN_OR_RETURN(req.single_batch, SafeBoolArg(ctx, "singleBatch", false));
  // find_command.idl: an optionalBool, so a strict bool; absent: the
  // server's allowDiskUseByDefault.
  ASSIGN_OR_RETURN(req.options.allow_disk_use,
                   BoolArg(ctx, "allowDiskUse",
                           ctx.server->allow_disk_use_by_default.load()));
  // query_request_helper.cpp validateFindCommandRequest: a tailable
  // cursor sorts in natural order only and is not a single batch;
  // awaitData needs tailable. Whether the collection is capped is the
  // find's to check (find_commands.cc).
  ASSIGN_OR_RETURN(req.tailable, SafeBoolArg(ctx, "tailable", false));
  ASSIGN_OR_RETURN(req.await_data, SafeBoolArg(ctx, "awaitData", false));
  if (req.tailable) {
    const Value& sort = req.options.sort;
    if (sort.is_object() && !(sort.object_fields().size() == 1 &&
                              sort.object_fields()[0].first == "$natural" &&
                              sort.object_fields()[0].second.is_number() &&
                              sort.object_fields()[0].second.AsDouble() == 1)) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "cannot use tailable option with a sort other than "
                        "{$natural: 1}");
    }
    if (req.single_batch) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "cannot use tailable option with the 'singleBatch' "
                        "option");
    }
  }
  if (req.await_data && !req.tailable) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "Cannot set 'awaitData' without also setting "
                      "'tailable'");
  }
  // find_command.idl: returnKey and showRecordId are bools, min and max
  // objects; their rules are the engine's (FindOptions, ttldb/results.h).
  ASSIGN_OR_RETURN(req.options.return_key,
                   SafeBoolArg(ctx, "returnKey", false));
  ASSIGN_OR_RETURN(req.options.show_record_id,
                   SafeBoolArg(ctx, "showRecordId", false));
  ASSIGN_OR_RETURN(req.options.min, ObjectArg(ctx, "min"));
  ASSIGN_OR_RETURN(req.options.max, ObjectArg(ctx, "max"));
  ASSIGN_OR_RETURN(Value let, ObjectArg(ctx, "let"));
  (void)let;  // typed as find.idl types it; no stage reads it yet
  ASSIGN_OR_RETURN(req.options.collation, CollationArg(ctx));
  return req;
}

}  // namespace commands
}  // namespace ttldb
