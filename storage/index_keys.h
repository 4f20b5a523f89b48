// The index entries a document derives: their keys in each index of its
// collection and the value each entry holds (storage/entry_value.h).
#ifndef TTLDB_STORAGE_INDEX_KEYS_H_
#define TTLDB_STORAGE_INDEX_KEYS_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "storage/collection_state.h"
#include "ttldb/value.h"

namespace ttldb {

// The index entry keys `doc` derives for `index` (none if a partial filter
// excludes it). *is_multikey (if not null) is set to whether a field met an
// array.
absl::Status IndexEntryKeys(const IndexState& index, const Value& doc,
                            const std::string& encoded_id,
                            std::vector<std::string>* out,
                            bool* is_multikey = nullptr);

// A document's entry keys in each of some indexes (parallel to them,
// each sorted), and whether a field met an array in each.
struct DocKeys {
  std::vector<std::vector<std::string>> keys;
  std::vector<bool> multikey;
};

// Fills *out for `doc` in `indexes`. With `before` (an earlier version of
// the same document, and its keys from this call), an index without a
// partial filter whose fields' top-level values are identical in both
// (IdenticalValues) takes before's keys without generating them: a $set of
// accessTime regenerates only the TTL index's. A key that cannot be
// generated is the error, naming the index.
absl::Status ComputeDocKeys(absl::Span<const IndexState* const> indexes,
                            const Value& doc, const std::string& encoded_id,
                            DocKeys* out, const Value* before = nullptr,
                            const DocKeys* before_keys = nullptr);

// The value of indexes[i]'s entries for that document
// (storage/entry_value.h): a TTL index's single entry carries the
// document's keys in every other index; anything else the encoded _id.
std::string EntryValueFor(absl::Span<const IndexState* const> indexes,
                          const DocKeys& keys, size_t i,
                          const std::string& encoded_id);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_INDEX_KEYS_H_
