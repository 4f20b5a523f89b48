// Key ranges that hold data the catalog does not describe: documents or
// index entries under a collection id no catalog entry names (a dropped
// collection), and index entries under an index id its collection's entry
// does not name (a dropped index, or an index build interrupted by a
// crash). Collection and index ids are never reused (docs/format.md), so
// such keys are garbage: no read ever reaches them. The Reclaimer
// (storage/reclaimer.h) deletes them; Collection::Validate reports them.
//
// MongoDB does the same with the storage engine's tables at startup: an
// ident the catalog does not know is dropped
// (src/mongo/db/storage/storage_engine_impl.cpp,
// StorageEngineImpl::reconcileCatalogAndIdents, log 22251 "Dropping unknown
// ident"), and dropped collections' tables are removed in the background
// after the drop (drop-pending idents).
//
// Internal to the engine.
#ifndef TTLDB_STORAGE_UNKNOWN_RANGES_H_
#define TTLDB_STORAGE_UNKNOWN_RANGES_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "leveldb/db.h"
#include "proto/catalog.pb.h"

namespace ttldb {

// The ids the catalog describes.
struct CatalogIds {
  struct Collection {
    // Every index id a catalog entry names for it: its indexes, and any
    // other IndexSpec list of CollectionInfo (indexes being built).
    std::set<uint32_t> index_ids;
    // Ids from here up have never been handed out: entries there are not
    // garbage of this collection's past but a stale catalog (damage), and
    // a new index could be given the id, so they are never reclaimed.
    //
    // No crash leaves entries there (checked for issue 19): an index id is
    // reserved before anything is written under it. A build's registration
    // (DbImpl::RegisterIndexBuildLocked) raises next_index_id and lists the
    // spec in building_indexes in one synced catalog write, before the scan
    // or any writer puts an entry; a collection created by createIndex
    // (CreateCollectionWithIndexLocked) is empty and its catalog entry,
    // next_index_id 2 included, is one synced batch; writers only maintain
    // ids the published state lists. LevelDB's log is ordered, so an entry
    // written after the synced catalog write never survives without it.
    // Entries at or above next_index_id therefore mean a damaged or
    // replaced catalog, which `ttldb repair` decides.
    uint32_t next_index_id = 0;
    // The collection's catalog entry is damaged: none of its ranges is
    // ever reclaimed (`ttldb repair` decides).
    bool damaged = false;
  };
  std::map<uint32_t, Collection> collections;
  // Some catalog entry could not be parsed, so some collection's id is
  // unknown: documents under unnamed ids may be its data, and are not
  // reclaimed.
  bool unparsed_entry = false;

  // Adds `info` (from a healthy or a damaged but parsable entry).
  void Add(const proto::CollectionInfo& info, bool damaged = false);
};

// One range the catalog does not describe.
struct UnknownRange {
  uint32_t collection_id = 0;
  // Set for index entries of a known collection under an unknown index id;
  // unset for a whole unknown collection id (its 'D' or 'I' keys).
  std::optional<uint32_t> index_id;
  bool documents = false;  // 'D' keys (else 'I' keys)
  std::string begin, end;  // [begin, end)
  // Whether it is certainly garbage (see CatalogIds); otherwise validate
  // reports it and nothing deletes it.
  bool reclaimable = true;

  // E.g. "documents under collection id 7" or "index entries under index
  // id 3 of collection id 2".
  std::string Describe() const;
};

// The ranges of `db` (read with `ro`) that `ids` does not describe. Costs
// one seek per collection id present in the data and one per index id
// present under a known collection, whatever the number of keys.
absl::StatusOr<std::vector<UnknownRange>> FindUnknownRanges(
    leveldb::DB* db, const leveldb::ReadOptions& ro, const CatalogIds& ids);

// The number of keys in `range`.
absl::StatusOr<int64_t> CountKeys(leveldb::DB* db,
                                  const leveldb::ReadOptions& ro,
                                  const UnknownRange& range);

// The collection ids under which keys with `tag` (kDocumentTag or
// kIndexTag, storage/keys.h) are stored, with how many keys each: what
// `ttldb repair` holds against the catalog (catalog/catalog_repair.h).
absl::StatusOr<std::map<uint32_t, int64_t>> KeyCountsById(leveldb::DB* db,
                                                          char tag);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_UNKNOWN_RANGES_H_
