// The catalog on disk: one entry per collection ('C' + name ->
// proto::CollectionInfo), one per view ('V' + name -> proto::ViewInfo) and
// the database's meta record (storage/keys.h, docs/format.md). The engine
// writes entries into the batch of the DDL command that changes them (with
// the command's change event, under its writers' lock) and loads them all
// when the database opens; nothing else reads or writes these keys, except
// `ttldb repair`, which rebuilds them. Internal to ttldb.
#ifndef TTLDB_CATALOG_CATALOG_ENTRIES_H_
#define TTLDB_CATALOG_CATALOG_ENTRIES_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "proto/catalog.pb.h"
#include "storage/collection_state.h"
#include "storage/unknown_ranges.h"
#include "ttldb/value.h"
#include "ttldb/view_definition.h"

namespace ttldb {

// Writes into `batch` (applied by the caller's commit, synced).
void PutMetaEntry(const proto::DatabaseMeta& meta, leveldb::WriteBatch* batch);
void PutCollectionEntry(const proto::CollectionInfo& info,
                        leveldb::WriteBatch* batch);
void DeleteCollectionEntry(absl::string_view name, leveldb::WriteBatch* batch);
// A view's entry, its pipeline as relaxed Extended JSON: 10334
// BSONObjectTooLarge "View pipeline is too large and exceeds the maximum
// size of 16000000 bytes" past ViewGraph::kMaxViewPipelineSizeBytes.
absl::Status PutViewEntry(const ViewDefinition& view,
                          leveldb::WriteBatch* batch);
void DeleteViewEntry(absl::string_view name, leveldb::WriteBatch* batch);

// Every collection entry of `db`, compiled (catalog/compile.h). A damaged
// entry (it does not parse, names another collection or id 0, does not
// compile, or gives its id to another entry too: two collections sharing
// storage) is set aside with what is wrong, and the healthy ones load
// (issue 18 item 3).
struct LoadedCollections {
  std::map<std::string, std::shared_ptr<const CollectionState>> healthy;
  // Name -> what is wrong with its entry.
  std::map<std::string, std::string, std::less<>> damaged;
  // The ids of the damaged entries that parse, and whether one does not:
  // the reclaimer leaves their data to repair.
  CatalogIds damaged_ids;
  // The highest collection id any entry names, damaged or not.
  uint32_t max_id = 0;
};
absl::StatusOr<LoadedCollections> LoadCollections(leveldb::DB* db);

// Every view entry of `db`. A damaged one (it does not parse, names another
// view, or its pipeline is not an array) is left out and named in
// `damaged`: it hides only its own view, and dropping the name removes it.
struct LoadedViews {
  std::vector<ViewDefinition> views;
  std::vector<std::string> damaged;
};
absl::StatusOr<LoadedViews> LoadViews(leveldb::DB* db);

// The highest collection id any document or index entry of `db` is stored
// under (0 when there is none): no new collection may be given an id that
// holds data, whatever a lost or stale meta record says.
absl::StatusOr<uint32_t> MaxCollectionIdInData(leveldb::DB* db);

}  // namespace ttldb

#endif  // TTLDB_CATALOG_CATALOG_ENTRIES_H_
