// The one write path of ttldb's storage: the only code that puts a
// document and its index entries into a leveldb::WriteBatch, or deletes
// them from one. Inserts, updates, deletes, the eviction of hidden
// documents a write collides with, and both ways the TTL monitor deletes
// (reading the document, or through a TTL entry's sibling keys) all go
// through it, as every write of MongoDB goes through collection_write_path.h
// (insertDocument / updateDocument / deleteDocument).
//
// Contract:
//  - The caller holds the writers' lock (DbImpl::write_mu_) from reading the
//    old version of a document and checking what must be checked (unique
//    keys, hidden documents) until it has committed the batch, or queued it
//    for a group commit (storage/commit_queue.h) naming the keys later
//    writers must not read before it is committed, so that what the batch
//    deletes is exactly what is stored.
//  - The writer only adds to the batch. It reads nothing from the database,
//    changes no state besides the batch, and commits nothing: the caller
//    commits the batch in one leveldb::DB::Write (documents and indexes
//    never disagree, even after a crash), or drops it after an error (an
//    error may leave the batch half written).
//  - It knows the collection only through its CollectionState (immutable),
//    whose published indexes come first and those being built after them
//    (engine/index_build.h): their entries are maintained alike.
#ifndef TTLDB_STORAGE_DOCUMENT_WRITER_H_
#define TTLDB_STORAGE_DOCUMENT_WRITER_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "leveldb/write_batch.h"
#include "storage/collection_state.h"
#include "storage/entry_value.h"
#include "storage/index_keys.h"
#include "ttldb/value.h"

namespace ttldb {

class DocumentWriter {
 public:
  // What deletions put into the batch, for the caller's bookkeeping after
  // its commit. Accumulates over several calls.
  struct Removed {
    // The document keys deleted, in the order of the calls.
    std::vector<std::string> doc_keys;
    // Index entries deleted (of the published indexes; RemoveBySiblings
    // counts every entry it deletes).
    int64_t entries = 0;
    // Entries below the Date bracket deleted (storage/leading_entries.h),
    // by index prefix.
    std::map<std::string, int64_t> below_dates;
  };

  // One index's part of an Insert or Replace, shown to the caller's check
  // before it goes into the batch.
  struct IndexChange {
    size_t i;  // in indexes()
    const IndexState& index;
    bool building;  // i >= published()
    // The keys the new version no longer has (deleted), those it adds
    // (every key of a building index: its scan may not have put them yet),
    // and all its keys.
    const std::vector<std::string>& removed;
    const std::vector<std::string>& added;
    const std::vector<std::string>& all;
  };
  // Returns non-OK to stop the write (the batch is then to be dropped).
  using IndexCheck = absl::FunctionRef<absl::Status(const IndexChange&)>;

  // Writes into `batch` (not owned; outlives the writer) for documents of
  // `state` (not owned; outlives the writer).
  DocumentWriter(const CollectionState& state, leveldb::WriteBatch* batch);

  DocumentWriter(const DocumentWriter&) = delete;
  DocumentWriter& operator=(const DocumentWriter&) = delete;

  // The collection's published indexes, then those being built: the order
  // of DocKeys (ComputeDocKeys(indexes(), ...)) given to Insert and Replace.
  absl::Span<const IndexState* const> indexes() const { return indexes_; }
  size_t published() const { return published_; }
  bool building() const { return indexes_.size() > published_; }

  // insertDocument: puts the document `encoded_id` (`text`, its storage
  // JSON) and the entries `keys` lists (ComputeDocKeys over indexes()),
  // each with its value (storage/entry_value.h). `check` sees each index's
  // change first.
  absl::Status Insert(const std::string& encoded_id, absl::string_view text,
                      const DocKeys& keys, IndexCheck check);
  // updateDocument: replaces the document stored with `old_keys` by `text`
  // with `new_keys`: deletes the entries only the old version has, puts
  // those only the new one has, and rewrites a TTL entry whose sibling keys
  // changed.
  absl::Status Replace(const std::string& encoded_id, const DocKeys& old_keys,
                       absl::string_view text, const DocKeys& new_keys,
                       IndexCheck check);
  // deleteDocument: deletes the stored document `doc` and every entry it
  // derives, in every index. Fails (leaving the batch half written) only if
  // a key cannot be generated from `doc`.
  absl::Status Remove(const std::string& encoded_id, const Value& doc,
                      Removed* removed);
  // The TTL monitor's fast path (faster than MongoDB's fetch-then-delete):
  // deletes the document `encoded_id`, its TTL entry `entry_key`, and its
  // entries in the other indexes as `siblings` (parsed from the entry's
  // value) lists them, without reading the document. The caller has made
  // sure `siblings` names every index of the collection but the TTL one.
  void RemoveBySiblings(absl::string_view entry_key,
                        absl::string_view encoded_id,
                        absl::Span<const SiblingIndex> siblings,
                        Removed* removed);

 private:
  std::string DocumentKeyOf(absl::string_view encoded_id) const;
  absl::Status Write(const std::string& encoded_id, const DocKeys* old_keys,
                     absl::string_view text, const DocKeys& new_keys,
                     IndexCheck check);
  // Notes a deleted entry of `index` in removed->below_dates.
  static void NoteRemoved(const IndexState& index, absl::string_view key,
                          Removed* removed);

  const CollectionState& state_;
  leveldb::WriteBatch* const batch_;
  absl::InlinedVector<const IndexState*, 8> indexes_;  // no allocation
  size_t published_;
  std::vector<std::string> scratch_;  // Remove's keys, reused
};

}  // namespace ttldb

#endif  // TTLDB_STORAGE_DOCUMENT_WRITER_H_
