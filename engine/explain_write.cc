// Collection::ExplainUpdate / ExplainDelete: MongoDB's explain of the
// update, delete and findAndModify commands. The plan is the find's
// (Collection::Explain) under an UPDATE or DELETE stage; the counts come
// from running the update on copies of the matching documents. Nothing is
// written: no lock is taken, nothing reaches DocumentWriter.
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/db_impl.h"
#include "engine/update_parse.h"
#include "query/filter.h"
#include "query/update.h"
#include "ttldb/collection.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

absl::StatusOr<Value> Resolve(const DocArg& arg, absl::string_view what,
                              bool any) {
  auto v = any ? arg.ResolveAny() : arg.Resolve();
  if (!v.ok()) {
    return MongoError(
        v.status().code(), ErrorCode(v.status()),
        absl::StrCat("invalid ", what, ": ", v.status().message()));
  }
  return v;
}

// {queryPlanner: {namespace, winningPlan: {stage, inputStage}},
//  executionStats: {nReturned: 0, totalKeysExamined, totalDocsExamined,
//  executionStages: {stage, nReturned: 0, <counts>, inputStage}}}.
Value WriteExplain(const Value& find_explain, absl::string_view stage,
                   Value::Object counts) {
  const Value* planner = find_explain.Get("queryPlanner");
  const Value* stats = find_explain.Get("executionStats");
  Value ns = Value::String("");
  Value input = Value::MakeObject();
  if (planner != nullptr) {
    if (const Value* n = planner->Get("namespace")) ns = *n;
    if (const Value* w = planner->Get("winningPlan")) input = *w;
  }
  Value keys = Value::Int64(0), docs = Value::Int64(0);
  if (stats != nullptr) {
    if (const Value* k = stats->Get("totalKeysExamined")) keys = *k;
    if (const Value* d = stats->Get("totalDocsExamined")) docs = *d;
  }
  Value::Object exec = {Field("stage", Value::String(std::string(stage))),
                        Field("nReturned", Value::Int64(0))};
  for (Field& f : counts) exec.push_back(std::move(f));
  exec.emplace_back("inputStage", input);
  return Value::MakeObject({
      Field("queryPlanner",
            Value::MakeObject(
                {Field("namespace", ns),
                 Field("winningPlan",
                       Value::MakeObject(
                           {Field("stage", Value::String(std::string(stage))),
                            Field("inputStage", input)}))})),
      Field("executionStats",
            Value::MakeObject({Field("nReturned", Value::Int64(0)),
                               Field("totalKeysExamined", keys),
                               Field("totalDocsExamined", docs),
                               Field("executionStages",
                                     Value::MakeObject(std::move(exec)))})),
  });
}

}  // namespace

absl::StatusOr<Value> Collection::ExplainUpdate(
    const DocArg& filter, const DocArg& update, bool multi,
    const UpdateOptions& update_options, const Value& sort) {
  if (backend_ != nullptr) {
    return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                      "ttldb does not explain writes on a remote database");
  }
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  ASSIGN_OR_RETURN(Value f, Resolve(filter, "filter", false));
  ASSIGN_OR_RETURN(Filter parsed_filter, Filter::Parse(f));
  ASSIGN_OR_RETURN(Value u, Resolve(update, "update", true));
  UpdateParseArgs args;
  args.array_filters = &update_options.array_filters;
  args.constants = update_options.constants;
  args.let = update_options.let;
  args.upsert = update_options.upsert;
  args.upsert_supplied = update_options.upsert_supplied;
  const int64_t now_millis = absl::ToUnixMillis(engine_->clock()->WallNow());
  args.now_millis = now_millis;
  ASSIGN_OR_RETURN(Update parsed, ParseUpdateArg(u, args));
  if (multi && parsed.is_replacement()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "multi update is not supported for replacement-style "
                      "update");
  }
  FindOptions find;
  find.sort = sort;
  find.limit = multi ? 0 : 1;
  ASSIGN_OR_RETURN(Value plan, Explain(f, find));
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor, Find(f, find));
  int64_t matched = 0, would_modify = 0, would_upsert = 0;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
    if (!doc.has_value()) break;
    ++matched;
    MatchDetails details;
    if (parsed.needs_matched_position()) parsed_filter.Matches(*doc, &details);
    Value copy = *doc;
    bool modified = false;
    if (parsed
            .ApplyToCopy(*doc, &copy, now_millis, /*is_insert=*/false,
                         &modified, details.elem_match_key)
            .ok() &&
        modified) {
      ++would_modify;
    }
  }
  if (matched == 0 && update_options.upsert) would_upsert = 1;
  return WriteExplain(plan, "UPDATE",
                      {Field("nMatched", Value::Int64(matched)),
                       Field("nWouldModify", Value::Int64(would_modify)),
                       Field("nWouldUpsert", Value::Int64(would_upsert))});
}

absl::StatusOr<Value> Collection::ExplainDelete(const DocArg& filter,
                                                bool multi, const Value& sort) {
  if (backend_ != nullptr) {
    return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                      "ttldb does not explain writes on a remote database");
  }
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  ASSIGN_OR_RETURN(Value f, Resolve(filter, "filter", false));
  FindOptions find;
  find.sort = sort;
  find.limit = multi ? 0 : 1;
  find.projection = Value::MakeObject({Field("_id", Value::Int32(1))});
  ASSIGN_OR_RETURN(Value plan, Explain(f, find));
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor, Find(f, find));
  int64_t would_delete = 0;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
    if (!doc.has_value()) break;
    ++would_delete;
  }
  return WriteExplain(plan, "DELETE",
                      {Field("nWouldDelete", Value::Int64(would_delete))});
}

}  // namespace ttldb
