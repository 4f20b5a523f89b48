// Whether a query filter implies a partial index's filter expression, so
// that every document the query matches is in the index (MongoDB's
// expression::isSubsetOf, src/mongo/db/matcher/expression_algo.cpp, which
// decides whether a partial index may answer a query).
#ifndef TTLDB_PLANNER_IMPLICATION_H_
#define TTLDB_PLANNER_IMPLICATION_H_

#include "query/filter.h"

namespace ttldb {
namespace planner {

// Conservative: true only when every conjunct of `partial` is implied by one
// top-level conjunct of `query` on the same path: the same predicate; an
// equality or $in whose values satisfy it; a tighter range of the same type;
// or, for {$exists: true}, a predicate that missing fields cannot satisfy.
// False for anything else ($or in the partial filter, for instance), even
// where MongoDB would find the implication.
bool FilterImplies(const MatchExpr& query, const MatchExpr& partial);

}  // namespace planner
}  // namespace ttldb

#endif  // TTLDB_PLANNER_IMPLICATION_H_
