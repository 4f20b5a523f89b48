// The query planner: chooses how Find reaches the documents of a filter
// (point lookups by _id, one index's key ranges, or a collection scan) and
// whether that order already satisfies the sort. Pure: it sees the indexes'
// specs and multikey flags, never LevelDB; engine/query_exec.cc executes the
// plan it returns.
#ifndef TTLDB_PLANNER_PLANNER_H_
#define TTLDB_PLANNER_PLANNER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "index/index_descriptor.h"
#include "planner/index_bounds.h"
#include "query/filter.h"
#include "query/sort.h"
#include "ttldb/value.h"

namespace ttldb {
namespace planner {

// What the planner knows of one index.
struct IndexInfo {
  const IndexSpec* spec = nullptr;
  std::string prefix;  // key prefix of its entries (opaque bytes)
  // Its partialFilterExpression, or nullptr.
  const MatchExpr* partial = nullptr;
  bool multikey = true;  // may hold several keys for one document
  // Its collation (nullptr: simple): its string keys are collation keys.
  const Collator* collator = nullptr;
};

// cursor.hint(): an index name, or a key pattern ({a: 1}), or {$natural: 1}
// (a collection scan). Empty: the planner chooses.
struct Hint {
  std::string name;
  Value key_pattern;  // null when absent
  bool empty() const { return name.empty() && key_pattern.is_null(); }
};

struct Plan {
  enum class Kind { kCollectionScan, kIdLookup, kIndexScan };
  Kind kind = Kind::kCollectionScan;
  // kIdLookup: the _id values to look up (distinct; the executor orders
  // them by their encoding, which is _id order, or the reverse when
  // `backward`).
  std::vector<Value> ids;
  // kIndexScan: the position of the index in ChoosePlan's `indexes`, and the
  // key ranges [begin, end) (index prefix included), ascending, disjoint.
  int index = -1;
  std::vector<KeyRange> ranges;
  // Set when `ranges` intersect several range predicates on one field,
  // which is valid only while the index is not multikey: the ranges that use
  // only the first of them, for an executor that finds the index multikey
  // after taking its snapshot.
  std::optional<std::vector<KeyRange>> multikey_ranges;
  // Scan from the high end: the collection (or the _id lookups) in
  // descending _id order, or the index ranges last to first, each from its
  // end to its begin (MongoDB's "direction": "backward"). Set to provide a
  // sort ({_id: -1}, or the reverse of an index's order) or by the hint
  // {$natural: -1}.
  bool backward = false;
  // True when the scan order already satisfies the requested sort.
  bool provides_sort = false;
  // True when provides_sort holds only while the index is not multikey: an
  // executor that finds it multikey in its snapshot must sort.
  bool sort_needs_not_multikey = false;
  // When a sort is requested and not provided: why (for explain).
  std::string sort_reason;
  // For explain: {field: ["[lo, hi], ..."]}, in the scan's key order (a
  // backward scan's from high to low: "[5, 1)").
  Value bounds;
};

// Chooses a plan for `filter` and `sort` (nullptr: none). Hidden indexes are
// ignored; unhinted, a partial index is used only when the filter implies its
// expression (planner/implication.h) and a sparse one only when the filter
// excludes documents it skips, so the answer is the collection scan's. A
// hinted index is used whatever the filter (a hinted sparse or partial index
// returns only the documents it holds, as in MongoDB). An index bounds the
// filter or provides the sort only when its collation is the filter's (the
// sort's): MongoDB's rule (planner_ixselect.cpp, query_planner_collation_
// test.cpp), kept strict here: a differing collation excludes the index
// whatever the operands' types; hinted, such an index is scanned whole. _id
// lookups and the _id order serve a collated query only when the _id values
// it names hold no string (the _id order is always binary). A hint that names
// no index, or a hidden one, gives BadValue (2) "hint provided does not
// correspond to an existing index".
absl::StatusOr<Plan> ChoosePlan(absl::Span<const IndexInfo> indexes,
                                const Filter& filter, const SortSpec* sort,
                                const Hint& hint);

}  // namespace planner
}  // namespace ttldb

#endif  // TTLDB_PLANNER_PLANNER_H_
