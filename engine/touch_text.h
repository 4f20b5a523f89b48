// Setting one top-level Date field of a stored document by patching its
// stored JSON text: Collection::Touch and UpdateOne({_id: X}, {$set: {f:
// <date>}}) without parsing the document into a Value tree or serializing
// it again (docs/benchmarks-history.md "Round 5, session 8: touch").
//
// The result is exactly the general path's (collection.cc ApplyToDocument:
// Value::Set of the field, then DbImpl::WriteDocumentLocked): the new text
// is the old text with the field's value text replaced by the date's
// storage form (or, when the field is absent, `,"f":<date>` before the
// closing brace, where Value::Set appends it), and the index entries come
// from the same WriteDocumentLocked, given small documents holding _id and
// the top-level fields the index keys read. That holds only under
// conditions this path checks; wherever it is unsure it answers kFallback
// and the caller takes the general path:
//  - the filter reads only _id (it is matched against _id alone);
//  - no index (published or being built) has a partial filter, a lifetime
//    cap or reject_expired (they read the whole document);
//  - the field name is plain printable ASCII (no escape when written), does
//    not start with '$' and has no '.';
//  - the document is not in the document cache (a hit keeps the general
//    path, which has the tree already and writes the new one through, so a
//    read after a touch still hits);
//  - every field scanned is read with certainty (storage/json_field_scan.h:
//    no escaped key before it, well-formed brackets) and its value parses;
//  - the BSON size cannot cross the 16 MiB limit (the old value is a Date
//    of the same size, or the stored text is at most 1 MiB).
// Stored texts are ttldb's storage form, which parses and re-serializes to
// the same bytes (ReparsesIdentically holds for what is written), so
// keeping the other fields' bytes is the general path's re-serialization.
// A document written here is not cached (the cache does not grow).
#ifndef TTLDB_ENGINE_TOUCH_TEXT_H_
#define TTLDB_ENGINE_TOUCH_TEXT_H_

#ifndef TTLDB_INTERNAL
#error "engine/touch_text.h is internal to ttldb (depend on //engine:internal)"
#endif

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "engine/db_impl.h"
#include "query/filter.h"

namespace ttldb {

enum class TextSet {
  kFallback,    // unsure: take the general path (nothing was written)
  kNoMatch,     // absent, not matching the filter, or hidden
  kUnmodified,  // matched; the value is already that date (or, for a
                // touch, younger than Options::touch_min_interval)
  kModified,    // matched and written
};

struct TextSetRequest {
  absl::string_view field;  // top-level
  int64_t millis = 0;       // the new Date
  bool touch = false;       // Options::touch_min_interval applies
};

// Whether `filter` reads nothing but _id (every leaf's path starts with
// "_id", no $expr): matching it against {_id} alone is exact.
bool FilterReadsOnlyId(const Filter& filter);

// Sets the field of document `encoded_id` (the caller holds write_mu_ and
// will match `filter` itself on kFallback). `removed` as WriteDocumentLocked.
absl::StatusOr<TextSet> SetDateInStoredText(
    DbImpl* engine, const CollectionState& state, const Filter& filter,
    const std::string& encoded_id, const TextSetRequest& request,
    absl::Time now, const WriteOptions& options,
    DbImpl::ExpiredRemovals* removed)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(engine->write_lock());

// Tests: switch the path off (every call answers kFallback), and count the
// documents it wrote (kModified) since the process started.
void SetStoredTextSetEnabledForTesting(bool enabled);
uint64_t StoredTextSetsForTesting();
// Measurement only (tools/bench/touch_breakdown): on a cache hit, serialize
// the cached tree and splice that instead of taking the general path.
void SetStoredTextSetOnCacheHitsForTesting(bool splice);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_TOUCH_TEXT_H_
