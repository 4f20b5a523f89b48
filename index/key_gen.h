// Index key generation: the keys one document contributes to one index.
#ifndef TTLDB_INDEX_KEY_GEN_H_
#define TTLDB_INDEX_KEY_GEN_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "document/value.h"
#include "proto/catalog.pb.h"

namespace ttldb {

// Replaces *keys with the encoded index keys (index/key_codec.h) that `doc`
// contributes to the index `spec`, sorted bytewise and without duplicates.
// A compound key is the concatenation of each field's encoding in its
// direction; the caller appends the _id. MongoDB's semantics:
//
// - Paths are dotted; a component that meets an array continues into each
//   element of it that is an object ("a.b" over {a: [{b: 1}, {b: 2}]} gives
//   1 and 2); an element that lacks the rest of the path, or is not an
//   object, contributes null (MongoDB: {a: [{}, {b: 1}]} has keys null and
//   1). A numeric component on an array selects that position instead.
// - A field that is missing indexes as null.
// - An array at the end of a path gives one key per element (multikey);
//   elements that are arrays themselves are indexed as arrays. An empty
//   array gives the dedicated "empty array" key (AppendEmptyArrayKey), which
//   sorts just below null (MongoDB indexes it as `undefined`).
// - At most one field of a compound index may meet an array in one document;
//   otherwise error 171 CannotIndexParallelArrays
//   "cannot index parallel arrays [a] [b]" (the index's paths).
// - A sparse index skips the document (no keys, OK status) when none of the
//   indexed paths reaches a value (all are missing).
// - A document with equal keys (e.g. {a: [1, 1.0]}) yields each key once.
//
// Partial filters are not applied here: the caller decides whether the
// document belongs to a partial index before calling.
//
// *is_multikey (if not null) is set to whether any field met an array.
absl::Status GenerateIndexKeys(const proto::IndexSpec& spec, const Value& doc,
                               std::vector<std::string>* keys,
                               bool* is_multikey = nullptr);

}  // namespace ttldb

#endif  // TTLDB_INDEX_KEY_GEN_H_
