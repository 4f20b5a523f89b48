// Compiling a collection's catalog entry (proto::CollectionInfo) into the
// CollectionState that reads and writes use (storage/collection_state.h):
// each index's spec parsed (catalog/index_spec_proto.h), its key prefix,
// collation, partial filter and active TTL; the collection's collation and
// validator. The catalog compiles every entry when the database opens and
// every entry a DDL command writes, before it is published. Internal to
// ttldb.
#ifndef TTLDB_CATALOG_COMPILE_H_
#define TTLDB_CATALOG_COMPILE_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <memory>

#include "absl/status/statusor.h"
#include "proto/catalog.pb.h"
#include "storage/collection_state.h"

namespace ttldb {

// The state `info` describes. DataLoss (naming the collection, and the
// index) for a stored collation, partial filter or validator that no longer
// parses: the entry is damaged.
absl::StatusOr<std::shared_ptr<const CollectionState>> CompileCollection(
    const proto::CollectionInfo& info);

}  // namespace ttldb

#endif  // TTLDB_CATALOG_COMPILE_H_
