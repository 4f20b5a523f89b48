// Options::hide_expired on a MongoDB deployment: the embedded engine treats
// a document a TTL index has expired as absent before its monitor deletes
// it; MongoDB shows it until its TTL pass (every 60 s). The remote backend
// gives reads and writes the engine's view by adding to their filter the
// condition "no TTL index has expired it", built here from the collection's
// TTL indexes. Pure functions. Internal to //remote.
#ifndef TTLDB_REMOTE_HIDDEN_FILTER_H_
#define TTLDB_REMOTE_HIDDEN_FILTER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "ttldb/value.h"

namespace ttldb {
namespace remote {

// One TTL index: a single-field key and its expireAfterSeconds.
struct TtlRule {
  std::string field;
  int64_t expire_after_seconds = 0;
};

// The TTL rules among listIndexes' specs ({key: {f: 1}, expireAfterSeconds:
// N}; compound keys are not TTL indexes, as in MongoDB).
std::vector<TtlRule> TtlRulesOf(const std::vector<Value>& indexes);

// The condition that keeps the documents no rule has expired at `now`:
// {$nor: [{f: {$lte: <now - E>}}, ...]}. A date field expires when its date
// plus E is at or before now; an array of dates with its earliest, so with
// any element at or before the cutoff, which is what $lte on an array
// matches; a field that is no date never expires, and $lte against a Date
// only matches dates (MongoDB's type bracketing). Null when `rules` is
// empty.
Value VisibleCondition(const std::vector<TtlRule>& rules, absl::Time now);

// `filter` (an object) restricted by VisibleCondition: {$and: [filter,
// condition]}, or `filter` itself when there are no rules.
Value WithVisibleCondition(const Value& filter,
                           const std::vector<TtlRule>& rules, absl::Time now);

// The filter of the document that holds `key_value` (a duplicate key
// error's keyValue: {f: v, ...}) and that a rule has expired at `now`:
// {$and: [{f: {$eq: v}}, ..., {$or: [{g: {$lte: <now - E>}}, ...]}]}, the
// complement of VisibleCondition. What a write that collides with a hidden
// document deletes before it runs again: a live holder never matches it.
// Null when `rules` is empty or `key_value` is no non-empty object.
Value ExpiredHolderFilter(const Value& key_value,
                          const std::vector<TtlRule>& rules, absl::Time now);

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_HIDDEN_FILTER_H_
