// Which filters a partial index may have (MongoDB 8.0's
// _checkValidFilterExpressions, src/mongo/db/catalog/index_catalog_impl.cpp).
#ifndef TTLDB_QUERY_PARTIAL_FILTER_CHECK_H_
#define TTLDB_QUERY_PARTIAL_FILTER_CHECK_H_

#include "absl/status/status.h"
#include "query/filter.h"

namespace ttldb {

// The deepest nesting a partial filter may have: MongoDB's
// internalPartialFilterExpressionMaxDepth default.
inline constexpr int kPartialFilterMaxDepth = 4;

// OK if `filter` uses only what MongoDB 8.0 allows in a
// partialFilterExpression: equality ($eq, {a: v}), $exists: true, $gt,
// $gte, $lt, $lte, $type, $in, $and and $or (an $all of values, which is an
// $and of equalities, too), nested at most kPartialFilterMaxDepth levels
// (a document with one condition is that condition; with several, an $and
// of them). Anything else - $ne, $nin, $exists: false (all negations),
// $not, $nor, $regex and /re/, $mod, $size, $elemMatch, an empty $all - is
// the error 67 CannotCreateIndex "Expression not supported in partial
// index: <MongoDB's debugString of that expression>", e.g. "a regex /x/\n"
// or "$not\n    a exists\n"; too deep is 67 "partialFilterExpression depth
// may not exceed 4". A regex in an $in list is accepted, as MongoDB does.
absl::Status CheckPartialFilter(const Filter& filter);

}  // namespace ttldb

#endif  // TTLDB_QUERY_PARTIAL_FILTER_CHECK_H_
