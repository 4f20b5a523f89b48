// Validation of the TTL options of an index spec (expireAfterSeconds), with
// MongoDB's rules, error codes and wording, and the reading of those options
// back from the catalog, where an invalid value makes the index inactive.
#ifndef TTLDB_TTL_TTL_SPEC_H_
#define TTLDB_TTL_TTL_SPEC_H_

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "index/index_descriptor.h"
#include "ttldb/value.h"

namespace ttldb {

// 2147483647: MongoDB stores expireAfterSeconds of a secondary index as an
// int32 (listIndexes and collMod declare it safeInt).
inline constexpr int64_t kMaxExpireAfterSeconds = 2147483647;

// Checks the value of an `expireAfterSeconds` option as given by the user and
// returns it truncated toward zero (MongoDB's safeNumberLong): 3600.9 ->
// 3600, -0.5 -> 0. Errors, all code 67 CannotCreateIndex:
//   not a number: "TTL index 'expireAfterSeconds' option must be numeric,
//                  but received a type of '<type>'"
//   NaN:          "TTL index 'expireAfterSeconds' option must not be NaN"
//   outside int32 (infinities included):
//                 "TTL index 'expireAfterSeconds' must be within the range
//                  of a 32-bit integer"
//   negative:     "TTL index 'expireAfterSeconds' option cannot be less
//                  than 0"
absl::StatusOr<int64_t> ParseExpireAfterSeconds(const Value& value);
absl::StatusOr<int64_t> NormalizeExpireAfterSeconds(double value);

// Validates the TTL options of `spec` at createIndex / collMod time. OK when
// `spec` has no expire_after_seconds. Otherwise checks, in MongoDB's order:
// the value (NormalizeExpireAfterSeconds), a single-field key pattern
// (67 "TTL indexes are single-field indexes, compound indexes do not support
// TTL"), and not the _id field (197 InvalidIndexSpecificationOption "The
// field 'expireAfterSeconds' is not valid for an _id index specification").
// When `spec_text` (the user's spec as JSON) is not empty, messages end with
// ". Index spec: <spec_text>" (". Specification: <spec_text>" for 197), as
// MongoDB's do. Does not modify `spec`: see NormalizeTtlSpec.
absl::Status ValidateTtlOptions(const IndexSpec& spec,
                                absl::string_view spec_text = {});

// ValidateTtlOptions, then stores the truncated value in `spec` so that the
// catalog only ever holds an integer.
absl::Status NormalizeTtlSpec(IndexSpec* spec,
                              absl::string_view spec_text = {});

// The expireAfterSeconds the TTL monitor must use for a spec read from the
// catalog: the value truncated toward zero when it is valid (a fractional
// 3600.9 is active as 3600, as MongoDB's safeNumberLong reads it),
// std::nullopt when it is absent (not a TTL index) or invalid (NaN,
// infinite, negative or above int32 after truncation, compound or _id key,
// as a damaged or older file might hold). An invalid value is never read as
// 0: the index is inactive (never deletes) and the monitor counts it in
// invalidTTLIndexSkips. Use IsTtlIndex to tell the two std::nullopt cases
// apart.
std::optional<int64_t> ActiveExpireAfterSeconds(const IndexSpec& spec);

// 2147483647: what listIndexes (and so export) shows for a stored
// expireAfterSeconds that is invalid, as MongoDB's repairIndexSpec does
// (kExpireAfterSecondsForInactiveTTLIndex, src/mongo/db/catalog/
// index_key_validate.h), so that the listed spec can be created again.
inline constexpr int32_t kExpireAfterSecondsForInactiveTtlIndex = 2147483647;

// Whether a stored expireAfterSeconds value passes MongoDB's
// validateExpireAfterSeconds for a secondary index: a number, not NaN, and
// 0..2147483647 once truncated toward zero.
bool IsValidStoredExpireAfterSeconds(double value);

// True when `spec` declares expireAfterSeconds, valid or not.
inline bool IsTtlIndex(const IndexSpec& spec) {
  return spec.expire_after_seconds.has_value();
}

}  // namespace ttldb

#endif  // TTLDB_TTL_TTL_SPEC_H_
