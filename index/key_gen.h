// Index key generation: the keys one document contributes to one index.
#ifndef TTLDB_INDEX_KEY_GEN_H_
#define TTLDB_INDEX_KEY_GEN_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "document/collator.h"
#include "index/index_descriptor.h"
#include "ttldb/value.h"

namespace ttldb {

// Replaces *keys with the encoded index keys (index/key_codec.h) that `doc`
// contributes to the index `spec`, sorted bytewise and without duplicates.
// A compound key is the concatenation of each field's encoding in its
// direction; the caller appends the _id.
//
// The key tuples are MongoDB's BtreeKeyGenerator's (document/path_keys.h
// states the rules): one tuple per element of the one array the paths may
// expand at each level, so {"items.sku": 1, "items.qty": 1} over
// {items: [{sku: "x", qty: 1}, {sku: "y", qty: 2}]} gives ("x", 1) and
// ("y", 2); a missing path, or a scalar met with path left over, is null;
// an expanded empty array is the "empty array" key (AppendEmptyArrayKey,
// MongoDB's `undefined`, just below null); two different arrays are error
// 171 CannotIndexParallelArrays "cannot index parallel arrays [b] [a]"
// (array field names, the later path's first). A sparse index drops tuples
// in which no path reached a value (none at all: no keys, OK status).
// Equal keys (e.g. {a: [1, 1.0]}) appear once.
//
// Partial filters are not applied here: the caller decides whether the
// document belongs to a partial index before calling.
//
// *is_multikey (if not null) is set to whether an array was expanded
// (MongoDB's multikey paths are not empty), even one of a single element.
//
// Every key is built as `prefix` + the encoding + `suffix` (the engine's
// index prefix and encoded _id), in place, rather than copied around after.
//
// With a `collator` (the index's collation, spec.collation_json compiled),
// every string in a key value, in arrays and objects too, is replaced by its
// collation key (Collator::KeyValue), as MongoDB's
// CollationIndexKey::collationAwareIndexKeyAppend does: keys equal in the
// collation are equal, so a unique index with {strength: 2} refuses "ABC"
// after "abc".
absl::Status GenerateIndexKeys(const IndexSpec& spec, const Value& doc,
                               std::vector<std::string>* keys,
                               bool* is_multikey = nullptr,
                               absl::string_view prefix = {},
                               absl::string_view suffix = {},
                               const Collator* collator = nullptr);

}  // namespace ttldb

#endif  // TTLDB_INDEX_KEY_GEN_H_
