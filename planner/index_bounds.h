// Index key ranges of filter predicates: which predicates an index can look
// up, and the key-space ranges (index/key_codec.h encodings) they cover.
#ifndef TTLDB_PLANNER_INDEX_BOUNDS_H_
#define TTLDB_PLANNER_INDEX_BOUNDS_H_

#include <string>
#include <utility>
#include <vector>

#include "query/filter.h"
#include "ttldb/value.h"

namespace ttldb {
namespace planner {

// [begin, end) in key bytes; end "" means no upper bound.
using KeyRange = std::pair<std::string, std::string>;

// One interval of a field's bounds, for explain, in value order: lo <= hi
// (texts such as "5", "number max").
struct Interval {
  std::string lo, hi;
  bool lo_inclusive = true, hi_inclusive = true;
};

// The key ranges of a hashed field's equality or $in (MongoDB's hashed
// bounds: one point per distinct hash of the values, index/key_gen.cc
// BsonHash64), ascending; false for any other predicate, or a value an
// index cannot look up (IndexableEquality; null in a sparse index). The
// text is the hashes, "[h, h]", as MongoDB's explain shows them.
bool HashedFieldRanges(const MatchExpr& e, bool sparse,
                       std::vector<KeyRange>* out, std::vector<Interval>* text);

// Explain's text of a field's intervals, e.g. "[1, 1], (5, number max]".
// `reversed`: in descending value order, each interval written high end
// first ("[number max, 5)"), as MongoDB prints the bounds of a descending
// key field, or of an ascending one scanned backward
// (IndexBoundsBuilder::alignBounds, src/mongo/db/query/
// index_bounds_builder.cpp: a field whose direction times the scan's
// direction is -1 has its interval list and each interval reversed).
std::string RenderIntervals(const std::vector<Interval>& intervals,
                            bool reversed);

// Values an index can look up by equality: not arrays (an array equality
// also matches documents holding it as an element, which the index keys as
// its elements), not regexes, not MinKey/MaxKey.
bool IndexableEquality(const Value& v);

// Key-space ranges of one field's predicate ($eq, $in, $gt, $gte, $lt,
// $lte), ascending and disjoint, in a field of direction `descending`; false
// when the predicate cannot bound the field (a sparse index cannot look up
// null, which also matches documents it skips). *text gets the explain
// intervals, e.g. [1, 1] or (5, number max].
bool FieldRanges(const MatchExpr& e, bool descending, bool sparse,
                 std::vector<KeyRange>* out, std::vector<Interval>* text);

// The intersection of several range predicates on one field: valid only
// when a document has one value for the field (a non-multikey index).
KeyRange IntersectRanges(const std::vector<const MatchExpr*>& preds,
                         bool descending, bool sparse,
                         std::vector<Interval>* text);

}  // namespace planner
}  // namespace ttldb

#endif  // TTLDB_PLANNER_INDEX_BOUNDS_H_
