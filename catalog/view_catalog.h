// The views of a database, by name: what MongoDB keeps in its
// CollectionCatalog's ViewsForDatabase (src/mongo/db/catalog/
// collection_catalog.h) with the rules of src/mongo/db/views/: the graph
// of views (view_graph.cpp) and the resolution of a view to the collection
// it reads (view_catalog_helpers.cpp resolveView).
//
// A view's entry on disk is catalog/catalog_entries.h's; the engine's DDL
// commands commit it first, then Put or Erase it here, under the engine's
// writers' lock, so that two changes are never concurrent. Readers see one
// version of a view throughout a call.
//
// Thread-safe. Its mutex is a leaf: nothing is called under it.
// Internal to ttldb.
#ifndef TTLDB_CATALOG_VIEW_CATALOG_H_
#define TTLDB_CATALOG_VIEW_CATALOG_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/mutex.h"
#include "ttldb/value.h"
#include "ttldb/view_definition.h"

namespace ttldb {

class ViewCatalog {
 public:
  // ViewGraph::kMaxViewDepth (src/mongo/db/views/view_graph.cpp).
  static constexpr int kMaxViewDepth = 20;

  ViewCatalog() = default;
  ViewCatalog(const ViewCatalog&) = delete;
  ViewCatalog& operator=(const ViewCatalog&) = delete;

  // Replaces every view (at open, catalog/catalog_entries.h LoadViews).
  void Set(std::vector<ViewDefinition> views);

  std::optional<ViewDefinition> Get(absl::string_view name) const;
  bool Contains(absl::string_view name) const;
  // Every view, by name.
  std::vector<ViewDefinition> List() const;

  // What a read of view `name` reads: the collection at the end of its
  // chain of views and every view's pipeline, the innermost first.
  // nullopt when `name` is no view; 165 ViewDepthLimitExceeded "View depth
  // too deep or view cycle detected; maximum depth is 20" past 20 views.
  struct Resolved {
    std::string collection;
    Value pipeline;  // an array
  };
  absl::StatusOr<std::optional<Resolved>> Resolve(absl::string_view name) const;

  // Whether `view` may be stored (ViewGraph::insertAndValidate): when
  // `replace` is false, 48 NamespaceExists if a view has its name; then the
  // graph of views with `view` in it, each pointing at its viewOn and the
  // collections its pipeline reads (InvolvedCollections), stays acyclic (5
  // GraphContainsCycle "View cycle detected: a => b => a") and no path
  // through `view` holds more than 20 views (165 "View depth limit
  // exceeded; maximum depth is 20").
  absl::Status CheckPut(const ViewDefinition& view, bool replace) const;

  // Stores `view` (its entry committed), replacing one of the same name.
  void Put(ViewDefinition view);
  // Forgets view `name` (its entry deleted); nothing if there is none.
  void Erase(absl::string_view name);

 private:
  mutable Mutex mu_;
  std::map<std::string, ViewDefinition, std::less<>> views_
      ABSL_GUARDED_BY(mu_);
};

// Adds to *out the collections (or views) `stages` reads besides its input,
// as MongoDB's LiteParsedPipeline::getInvolvedNamespaces: the `from` of
// $lookup and $graphLookup, $unionWith's collection, and what their
// sub-pipelines and $facet's read (32 levels deep at most). Stages of any
// other shape are skipped: the pipeline's parser reports them.
void InvolvedCollections(const Value& stages, std::set<std::string>* out);

}  // namespace ttldb

#endif  // TTLDB_CATALOG_VIEW_CATALOG_H_
