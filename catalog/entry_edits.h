// The edits DDL makes to a collection's catalog entry (proto/catalog.proto
// CollectionInfo), as MongoDB's durable catalog makes them to a
// collection's metadata (src/mongo/db/catalog/collection_impl.cpp
// prepareForIndexBuild, indexBuildSuccess, removeIndex;
// rename_collection.cpp): each takes the entry the command read from the
// published state and changes only what it names, so that the fields this
// ttldb does not know (a newer one's) are written back as they were. The
// engine's DDL commands make the edit under the writers' lock and commit
// the entry (DbImpl::CommitCatalogLocked).
// Internal to ttldb.
#ifndef TTLDB_CATALOG_ENTRY_EDITS_H_
#define TTLDB_CATALOG_ENTRY_EDITS_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "index/index_descriptor.h"
#include "proto/catalog.pb.h"
#include "storage/collection_state.h"

namespace ttldb {

// A new collection's entry: `name`, no id yet (the commit gives it the
// database's next collection id), and, when `first_index` is set, that
// index (a collection created by createIndexes) with id 1, not multikey
// (the collection has no documents).
proto::CollectionInfo NewCollectionEntry(
    absl::string_view name, const IndexSpec* first_index = nullptr);

// The stored spec of index `index_id` among `info`'s built indexes, or
// nullptr.
proto::IndexSpec* FindStoredIndex(proto::CollectionInfo* info,
                                  uint32_t index_id);

// prepareForIndexBuild: gives `spec` the entry's next index id (never
// handed out again, even if the build fails) and lists it as building.
void AddBuildingIndex(IndexSpec* spec, proto::CollectionInfo* info);

// indexBuildSuccess: moves building index `index_id` to the built indexes
// with its multikey flag. False (nothing changed) when the entry does not
// list it as building.
bool MarkIndexBuilt(uint32_t index_id, bool multikey,
                    proto::CollectionInfo* info);

// A failed build: building index `index_id` becomes an abandoned id (its
// entries are to be deleted). False when the entry does not list it.
bool AbandonBuildingIndex(uint32_t index_id, proto::CollectionInfo* info);

// After an open found builds a crash or Close interrupted: every building
// index becomes an abandoned id. Returns the specs it abandoned.
std::vector<proto::IndexSpec> AbandonAllBuildingIndexes(
    proto::CollectionInfo* info);

// The abandoned id's entries are deleted: the id goes. False when the
// entry does not list it.
bool ForgetAbandonedIndex(uint32_t index_id, proto::CollectionInfo* info);

// removeIndex (dropIndexes): built index `index_id` goes. TTL entries of
// the collection that list it among their siblings keep it there: dropped
// ids in a list are skipped (docs/format.md). False when the entry does
// not list it.
bool RemoveIndex(uint32_t index_id, proto::CollectionInfo* info);

// renameCollection's checks (rename_collection.cpp
// checkSourceAndTargetNamespaces), `source` and `target` the published
// states of `from` and `to` (nullptr: none): 20 IllegalOperation "Can't
// rename a collection to itself", 26 NamespaceNotFound "Source collection
// <from> does not exist", 48 NamespaceExists "target namespace exists"
// (unless `drop_target`). Returns the renamed entry: the source's, its
// name `to`, its id kept (the documents and index entries keep their keys,
// which hold the id, not the name, so a rename is O(1) and TTL indexes
// keep expiring).
absl::StatusOr<proto::CollectionInfo> RenamedEntry(
    absl::string_view from, absl::string_view to, const CollectionState* source,
    const CollectionState* target, bool drop_target);

}  // namespace ttldb

#endif  // TTLDB_CATALOG_ENTRY_EDITS_H_
