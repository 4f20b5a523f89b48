// Views: MongoDB's create with viewOn and pipeline (src/mongo/db/views/,
// src/mongo/db/catalog/create_collection.cpp). A view is one catalog entry,
// 'V' + name -> proto ViewInfo (storage/keys.h), read at open into views_;
// reads of a view run its pipeline over what it is a view on
// (engine/view_reads.cc), writes are refused with 166.
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
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/catalog_entries.h"
#include "engine/db_impl.h"
#include "engine/view_pipeline.h"
#include "pipeline/pipeline.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttldb/json.h"
#include "ttldb/logger.h"

namespace ttldb {
namespace {

// ViewGraph::kMaxViewDepth (src/mongo/db/views/view_graph.cpp).
constexpr int kMaxViewDepth = 20;
// ViewGraph::kMaxViewPipelineSizeBytes: 16 MB of stored pipeline.
constexpr size_t kMaxViewPipelineBytes = 16 * 1000 * 1000;

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

// ViewGraph::insertAndValidate over `views` with `candidate` in it: no
// cycle through the candidate, and no chain through it longer than
// kMaxViewDepth views.
absl::Status CheckViewGraph(
    const std::map<std::string, ViewDefinition, std::less<>>& views,
    const ViewDefinition& candidate) {
  auto refs = [&](const std::string& node) -> std::set<std::string> {
    const ViewDefinition* v = nullptr;
    if (node == candidate.name) {
      v = &candidate;
    } else {
      auto it = views.find(node);
      if (it != views.end()) v = &it->second;
    }
    std::set<std::string> out;
    if (v == nullptr) return out;
    out.insert(v->view_on);
    InvolvedCollections(v->pipeline, &out);
    return out;
  };
  auto is_view = [&](const std::string& node) {
    return node == candidate.name || views.count(node) > 0;
  };
  // Children: the longest chain below the candidate, and any path back.
  std::map<std::string, int> height;  // of the nodes checked
  std::vector<std::string> path;
  std::function<absl::Status(const std::string&, int)> children =
      [&](const std::string& node, int depth) -> absl::Status {
    path.push_back(node);
    if (depth > 0 && node == candidate.name) {
      std::string msg = "View cycle detected: ";
      for (size_t i = 0; i < path.size(); ++i) {
        absl::StrAppend(&msg, i == 0 ? "" : " => ", path[i]);
      }
      return MongoError(absl::StatusCode::kInvalidArgument, kGraphContainsCycle,
                        msg);
    }
    if (depth > kMaxViewDepth) {
      return MongoError(absl::StatusCode::kInvalidArgument,
                        kViewDepthLimitExceeded,
                        absl::StrCat("View depth limit exceeded; maximum "
                                     "depth is ",
                                     kMaxViewDepth));
    }
    int max_child = 0;
    if (is_view(node)) {
      for (const std::string& child : refs(node)) {
        auto h = height.find(child);
        if (h == height.end() || child == candidate.name) {
          RETURN_IF_ERROR(children(child, depth + 1));
          h = height.find(child);
        }
        max_child = std::max(max_child, h->second);
      }
    }
    path.pop_back();
    height[node] = max_child + 1;
    return absl::OkStatus();
  };
  RETURN_IF_ERROR(children(candidate.name, 0));
  const int children_height = height[candidate.name] - 1;
  // Parents: the longest chain of views above the candidate.
  std::map<std::string, int> parent_height;
  std::function<absl::StatusOr<int>(const std::string&, int)> parents =
      [&](const std::string& node, int depth) -> absl::StatusOr<int> {
    if (depth > kMaxViewDepth) {
      return MongoError(absl::StatusCode::kInvalidArgument,
                        kViewDepthLimitExceeded,
                        absl::StrCat("View depth limit exceeded; maximum "
                                     "depth is ",
                                     kMaxViewDepth));
    }
    auto known = parent_height.find(node);
    if (known != parent_height.end()) return known->second;
    int max_parent = 0;
    for (const auto& [name, view] : views) {
      if (name == candidate.name || name == node) continue;
      if (refs(name).count(node) == 0) continue;
      ASSIGN_OR_RETURN(int h, parents(name, depth + 1));
      max_parent = std::max(max_parent, h);
    }
    parent_height[node] = max_parent + 1;
    return max_parent + 1;
  };
  ASSIGN_OR_RETURN(int parents_height, parents(candidate.name, 0));
  if (parents_height + children_height - 1 > kMaxViewDepth) {
    return MongoError(absl::StatusCode::kInvalidArgument,
                      kViewDepthLimitExceeded,
                      absl::StrCat("View depth limit exceeded; maximum depth "
                                   "is ",
                                   kMaxViewDepth));
  }
  return absl::OkStatus();
}

absl::Status NamespaceExistsError(absl::string_view name) {
  return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                    absl::StrCat("Namespace ", name, " already exists"));
}

// The collections a pipeline reads besides its input (MongoDB's
// LiteParsedPipeline::getInvolvedNamespaces): the `from` of $lookup and
// $graphLookup, $unionWith's collection, and what their sub-pipelines and
// $facet's read. Bounded by the pipeline's own size.
void InvolvedCollectionsAt(const Value& stages, std::set<std::string>* out,
                           int depth) {
  if (!stages.is_array() || depth > 32) return;
  for (const Value& stage : stages.array_items()) {
    if (!stage.is_object() || stage.object_fields().size() != 1) continue;
    const auto& [name, spec] = stage.object_fields()[0];
    if (name == "$lookup" || name == "$graphLookup") {
      if (!spec.is_object()) continue;
      const Value* from = spec.Get("from");
      if (from != nullptr && from->is_string()) {
        out->insert(from->string_value());
      } else if (from != nullptr && from->is_object()) {
        const Value* coll = from->Get("coll");
        if (coll != nullptr && coll->is_string()) {
          out->insert(coll->string_value());
        }
      }
      const Value* sub = spec.Get("pipeline");
      if (sub != nullptr) InvolvedCollectionsAt(*sub, out, depth + 1);
    } else if (name == "$unionWith") {
      if (spec.is_string()) {
        out->insert(spec.string_value());
      } else if (spec.is_object()) {
        const Value* coll = spec.Get("coll");
        if (coll != nullptr && coll->is_string()) {
          out->insert(coll->string_value());
        }
        const Value* sub = spec.Get("pipeline");
        if (sub != nullptr) InvolvedCollectionsAt(*sub, out, depth + 1);
      }
    } else if (name == "$facet" && spec.is_object()) {
      for (const Field& f : spec.object_fields()) {
        InvolvedCollectionsAt(f.second, out, depth + 1);
      }
    }
  }
}

}  // namespace

