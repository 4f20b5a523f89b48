// Bounded lifetimes (beyond MongoDB): write-time checks that keep a TTL
// index's promises. The engine calls CheckLifetime on every insert, update
// and replacement of a document that the index covers (the partial filter is
// the engine's to check), before committing.
//
// - max_lifetime_seconds L: the document must expire no later than now + L,
//   i.e. its earliest indexed Date + E <= now + L. A document whose field
//   holds no Date would never expire, so it is rejected too: with a bounded
//   lifetime every covered document has an end.
// - reject_expired: a document already expired at `now` (IsExpired) is
//   rejected rather than written and swept.
#ifndef TTLDB_TTL_LIFETIME_H_
#define TTLDB_TTL_LIFETIME_H_

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "index/index_descriptor.h"
#include "ttldb/value.h"

namespace ttldb {

// OK when `spec` has neither option, when it is not an active TTL index
// (ActiveExpireAfterSeconds), or when `doc` satisfies both. Otherwise 121
// DocumentValidationFailure, naming the field, the index and the limit:
//   "Document failed validation: field 'expireAt' expires at
//    2027-01-01T00:00:00.000Z, more than maxLifetimeSeconds 86400 after now
//    (2026-01-01T00:00:00.000Z) under index 'expireAt_1'"
//   "Document failed validation: field 'expireAt' holds no date, so the
//    document would never expire under index 'expireAt_1' with
//    maxLifetimeSeconds 86400"
//   "Document failed validation: field 'accessTime' is already expired at
//    <now> under index 'accessTime_1' (expireAfterSeconds 3600) with
//    rejectExpired"
absl::Status CheckLifetime(const IndexSpec& spec, const Value& doc,
                           absl::Time now);

}  // namespace ttldb

#endif  // TTLDB_TTL_LIFETIME_H_
