// The conversion between an index's catalog form (proto::IndexSpec, stored
// in each collection's catalog entry; proto/catalog.proto, docs/format.md)
// and the plain IndexSpec that index/, ttl/ and planner/ take
// (index/index_descriptor.h). The engine parses every spec of a catalog
// entry when it compiles the entry (IndexSpecFromProto: IndexState::spec)
// and writes each new index into an entry with IndexSpecToProto. Catalog
// code that changes an index already in an entry (collMod, the multikey
// flag) sets that field of the stored proto instead, so that fields this
// ttldb does not know (a newer one's) are written back unchanged.
//
// The two are exact inverses: every field is copied, and an optional
// (expire_after_seconds, max_lifetime_seconds, multikey) is present in one
// exactly when it is in the other, so a spec converted and converted back
// serializes to the same bytes.
#ifndef TTLDB_CATALOG_INDEX_SPEC_PROTO_H_
#define TTLDB_CATALOG_INDEX_SPEC_PROTO_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include "index/index_descriptor.h"
#include "proto/catalog.pb.h"

namespace ttldb {

// The spec that `stored` describes.
IndexSpec IndexSpecFromProto(const proto::IndexSpec& stored);

// The catalog form of `spec`, replacing whatever `*out` held.
void IndexSpecToProto(const IndexSpec& spec, proto::IndexSpec* out);

}  // namespace ttldb

#endif  // TTLDB_CATALOG_INDEX_SPEC_PROTO_H_
