// The read path of ttldb's storage: a document of a collection by its
// encoded _id, from the document cache (storage/doc_cache.h) or parsed
// from its stored JSON text in LevelDB, and whether reads must hide it
// (expired, Options::hide_expired). Every decoded read of a document goes
// through it: finds (engine/query_exec.cc), FindById, the writers' read of
// the version they replace, validate and the TTL sweep's re-check.
//
// Contract:
//  - A read without a snapshot is served from the cache and may fill it
//    (storage/doc_cache.h's ticket keeps a value read before a write from
//    being cached after it); a read at a snapshot never touches the cache,
//    which holds the latest committed documents only.
//  - Stored text that does not parse is DataLoss "collection '<name>':
//    stored document is corrupt: ..."; a LevelDB error is
//    storage::FromLevelDB's.
//  - A DocumentReader is a view of the engine's LevelDB and cache: cheap to
//    make, valid while both are. Thread-safe as they are.
#ifndef TTLDB_STORAGE_DOCUMENT_READER_H_
#define TTLDB_STORAGE_DOCUMENT_READER_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "leveldb/db.h"
#include "query/top_level_fields.h"
#include "storage/collection_state.h"
#include "storage/doc_cache.h"
#include "ttldb/value.h"

namespace ttldb {

class DocumentReader {
 public:
  // `cache` may be nullptr (Options::doc_cache_bytes 0). `hide_expired`:
  // Options::hide_expired.
  DocumentReader(leveldb::DB* db, DocCache* cache, bool hide_expired)
      : db_(db), cache_(cache), hide_expired_(hide_expired) {}

  // The document with this encoded _id; nullopt if absent. With `fields`
  // (not owned; nullptr: all), a reader that needs only those top-level
  // fields may get the document without the others (ParseStored).
  absl::StatusOr<std::optional<Value>> Read(
      const CollectionState& state, absl::string_view encoded_id,
      const leveldb::Snapshot* snapshot = nullptr,
      const TopLevelFields* fields = nullptr) const;
  // Read into *out (overwritten); false if absent (*out is then
  // unspecified). A document the cache does not take is parsed straight
  // into *out (only `fields`, as ParseStored); a hit or an admitted miss is
  // copied whole.
  absl::StatusOr<bool> ReadInto(const CollectionState& state,
                                absl::string_view encoded_id,
                                const leveldb::Snapshot* snapshot, Value* out,
                                const TopLevelFields* fields = nullptr) const;
  // The documents with these encoded _ids at `snapshot` (required: the
  // cache is not read), into (*out)[i] for encoded_ids[i] (nullopt if
  // absent), parsed as ParseStored with `fields`. They are looked up in key
  // order, so that neighbours share LevelDB's table and block cache
  // entries. (A single iterator stepping between them was measured slower
  // on a levelled store: each Seek positions every level.)
  absl::Status ReadBatch(const CollectionState& state,
                         const std::vector<std::string>& encoded_ids,
                         const leveldb::Snapshot* snapshot,
                         const TopLevelFields* fields,
                         std::vector<std::optional<Value>>* out) const;
  // A document's stored JSON text parsed into *out (overwritten). With
  // `fields` (nullptr: all), only the top-level fields it names when the
  // text allows a scan of its top level (storage/json_field_scan.h), in the
  // document's order, each exactly as the whole parse gives it; else the
  // whole document. Text that does not parse is DataLoss "collection
  // '<name>': stored document is corrupt: ...".
  static absl::Status ParseStored(const CollectionState& state,
                                  absl::string_view json,
                                  const TopLevelFields* fields, Value* out);
  // Read without a snapshot, sharing the document with the cache instead
  // of copying it (nullptr if absent): for writers, which read the current
  // version once and build the new one from it. *parsed_here (optional) is
  // true when this call parsed it (not a cache hit).
  absl::StatusOr<std::shared_ptr<const Value>> ReadShared(
      const CollectionState& state, absl::string_view encoded_id,
      bool* parsed_here = nullptr) const;
  // The stored JSON text (storage form) of the document into *json,
  // without parsing it; false if absent. A cache hit is serialized instead
  // (the same document); nothing is cached.
  absl::StatusOr<bool> ReadJson(const CollectionState& state,
                                absl::string_view encoded_id,
                                std::string* json) const;

  // True when a TTL index of `state` has expired `doc` at `now` and reads
  // must hide it (hide_expired).
  bool IsHidden(const CollectionState& state, const Value& doc,
                absl::Time now) const;
  // The top-level fields IsHidden reads: the TTL indexes' key fields (all
  // of them when a TTL index is partial).
  static TopLevelFields HidingFields(const CollectionState& state);
  // IsHidden of a document given as its stored JSON text: parses only
  // HidingFields when it can, else the whole document (DataLoss if it does
  // not parse).
  absl::StatusOr<bool> IsHiddenJson(const CollectionState& state,
                                    absl::string_view json,
                                    absl::Time now) const;

 private:
  leveldb::DB* const db_;
  DocCache* const cache_;
  const bool hide_expired_;
};

}  // namespace ttldb

#endif  // TTLDB_STORAGE_DOCUMENT_READER_H_
