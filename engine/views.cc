// Views: MongoDB's create with viewOn and pipeline (src/mongo/db/views/,
// src/mongo/db/catalog/create_collection.cpp). A view is one catalog entry,
// 'V' + name -> proto ViewInfo (storage/keys.h), read at open into the
// ViewCatalog (catalog/view_catalog.h, which holds the graph's rules); reads of
// a view run its pipeline over what it is a view on (engine/aggregate.cc,
// FindAsViewPipeline below), writes are refused with 166.
//
// What a new or changed view must pass, as MongoDB's
// view_catalog_helpers::validatePipeline and ViewGraph::insertAndValidate
// check it:
// - its pipeline parses (the parse errors of pipeline/pipeline.h);
// - no stage writes ($out, $merge: 167 "The aggregation stage $out in
//   location 0 of the pipeline cannot be used in the view definition of
//   <ns> because it writes to disk"), none is $changeStream (167) and none
//   reads no collection ($documents: 73 "'$documents' cannot be used in a
//   view definition");
// - the graph of views, each pointing at its viewOn and at the foreign
//   collections of its $lookup, $graphLookup and $unionWith stages, stays
//   acyclic (5 GraphContainsCycle "View cycle detected: a => b => a") and
//   no path through the view is longer than 20 views (165
//   ViewDepthLimitExceeded "View depth limit exceeded; maximum depth is
//   20").
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/catalog_entries.h"
#include "catalog/collection_catalog.h"
#include "catalog/view_catalog.h"
#include "engine/db_impl.h"
#include "pipeline/pipeline.h"
#include "storage/leveldb_status.h"
#include "ttldb/json.h"
#include "ttldb/logger.h"

namespace ttldb {
namespace {

absl::Status NotSupportedOnView(absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument,
                    kOptionNotSupportedOnView, message);
}

// view_catalog_helpers::validatePipeline: parses, then refuses the stages
// a view may not hold.
absl::Status ValidateViewPipeline(absl::string_view name,
                                  const Value& pipeline) {
  if (!pipeline.is_array()) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kTypeMismatch,
        absl::StrCat("BSON field 'create.pipeline' is the wrong "
                     "type '",
                     TypeName(pipeline.type()), "', expected type 'array'"));
  }
  for (const Value& stage : pipeline.array_items()) {
    if (!stage.is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        "Each element of the 'pipeline' array must be an "
                        "object");
    }
  }
  agg::ParseContext pctx;
  RETURN_IF_ERROR(agg::Pipeline::Parse(pipeline, &pctx).status());
  const Value::Array& stages = pipeline.array_items();
  for (size_t i = 0; i < stages.size(); ++i) {
    if (stages[i].object_fields().empty()) continue;
    const std::string& stage = stages[i].object_fields()[0].first;
    if (stage == "$out" || stage == "$merge") {
      return NotSupportedOnView(absl::StrCat(
          "The aggregation stage ", stage, " in location ", i,
          " of the pipeline cannot be used in the view definition of ", name,
          " because it writes to disk"));
    }
    if (stage == "$changeStream") {
      return NotSupportedOnView(
          "$changeStream cannot be used in a view definition");
    }
    if (stage == "$documents") {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kInvalidNamespace,
          absl::StrCat("'", stage, "' cannot be used in a view definition"));
    }
  }
  return absl::OkStatus();
}

// viewOn: a collection name of this database (system.* included: a view
// on system.profile is allowed).
absl::Status ValidateViewOn(absl::string_view view_on) {
  if (absl::StartsWith(view_on, "system.") && view_on.size() > 7 &&
      view_on.find('$') == absl::string_view::npos &&
      view_on.find('\0') == absl::string_view::npos) {
    return absl::OkStatus();
  }
  absl::Status s = ValidateCollectionName(view_on);
  if (s.ok()) return s;
  return MongoError(absl::StatusCode::kInvalidArgument, kInvalidNamespace,
                    absl::StrCat("invalid namespace name for a view: ", view_on,
                                 " (", s.message(), ")"));
}

}  // namespace

