// The rules of index DDL: what createIndexes, collMod's index options and
// dropIndexes by key check against a collection's catalog before anything
// is written, as MongoDB's catalog checks them
// (src/mongo/db/catalog/index_catalog_impl.cpp prepareSpecForCreate,
// _isSpecOk and _doesSpecConflictWithExisting; coll_mod.cpp and
// coll_mod.idl; drop_indexes.cpp). Pure functions of the request and the
// compiled state: the engine's DDL commands call them under the writers'
// lock, then commit the catalog entry and run the build.
// Internal to ttldb.
#ifndef TTLDB_CATALOG_INDEX_RULES_H_
#define TTLDB_CATALOG_INDEX_RULES_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "index/index_descriptor.h"
#include "proto/catalog.pb.h"
#include "storage/collection_state.h"
#include "ttldb/value.h"

namespace ttldb {

// 64 indexes per collection, _id included: MongoDB's limit.
inline constexpr size_t kMaxIndexes = 64;

// The spec listIndexes shows for the _id index every collection has:
// {v: 2, key: {_id: 1}, name: "_id_"}.
Value IdIndexSpec();

// Whether `spec`'s key is the _id index's ({_id: 1} or {_id: -1}, not
// hashed: IndexDescriptor::isIdIndexPattern).
bool IsIdIndexKey(const IndexSpec& spec);

// createIndexes' checks of one requested index before the collection is
// looked at (index_key_validate.cpp validateIndexSpec,
// index_catalog_impl.cpp prepareSpecForCreate): the parsed spec
// (index/index_spec.h ParseIndexSpec), a TTL index's expireAfterSeconds
// normalized (ttl/ttl_spec.h) and within `touch_min_interval`
// (ttl/touch_interval.h), the lifetime options, and either the _id index's
// options (`id_index`: {_id: 1} or {_id: -1} without expireAfterSeconds,
// which names the index every collection has: nothing to build) or the
// partial filter's. `spec_text` is the spec as requested, for messages.
struct CreateIndexRequest {
  IndexSpec spec;
  std::string spec_text;
  bool id_index = false;
};
absl::StatusOr<CreateIndexRequest> PrepareCreateIndex(
    const Value& keys, const Value& options, absl::Duration touch_min_interval,
    absl::string_view coll);

// The request's checks against the collection it is created on (`state`,
// published): an index created without a collation gets the collection's
// default (index_key_validate.cpp; {locale: "simple"} opts out), and a
// capped collection has no TTL index (67 CannotCreateIndex "Cannot create
// TTL index on a capped collection": _isSpecOk).
absl::Status ApplyCollectionToIndex(const CollectionState& state,
                                    const Value& options, IndexSpec* spec);

// The index dropIndexes drops by `name` (drop_indexes.cpp): 72
// InvalidOptions "cannot drop _id index", 26 NamespaceNotFound "ns not
// found <coll>" (`state` null), 27 IndexNotFound "index not found with
// name [<name>]".
absl::StatusOr<const IndexState*> FindIndexToDrop(const CollectionState* state,
                                                  absl::string_view coll,
                                                  absl::string_view name);

// The name of the index dropIndexes drops by key pattern `keys`: "_id_"
// for the _id index's key (which FindIndexToDrop refuses), 189
// AmbiguousIndexKeyPattern when several indexes have the key, 27
// IndexNotFound "can't find index with key: <keys>" when none has
// (`state` null: no indexes).
absl::StatusOr<std::string> IndexNameForKey(const CollectionState* state,
                                            const Value& keys);

// maxLifetimeSeconds and rejectExpired (ttldb's TTL options) only on a TTL
// index, a cap never below expireAfterSeconds: error `code` otherwise
// (CannotCreateIndex for a create, InvalidOptions for a collMod).
absl::Status CheckLifetimeOptions(const IndexSpec& spec, int code);

// An _id index may be neither unique, sparse nor partial: 197
// InvalidIndexSpecificationOption "The _id index cannot be unique, sparse
// or partial. Specification: <spec>".
absl::Status CheckIdIndexOptions(const IndexSpec& spec,
                                 absl::string_view spec_text);

// A partialFilterExpression parses and uses only MongoDB's partial filter
// operators (query/partial_filter_check.h): 67 CannotCreateIndex "Error in
// specification <spec> :: caused by :: ..." otherwise. OK without one.
absl::Status CheckPartialFilterSpec(const IndexSpec& spec,
                                    absl::string_view spec_text);

// _doesSpecConflictWithExisting: OK when `spec` may be created beside
// `existing` or is identical to the index of its name (a no-op); 85
// IndexOptionsConflict or 86 IndexKeySpecsConflict, with MongoDB's
// messages, otherwise.
absl::Status CheckIndexConflicts(
    const IndexSpec& spec, absl::string_view spec_text,
    const std::vector<const IndexState*>& existing);

// One more index beside `existing` (the _id index not counted) must keep
// the collection within kMaxIndexes: 67 CannotCreateIndex "add index
// fails, too many indexes for <coll> key:<keys>".
absl::Status CheckIndexCount(size_t existing, absl::string_view coll,
                             const Value& keys);

// The indexes of `state` whose key pattern is `wanted`'s.
std::vector<const IndexSpec*> IndexesWithKey(const CollectionState& state,
                                             const IndexSpec& wanted);

// collMod's `index` argument (coll_mod.idl CollModIndex): the index by
// `name` or `keyPattern` (exactly one), and the options it changes.
struct CollModIndex {
  const Value* name = nullptr;         // into the command
  const Value* key_pattern = nullptr;  // into the command
  std::optional<int64_t> expire_after_seconds;
  std::optional<bool> hidden;
  std::optional<int64_t> max_lifetime_seconds;  // -1: remove the cap
  std::optional<bool> reject_expired;
};
// Parses `index` (it must outlive the result). 72 InvalidOptions for a
// shape collMod refuses, 14 TypeMismatch for a non-number
// expireAfterSeconds.
absl::StatusOr<CollModIndex> ParseCollModIndex(const Value& index);

// The index of `state` that `request` names (coll_mod.cpp): the _id
// index's refusals, 27 IndexNotFound "cannot find index <name> for ns
// <coll>", 189 AmbiguousIndexKeyPattern when a key pattern names several.
absl::StatusOr<const IndexSpec*> FindCollModIndex(const CollectionState& state,
                                                  const CollModIndex& request,
                                                  absl::string_view coll);

// Applies `request` to `target`, the stored spec of `current` (so that the
// fields this ttldb does not know, a newer one's, are kept), and returns
// collMod's reply fields (expireAfterSeconds_old / _new, hidden_old /
// _new, ...). A new expireAfterSeconds must respect `touch_min_interval`
// (ttl/touch_interval.h).
absl::StatusOr<Value::Object> ApplyCollModIndex(
    const IndexSpec& current, const CollModIndex& request,
    absl::Duration touch_min_interval, absl::string_view coll,
    proto::IndexSpec* target);

}  // namespace ttldb

#endif  // TTLDB_CATALOG_INDEX_RULES_H_
