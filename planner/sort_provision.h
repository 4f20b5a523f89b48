// "Can this index serve this sort?": MongoDB's rules for the sort orders an
// index scan provides (src/mongo/db/query/query_solution.cpp,
// computeSortsForScan and confirmBoundsProvideSortComponentGivenMultikeyness),
// as a pure function of the key pattern, the multikey flag and the shape of
// the scan's bounds. No LevelDB, no documents.
#ifndef TTLDB_PLANNER_SORT_PROVISION_H_
#define TTLDB_PLANNER_SORT_PROVISION_H_

#include <string>

#include "absl/types/span.h"
#include "index/index_descriptor.h"
#include "query/sort.h"

namespace ttldb {
namespace planner {

// The bounds a scan has on one key field.
enum class FieldBounds {
  kFull,   // [MinKey, MaxKey]: the field is not bounded
  kPoint,  // one value (an equality, or $in with one value)
  kOther,  // a range, or several points ($in)
};

struct SortProvision {
  bool provided = false;
  // When provided: whether the index must be scanned backward (from its
  // highest key to its lowest).
  bool backward = false;
  // When not provided: why, for explain (e.g. "index a_1 is multikey and
  // the scan has bounds on the sort field a").
  std::string reason;
};

// Whether scanning the index `spec` forward, or else backward, within bounds
// of the shape `bounds` (one per key field) returns documents in `sort`
// order, each at its first key. A backward scan provides the key pattern
// with every direction reversed ({a: 1, b: -1} gives {a: -1, b: 1}), as
// MongoDB's QueryPlannerAnalysis::analyzeSort reverses a scan that provides
// the reverse of the sort (src/mongo/db/query/planner_analysis.cpp). The
// forward scan is preferred when both provide it (a sort on equality fields
// only). MongoDB's rules:
//  - fields with point bounds are "equality fields": they may appear
//    anywhere in the sort or not at all;
//  - the sort, without equality fields, must be a prefix of the key pattern
//    without equality fields, in the same directions;
//  - a multikey field cannot provide a sort when it has bounds other than
//    [MinKey, MaxKey], nor when another multikey field with such bounds
//    shares a path prefix with it (SERVER-31898): the scan would meet a
//    document first at a key that is not its sort key (the whole array's
//    minimum ascending, maximum descending; a backward scan meets the
//    maximum of an ascending field first). Such a field with point bounds
//    is skipped by the sort pattern but may not appear in the sort.
// ttldb keeps one multikey flag per index, not MongoDB's per-path
// multikeyPaths, so when `multikey` is true every field counts as multikey.
// Also, while the in-memory sort keys of dotted paths through arrays are not
// MongoDB's index-style keys (review T6), a multikey index does not provide
// a sort on a dotted field that is not an equality field.
SortProvision IndexProvidesSort(const IndexSpec& spec, bool multikey,
                                absl::Span<const FieldBounds> bounds,
                                const SortSpec& sort);

}  // namespace planner
}  // namespace ttldb

#endif  // TTLDB_PLANNER_SORT_PROVISION_H_