void InvolvedCollections(const Value& stages, std::set<std::string>* out) {
  InvolvedCollectionsAt(stages, out, 0);
}

absl::Status DbImpl::LoadViewsLocked() {
  ASSIGN_OR_RETURN(LoadedViews loaded, LoadViews(db_.get()));
  for (const std::string& name : loaded.damaged) {
    Log(LogLevel::kWarning,
        absl::StrCat("view '", name,
                     "': its catalog entry is corrupt; the view is left "
                     "out until it is dropped and created again"));
  }
  std::map<std::string, ViewDefinition, std::less<>> views;
  for (StoredView& v : loaded.views) {
    std::string name = v.name;
    views.emplace(std::move(name),
                  ViewDefinition{std::move(v.name), std::move(v.view_on),
                                 std::move(v.pipeline)});
  }
  MutexLock l(&catalog_mu_);
  views_ = std::move(views);
  return absl::OkStatus();
}

std::optional<ViewDefinition> DbImpl::GetView(absl::string_view name) const {
  MutexLock l(&catalog_mu_);
  auto it = views_.find(name);
  if (it == views_.end()) return std::nullopt;
  return it->second;
}

std::vector<ViewDefinition> DbImpl::ListViews() const {
  MutexLock l(&catalog_mu_);
  std::vector<ViewDefinition> out;
  out.reserve(views_.size());
  for (const auto& [name, view] : views_) out.push_back(view);
  return out;
}

absl::StatusOr<std::optional<DbImpl::ResolvedView>> DbImpl::ResolveView(
    absl::string_view name) const {
  MutexLock l(&catalog_mu_);
  if (views_.empty()) return std::nullopt;
  auto it = views_.find(name);
  if (it == views_.end()) return std::nullopt;
  // view_catalog_helpers::resolveView: each view's pipeline is prepended.
  std::vector<const Value*> pipelines;
  std::string current(name);
  for (int depth = 0; depth < kMaxViewDepth; ++depth) {
    auto v = views_.find(current);
    if (v == views_.end()) {
      Value::Array stages;
      for (auto p = pipelines.rbegin(); p != pipelines.rend(); ++p) {
        for (const Value& s : (*p)->array_items()) stages.push_back(s);
      }
      return ResolvedView{current, Value::MakeArray(std::move(stages))};
    }
    pipelines.push_back(&v->second.pipeline);
    current = v->second.view_on;
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kViewDepthLimitExceeded,
                    absl::StrCat("View depth too deep or view cycle detected; "
                                 "maximum depth is ",
                                 kMaxViewDepth));
}

absl::Status DbImpl::RefuseView(absl::string_view name) const {
  MutexLock l(&catalog_mu_);
  if (views_.empty() || views_.find(name) == views_.end()) {
    return absl::OkStatus();
  }
  return MongoError(
      absl::StatusCode::kInvalidArgument, kCommandNotSupportedOnView,
      absl::StrCat("Namespace ", name, " is a view, not a collection"));
}

absl::Status DbImpl::PutViewLocked(const ViewDefinition& view, bool replace) {
  RETURN_IF_ERROR(ValidateViewOn(view.view_on));
  RETURN_IF_ERROR(ValidateViewPipeline(view.name, view.pipeline));
  proto::ViewInfo info;
  info.set_name(view.name);
  info.set_view_on(view.view_on);
  info.set_pipeline_json(ToJson(view.pipeline, JsonFormat::kRelaxed));
  if (info.pipeline_json().size() > kMaxViewPipelineBytes) {
    return MongoError(absl::StatusCode::kInvalidArgument, 10334,
                      "View pipeline is too large and exceeds the maximum "
                      "size of 16000000 bytes");
  }
  {
    MutexLock l(&catalog_mu_);
    if (!replace && views_.find(view.name) != views_.end()) {
      return NamespaceExistsError(view.name);
    }
    RETURN_IF_ERROR(CheckViewGraph(views_, view));
  }
  leveldb::WriteBatch batch;
  PutViewEntry(info, &batch);
  leveldb::WriteOptions wo;
  wo.sync = true;
  leveldb::Status s = Commit(wo, &batch);
  if (!s.ok()) {
    return storage::FromLevelDB(
        s, absl::StrCat("writing the view '", view.name, "'"));
  }
  MutexLock l(&catalog_mu_);
  views_[view.name] = view;
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
  MutexLock l(&catalog_mu_);
  views_.erase(views_.find(name));
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
