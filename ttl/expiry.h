// When a document expires under a TTL index: MongoDB's rules, in one place,
// so that the monitor's re-check, hide_expired reads and the bounded
// lifetime checks all agree.
//
// Only Date values expire. A document expires when the index's path reaches
// a Date, or an array holding at least one Date, that is <= now - E, at
// millisecond precision and inclusive. Strings, numbers, Timestamps, null,
// objects and missing fields never expire. Whether the document is in a
// partial index is the caller's concern (the engine checks the filter).
#ifndef TTLDB_TTL_EXPIRY_H_
#define TTLDB_TTL_EXPIRY_H_

#include <cstdint>
#include <optional>

#include "absl/time/time.h"
#include "index/index_descriptor.h"
#include "ttldb/value.h"

namespace ttldb {

// The smallest Date (milliseconds since the epoch) among the values the
// single path of `spec` reaches in `doc`: MongoDB's index traversal
// (CollectPathValues), with an array at the end of the path expanded one
// level, as index keys are. Non-Date values are ignored. std::nullopt when
// there is none, or when `spec` has no key.
std::optional<int64_t> EarliestIndexedDateMillis(const IndexSpec& spec,
                                                 const Value& doc);

// The largest Date (milliseconds) that is expired at `now` under E =
// `expire_after_seconds`: floor(now in ms) - E * 1000, saturating at the
// int64 limits instead of overflowing (use IsDateExpired to compare: it is
// exact even where this clamps).
int64_t CutoffMillis(absl::Time now, int64_t expire_after_seconds);

// True when `date_millis` is expired at `now`: date <= floor(now in ms) -
// E * 1000, computed exactly. Every Date is expired at InfiniteFuture, none
// at InfinitePast.
bool IsDateExpired(int64_t date_millis, int64_t expire_after_seconds,
                   absl::Time now);

// True when `doc` is expired under `spec` with E = `expire_after_seconds`
// at `now` (see the file comment). The partial filter is not checked here.
bool IsExpired(const IndexSpec& spec, int64_t expire_after_seconds,
               const Value& doc, absl::Time now);

// When a document with indexed date `date_millis` expires: date + E.
// Saturates to absl::InfiniteFuture() / InfinitePast() when out of range.
absl::Time ExpiryTime(int64_t date_millis, int64_t expire_after_seconds);

}  // namespace ttldb

#endif  // TTLDB_TTL_EXPIRY_H_
