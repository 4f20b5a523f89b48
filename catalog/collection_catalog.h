// The published catalog: the compiled state (catalog/compile.h) of every
// collection whose entry is healthy, by name, and the collections whose
// entry is damaged, with what is wrong. MongoDB's CollectionCatalog
// (src/mongo/db/catalog/collection_catalog.h) plays the same part.
//
// Readers take a collection's state with Get and keep the shared_ptr for
// as long as they use it: a DDL command publishes a new state (or none)
// and never changes one in place, so a reader sees one version of a
// collection throughout. Writers of the catalog (the engine's DDL
// commands, which commit the entry first, catalog/catalog_entries.h) hold
// the engine's writers' lock, so they are never concurrent with each
// other; readers are never blocked by them for longer than a map update.
//
// Thread-safe. Its mutex is a leaf: nothing is called under it.
// Internal to ttldb.
#ifndef TTLDB_CATALOG_COLLECTION_CATALOG_H_
#define TTLDB_CATALOG_COLLECTION_CATALOG_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "base/mutex.h"
#include "storage/collection_state.h"
#include "storage/unknown_ranges.h"

namespace ttldb {

// 48 NamespaceExists "Namespace <name> already exists": a create of a
// collection or view under a name a collection or view has.
absl::Status NamespaceExistsError(absl::string_view name);

class CollectionCatalog {
 public:
  using StatePtr = std::shared_ptr<const CollectionState>;

  CollectionCatalog() = default;
  CollectionCatalog(const CollectionCatalog&) = delete;
  CollectionCatalog& operator=(const CollectionCatalog&) = delete;

  // The state published under `name`; nullptr if none.
  StatePtr Get(absl::string_view name) const;
  // The state of the collection whose id is `id`; nullptr if none.
  StatePtr GetById(uint32_t id) const;
  // Publishes `state` under `name` (nullptr: the collection is gone).
  void Publish(const std::string& name, StatePtr state);
  // Every published state, by name (a copy: the caller may call back).
  std::vector<std::pair<std::string, StatePtr>> Snapshot() const;
  std::vector<std::string> Names() const;

  // The damaged entries found at open (catalog/catalog_entries.h
  // LoadedCollections), replacing any before.
  void SetDamaged(std::map<std::string, std::string, std::less<>> damaged,
                  CatalogIds damaged_ids);
  // What is wrong with `name`'s entry; nullopt when it is not damaged.
  std::optional<std::string> Damage(absl::string_view name) const;
  // Every damaged entry: name -> what is wrong.
  std::map<std::string, std::string> AllDamage() const;
  // Forgets a damaged entry (its catalog key is deleted); false if `name`
  // was not damaged.
  bool ForgetDamaged(absl::string_view name);
  // Every collection and index id a catalog entry names, healthy or
  // damaged, and whether an entry did not parse: what the reclaimer must
  // keep (storage/unknown_ranges.h).
  CatalogIds Ids() const;

 private:
  mutable Mutex mu_;
  std::map<std::string, StatePtr, std::less<>> states_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::string, std::less<>> damaged_ ABSL_GUARDED_BY(mu_);
  // The ids of the damaged entries that parse, and whether one does not.
  CatalogIds damaged_ids_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ttldb

#endif  // TTLDB_CATALOG_COLLECTION_CATALOG_H_
