// One walk over a document about to be written, in place of four: what
// CheckStorable decides (document/storable.h), BsonDocumentSize
// (document/bson.h), ReparsesIdentically and the tree's part of
// CacheCharge (storage/doc_cache.h). Each of those walked the whole tree
// (~570 of a 256 B insert's cycles together; "Round 5, session 8: inserts"
// in docs/benchmarks-history.md). tests/write_walk_test checks the four
// answers against the four functions over generated documents.
#ifndef TTLDB_STORAGE_WRITE_WALK_H_
#define TTLDB_STORAGE_WRITE_WALK_H_

#include <cstddef>

#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

struct WriteWalk {
  // CheckStorable(doc).ok(). When false the other fields are incomplete:
  // the caller runs CheckStorable for its message.
  bool storable = true;
  // ReparsesIdentically(doc).
  bool reparses = true;
  // BsonDocumentSize(doc).
  size_t bson_size = 0;
  // The heap the Value tree owns (CacheCharge(key, doc) minus
  // CacheCharge(key, Value::Null())).
  size_t heap = 0;
};

// `doc` must be an object.
WriteWalk WalkForWrite(const Value& doc);

// CacheCharge(key, doc) from the walk of `doc`.
size_t CacheChargeFromWalk(absl::string_view key, const WriteWalk& walk);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_WRITE_WALK_H_
