// What `ttldb repair` (ttldb/repair.h RepairDatabase) does to a damaged
// catalog, decided from what is on disk: which collection entries to write
// back, which index entries are garbage, and a line of the report for each
// decision. A pure function of its input; the engine gathers the input
// (the damaged entries found at open, catalog/catalog_entries.h; the ids
// that hold documents and index entries, storage/keys.h KeyCountsById),
// then deletes, writes and commits what the plan says.
//
// The rules (docs/operations.md, "Repair"):
//  - a damaged entry that still parses keeps its documents and the indexes
//    that compile; several such entries under one id share its documents:
//    the first by name keeps them, the others become empty collections
//    under new ids;
//  - an entry that does not parse gets the documents of the one id no
//    entry names when it is the only such entry and that the only such id
//    (its indexes other than _id are lost); else it becomes empty;
//  - documents under any other id no entry names go to a new collection
//    "lost_and_found.<id>" (or "lost_and_found.<id>_<n>" when taken);
//  - index entries under an id no entry names are deleted.
// Internal to ttldb.
#ifndef TTLDB_CATALOG_CATALOG_REPAIR_H_
#define TTLDB_CATALOG_CATALOG_REPAIR_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "proto/catalog.pb.h"

namespace ttldb {

struct CatalogRepairInput {
  // The damaged entries: name -> what is wrong (CollectionCatalog's
  // AllDamage), and each one's stored bytes (nullopt: unreadable).
  std::map<std::string, std::string> damage;
  std::map<std::string, std::optional<std::string>> damaged_entries;
  // The ids of the healthy entries.
  std::set<uint32_t> known_ids;
  // The ids under which documents and index entries are stored, with how
  // many keys each.
  std::map<uint32_t, int64_t> document_ids;
  std::map<uint32_t, int64_t> index_ids;
  // The meta record's next collection id: new ids are handed out from it.
  uint32_t next_collection_id = 1;
};

struct CatalogRepairPlan {
  // The entries to write (a damaged entry's name, or a lost_and_found one).
  std::vector<proto::CollectionInfo> entries;
  // The ids whose index entries are garbage, with how many there are.
  std::vector<std::pair<uint32_t, int64_t>> garbage_index_ids;
  // The report's lines for `entries`, in order; one line per garbage id
  // follows once its entries are deleted (GarbageIndexLine).
  std::vector<std::string> report;
  // The meta record's next collection id after the ids the plan gave.
  uint32_t next_collection_id = 1;
};

// `name_taken` says whether a healthy collection has a name.
CatalogRepairPlan PlanCatalogRepair(
    const CatalogRepairInput& input,
    const std::function<bool(const std::string&)>& name_taken);

// "<n> index entries under id <id>, which no catalog entry names: deleted".
std::string GarbageIndexLine(uint32_t id, int64_t n);

}  // namespace ttldb

#endif  // TTLDB_CATALOG_CATALOG_REPAIR_H_
