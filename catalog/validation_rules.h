// Document validation's rules, as MongoDB's create and collMod check them
// (src/mongo/db/catalog/collection_impl.cpp parseValidator,
// coll_mod.cpp): what a validator, a validation level and a validation
// action may be. The engine checks them on create and collMod, and the
// catalog compiles a stored validator with the same ParseValidator
// (catalog/compile.h). Internal to ttldb.
#ifndef TTLDB_CATALOG_VALIDATION_RULES_H_
#define TTLDB_CATALOG_VALIDATION_RULES_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "query/filter.h"
#include "ttldb/value.h"

namespace ttldb {

// A validator: an object, without $where / $text / $near / $nearSphere /
// $geoNear / $function (224 QueryFeatureNotAllowed; $function 4726200),
// that parses as a filter; {} is none (nullptr).
absl::StatusOr<std::shared_ptr<const Filter>> ParseValidator(
    const Value& validator);
// A level: strict, moderate or off; an action: error or warn (2 BadValue
// "Enumeration value '<v>' for field 'validationLevel' is not a valid
// value." otherwise).
absl::Status CheckValidationLevel(absl::string_view level);
absl::Status CheckValidationAction(absl::string_view action);
// Whether a parsed filter holds a $expr anywhere (its $$NOW is the time of
// each write, so such a validator is parsed again per check).
bool HasExpr(const MatchExpr& e);

}  // namespace ttldb

#endif  // TTLDB_CATALOG_VALIDATION_RULES_H_
