#include "catalog/view_catalog.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/collection_catalog.h"

namespace ttldb {
namespace {

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

// 165 ViewDepthLimitExceeded, ViewGraph's wording.
absl::Status DepthLimitExceeded() {
  return MongoError(absl::StatusCode::kInvalidArgument, kViewDepthLimitExceeded,
                    absl::StrCat("View depth limit exceeded; maximum depth is ",
                                 ViewCatalog::kMaxViewDepth));
}

// ViewGraph::insertAndValidate over `views` with `candidate` in it: no
// cycle through the candidate, and no chain through it longer than
// kMaxViewDepth views.
absl::Status CheckViewGraph(
    const std::map<std::string, ViewDefinition, std::less<>>& views,
    const ViewDefinition& candidate) {
  constexpr int kMaxViewDepth = ViewCatalog::kMaxViewDepth;
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
      return DepthLimitExceeded();
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
      return DepthLimitExceeded();
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
    return DepthLimitExceeded();
  }
  return absl::OkStatus();
}

}  // namespace

void InvolvedCollections(const Value& stages, std::set<std::string>* out) {
  InvolvedCollectionsAt(stages, out, 0);
}

void ViewCatalog::Set(std::vector<ViewDefinition> views) {
  std::map<std::string, ViewDefinition, std::less<>> by_name;
  for (ViewDefinition& v : views) {
    std::string name = v.name;
    by_name.emplace(std::move(name), std::move(v));
  }
  MutexLock l(&mu_);
  views_ = std::move(by_name);
}

std::optional<ViewDefinition> ViewCatalog::Get(absl::string_view name) const {
  MutexLock l(&mu_);
  auto it = views_.find(name);
  if (it == views_.end()) return std::nullopt;
  return it->second;
}

bool ViewCatalog::Contains(absl::string_view name) const {
  MutexLock l(&mu_);
  return views_.find(name) != views_.end();
}

std::vector<ViewDefinition> ViewCatalog::List() const {
  MutexLock l(&mu_);
  std::vector<ViewDefinition> out;
  out.reserve(views_.size());
  for (const auto& [name, view] : views_) out.push_back(view);
  return out;
}

absl::StatusOr<std::optional<ViewCatalog::Resolved>> ViewCatalog::Resolve(
    absl::string_view name) const {
  MutexLock l(&mu_);
  if (views_.find(name) == views_.end()) return std::nullopt;
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
      return Resolved{current, Value::MakeArray(std::move(stages))};
    }
    pipelines.push_back(&v->second.pipeline);
    current = v->second.view_on;
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kViewDepthLimitExceeded,
                    absl::StrCat("View depth too deep or view cycle detected; "
                                 "maximum depth is ",
                                 kMaxViewDepth));
}

absl::Status ViewCatalog::CheckPut(const ViewDefinition& view,
                                   bool replace) const {
  MutexLock l(&mu_);
  if (!replace && views_.find(view.name) != views_.end()) {
    return NamespaceExistsError(view.name);
  }
  return CheckViewGraph(views_, view);
}

void ViewCatalog::Put(ViewDefinition view) {
  MutexLock l(&mu_);
  std::string name = view.name;
  views_.insert_or_assign(std::move(name), std::move(view));
}

void ViewCatalog::Erase(absl::string_view name) {
  MutexLock l(&mu_);
  auto it = views_.find(name);
  if (it != views_.end()) views_.erase(it);
}

}  // namespace ttldb
