// A collection and its indexes as the storage layer sees them: compiled
// from the catalog (proto/catalog.proto) once, immutable once published.
#ifndef TTLDB_STORAGE_COLLECTION_STATE_H_
#define TTLDB_STORAGE_COLLECTION_STATE_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "index/index_descriptor.h"
#include "proto/catalog.pb.h"
#include "query/filter.h"

namespace ttldb {

// One index of a collection, compiled for use. Immutable once published.
struct IndexState {
  IndexSpec spec;      // its catalog entry, parsed (catalog/index_spec_proto.h)
  std::string prefix;  // IndexPrefix(coll, index)
  std::optional<Filter> partial;       // partialFilterExpression
  std::optional<int64_t> ttl_seconds;  // active TTL (valid E), if any
  // Whether the index may hold several keys per document: true unless the
  // catalog says "not multikey" (an absent flag means unknown).
  bool multikey = true;
  // spec.collation_json compiled; nullptr: simple. Its string keys are
  // this collator's collation keys.
  std::shared_ptr<const Collator> collator;
};

// One collection, compiled. Immutable once published: a change to the
// catalog builds a new CollectionState and swaps the pointer, so readers
// holding the old one keep a consistent view without locks.
struct CollectionState {
  proto::CollectionInfo info;
  std::vector<std::shared_ptr<const IndexState>> indexes;
  // Indexes being built (info.building_indexes; engine/index_build.h):
  // writers maintain their entries, nothing reads them.
  std::vector<std::shared_ptr<const IndexState>> building;
  std::string doc_prefix;  // DocumentPrefix(id)
  // The compiled info.validator_json (nullptr: none), and whether its
  // level is "moderate" / "off" and its action "warn".
  std::shared_ptr<const Filter> validator;
  // Its spec, when it has a $expr: $$NOW is the time of each write, so
  // such a validator is parsed again, with the clock's now, per check.
  std::optional<Value> validator_spec_with_expr;
  bool validation_moderate = false;
  bool validation_off = false;
  bool validation_warn = false;
  // info.collation_json compiled: the collection's default collation
  // (nullptr: simple).
  std::shared_ptr<const Collator> collator;

  bool has_active_ttl() const;
  const IndexState* FindIndex(absl::string_view name) const;
};

}  // namespace ttldb

#endif  // TTLDB_STORAGE_COLLECTION_STATE_H_
