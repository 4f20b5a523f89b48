// The TTL rules of one collection, as a value a program can apply to
// documents it has not stored: when would this document expire here?
//
//   ASSIGN_OR_RETURN(ttldb::ExpiryRules rules, coll.ExpiryRules());
//   std::optional<absl::Time> at = rules.ExpiresAt(doc);
//
// The rules are those of the collection's TTL indexes when ExpiryRules() was
// called (a later createIndex or collMod is not seen), with the TTL
// monitor's semantics: the earliest Date the index's path reaches in the
// document (an array at the end of the path expanded one level), plus the
// index's expireAfterSeconds; an index whose partialFilterExpression the
// document does not match (in the index's collation) gives no expiry, nor does
// one with no Date at its path or an inactive expireAfterSeconds (NaN,
// negative). `ttldb import` uses them to skip documents that would be expired
// on arrival.
//
// Thread-safe: an ExpiryRules is immutable and cheap to copy.
#ifndef TTLDB_EXPIRY_RULES_H_
#define TTLDB_EXPIRY_RULES_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "ttldb/value.h"

namespace ttldb {

// When `doc` expires under one TTL index.
struct IndexExpiry {
  std::string index;            // the index's name
  absl::Time expires_at;        // indexed date + expireAfterSeconds
  bool reject_expired = false;  // the index has rejectExpired: true
};

class ExpiryRules {
 public:
  // No TTL index: nothing expires.
  ExpiryRules();
  ~ExpiryRules();
  ExpiryRules(const ExpiryRules&);
  ExpiryRules& operator=(const ExpiryRules&);

  // The rules of the indexes in `index_specs`, MongoDB's listIndexes shape
  // ({key, name, expireAfterSeconds, partialFilterExpression, ...}; what
  // Collection::ListIndexes returns). Specs without an active
  // expireAfterSeconds are ignored; a partialFilterExpression that does not
  // parse, or a collation Collator::Make refuses, is an error.
  static absl::StatusOr<ExpiryRules> FromIndexSpecs(
      const std::vector<Value>& index_specs);

  // The expiry each TTL index gives `doc`, earliest first (ties in index
  // order); empty when none does.
  std::vector<IndexExpiry> Expiries(const Value& doc) const;

  // The earliest of Expiries(doc): when `doc` would be absent; nullopt when
  // no TTL index applies to it.
  std::optional<absl::Time> ExpiresAt(const Value& doc) const;

  // The number of TTL indexes the rules hold.
  size_t size() const;

 private:
  struct Rep;
  std::shared_ptr<const Rep> rep_;
};

}  // namespace ttldb

#endif  // TTLDB_EXPIRY_RULES_H_