absl::Status DbImpl::LoadViewsLocked() {
  ASSIGN_OR_RETURN(LoadedViews loaded, LoadViews(db_.get()));
  for (const std::string& name : loaded.damaged) {
    Log(LogLevel::kWarning,
        absl::StrCat("view '", name,
                     "': its catalog entry is corrupt; the view is left "
                     "out until it is dropped and created again"));
  }
  views_.Set(std::move(loaded.views));
  return absl::OkStatus();
}

std::optional<ViewDefinition> DbImpl::GetView(absl::string_view name) const {
  return views_.Get(name);
}

std::vector<ViewDefinition> DbImpl::ListViews() const { return views_.List(); }

absl::StatusOr<std::optional<ViewCatalog::Resolved>> DbImpl::ResolveView(
    absl::string_view name) const {
  return views_.Resolve(name);
}

absl::Status DbImpl::RefuseView(absl::string_view name) const {
  if (!views_.Contains(name)) return absl::OkStatus();
  return MongoError(
      absl::StatusCode::kInvalidArgument, kCommandNotSupportedOnView,
      absl::StrCat("Namespace ", name, " is a view, not a collection"));
}

absl::Status DbImpl::PutViewLocked(const ViewDefinition& view, bool replace) {
  RETURN_IF_ERROR(ValidateViewOn(view.view_on));
  RETURN_IF_ERROR(ValidateViewPipeline(view.name, view.pipeline));
  leveldb::WriteBatch batch;
  RETURN_IF_ERROR(PutViewEntry(view, &batch));
  RETURN_IF_ERROR(views_.CheckPut(view, replace));
  leveldb::WriteOptions wo;
  wo.sync = true;
  leveldb::Status s = Commit(wo, &batch);
  if (!s.ok()) {
    return storage::FromLevelDB(
        s, absl::StrCat("writing the view '", view.name, "'"));
  }
  views_.Put(view);
  return absl::OkStatus();
}

absl::Status DbImpl::CreateView(absl::string_view name,
                                absl::string_view view_on,
                                const Value& pipeline) {
  RETURN_IF_ERROR(CheckWritable());
  RETURN_IF_ERROR(ValidateCollectionName(name));
  RETURN_IF_ERROR(CheckCollection(name));
  WritersLock l(this);
  if (GetState(name) != nullptr) return NamespaceExistsError(name);
  return PutViewLocked(
      ViewDefinition{std::string(name), std::string(view_on), pipeline},
      /*replace=*/false);
}

absl::Status DbImpl::ModifyView(absl::string_view name,
                                absl::string_view view_on,
                                const Value& pipeline) {
  RETURN_IF_ERROR(CheckWritable());
  WritersLock l(this);
  if (!GetView(name).has_value()) {
    return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound,
                      absl::StrCat("view ", name, " does not exist"));
  }
  return PutViewLocked(
      ViewDefinition{std::string(name), std::string(view_on), pipeline},
      /*replace=*/true);
}

absl::StatusOr<bool> DbImpl::DropViewLocked(absl::string_view name) {
  if (!GetView(name).has_value()) return false;
  leveldb::WriteBatch batch;
  DeleteViewEntry(name, &batch);
  leveldb::WriteOptions wo;
  wo.sync = true;
  leveldb::Status s = Commit(wo, &batch);
  if (!s.ok()) return storage::FromLevelDB(s, "write");
  views_.Erase(name);
  return true;
}

}  // namespace ttldb

namespace ttldb {

Value FindAsViewPipeline(const Value& view_pipeline, const Value& filter,
                         const FindOptions& options) {
  Value::Array stages =
      view_pipeline.is_array() ? view_pipeline.array_items() : Value::Array();
  auto stage = [&](absl::string_view name, Value spec) {
    stages.push_back(Value::MakeObject({Field(std::string(name), spec)}));
  };
  if (filter.is_object() && !filter.object_fields().empty()) {
    stage("$match", filter);
  }
  if (options.sort.is_object() && !options.sort.object_fields().empty()) {
    stage("$sort", options.sort);
  }
  if (options.skip > 0) stage("$skip", Value::Int64(options.skip));
  if (options.limit > 0) stage("$limit", Value::Int64(options.limit));
  if (options.projection.is_object() &&
      !options.projection.object_fields().empty()) {
    stage("$project", options.projection);
  }
  return Value::MakeArray(std::move(stages));
}

}  // namespace ttldb
