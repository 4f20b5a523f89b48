// Index specifications: parsing createIndex arguments into an IndexSpec
// (index/index_descriptor.h), rendering one for listIndexes, and the
// comparisons the engine needs to detect conflicting index definitions.
#ifndef TTLDB_INDEX_INDEX_SPEC_H_
#define TTLDB_INDEX_INDEX_SPEC_H_

#include <string>

#include "absl/status/statusor.h"
#include "index/index_descriptor.h"
#include "ttldb/value.h"

namespace ttldb {

// 32: MongoDB's maximum number of fields in a compound index.
inline constexpr int kMaxIndexKeyFields = 32;

// Validates a createIndex key pattern and options and returns the spec (its
// `id` left 0 for the engine to assign).
//
// key_pattern: a non-empty object of at most 32 fields; each value 1 or -1
// (Int32, Int64 or Double); each name a dotted path with non-empty
// components none of which starts with '$'; no path twice. Violations are
// 67 CannotCreateIndex.
//
// options: an object (or null for none) with any of
//   name (non-empty string; default MongoDB's "a_1_b_-1"), unique, sparse,
//   hidden, rejectExpired (bool, or a number read as its truth value),
//   partialFilterExpression (object, stored as relaxed Extended JSON; the
//   filter itself is validated by the caller), expireAfterSeconds (any
//   number but NaN, stored as a double; range and integrality are ttl/'s to
//   check; a non-number is 67 CannotCreateIndex in MongoDB's words),
//   maxLifetimeSeconds (an integer), v (must be 2), background (ignored),
//   collation (an object, parsed by Collator::Make with its errors; stored
//   resolved in collation_json, {locale: "simple"} as none; the caller
//   gives an index without the option the collection's default).
// A wrongly typed option is 14 TypeMismatch; any other option is
// 197 InvalidIndexSpecificationOption "The field 'foo' is not valid for an
// index specification. Specification: {...}".
absl::StatusOr<IndexSpec> ParseIndexSpec(const Value& key_pattern,
                                         const Value& options);

// MongoDB's default index name: each path and direction joined by '_'
// ("accessTime_1", "a_1_b_-1", "a.b_1").
std::string DefaultIndexName(const IndexSpec& spec);

// The key pattern as a document: {path: 1 or -1, ...} (Int32 values).
Value KeyPatternToValue(const IndexSpec& spec);

// The listIndexes shape: {v: 2, key: {...}, name: "...", then only the
// options that are set: unique: true, sparse: true, hidden: true,
// partialFilterExpression: {...}, expireAfterSeconds (Int32 when integral
// and in int32 range, else Double), maxLifetimeSeconds, rejectExpired: true,
// collation: {the resolved spec}}.
Value IndexSpecToValue(const IndexSpec& spec);

// Whether two specs index the same paths in the same directions and order.
bool SameKeyPattern(const IndexSpec& a, const IndexSpec& b);

// How a candidate index compares with an existing one, as MongoDB's
// IndexDescriptor::compareIndexOptions (src/mongo/db/index/
// index_descriptor.cpp): kDifferent when the key pattern or an identifying
// option differs (unique, sparse, partialFilterExpression: two indexes that
// differ there can coexist, e.g. two partial TTL indexes on one field; and
// collation, as in MongoDB);
// kEquivalent when those match but another option differs
// (expireAfterSeconds, hidden, maxLifetimeSeconds, rejectExpired: such
// indexes cannot coexist); kIdentical when every option matches. Names and
// ids are ignored. Partial filters compare by their stored JSON text
// (MongoDB compares the parsed expressions).
enum class IndexComparison { kDifferent, kEquivalent, kIdentical };
IndexComparison CompareIndexOptions(const IndexSpec& candidate,
                                    const IndexSpec& existing);

// Whether two specs have the same options, ignoring name and id: unique,
// sparse, hidden, partial filter (as stored text), expireAfterSeconds
// (presence and value), maxLifetimeSeconds, rejectExpired. With
// SameKeyPattern this tells "already exists" (both true) from 85
// IndexOptionsConflict (same key, other options) for the engine.
bool SameOptions(const IndexSpec& a, const IndexSpec& b);

}  // namespace ttldb

#endif  // TTLDB_INDEX_INDEX_SPEC_H_
