// MongoDB sort specifications: {field: 1 | -1, ...}.
#ifndef TTLDB_QUERY_SORT_H_
#define TTLDB_QUERY_SORT_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "document/collator.h"
#include "document/path_keys.h"
#include "ttldb/value.h"

namespace ttldb {

// Orders documents as MongoDB's find sort does (index/sort_key_generator.cpp):
// a document sorts by the index key an index on the sort pattern would give
// it first. The key generator is the index's (document/path_keys.h), so
//  - values of different types follow MongoDB's type order (document/
//    compare.h); numbers compare by value across int/long/double;
//  - a missing field, or a scalar met on a dotted path with path left over
//    ({"a.b": 1} over {a: [{b: 1}, 5]} has keys 1 and null), sorts as null;
//  - an array sorts by its smallest element when ascending and by its
//    largest when descending; an empty array sorts below null (MongoDB's
//    `undefined` key) in either direction's order;
//  - a compound sort takes the tuples per array element ({"a.x": 1, "a.y":
//    1} over {a: [{x: 1, y: 1}, {x: 2, y: 0}]} sorts by (1, 1)), the first
//    tuple in the pattern's order;
//  - two different arrays on the sort paths ({x: [1, 2], y: [3, 4]} sorted
//    {x: 1, y: 1}) are the error BadValue (2) "cannot sort with keys that
//    are parallel arrays".
// Immutable after Parse; safe to share between threads.
class SortSpec {
 public:
  // Each value must be the number 1 or -1; otherwise InvalidArgument code
  // 15975 "$sort key ordering must be 1 (for ascending) or -1 (for
  // descending)". An empty spec is valid and orders nothing.
  static absl::StatusOr<SortSpec> Parse(const Value& spec);
  // As above, strings (also inside arrays and objects) ordered by
  // `collator` (nullptr: bytewise), as a sort with that collation.
  static absl::StatusOr<SortSpec> Parse(
      const Value& spec, std::shared_ptr<const Collator> collator);

  // A document's sort key. It points into the document, which must outlive
  // it and stay unchanged.
  struct Key {
    std::vector<KeyElement> elements;
  };

  // The sort key of `doc`, or the BadValue error above.
  absl::StatusOr<Key> KeyOf(const Value& doc) const;

  // <0 if a document with key `a` sorts before one with key `b`, 0 if tied,
  // >0 otherwise. Both keys must come from this spec's KeyOf.
  int CompareKeys(const Key& a, const Key& b) const;

  // The comparison of $push's {$sort: {field: 1, ...}} (MongoDB's
  // PatternElementCmp, update/pattern_cmp.cpp), which is not the find
  // sort's: each field is looked up exactly (document/path.h GetPath:
  // numeric components index arrays, nothing else traverses them; an
  // element that is not an object has no fields), a missing field is null,
  // and values, arrays included, compare whole.
  int CompareElements(const Value& a, const Value& b) const;

  // (path, direction) pairs in spec order; direction is 1 or -1.
  const std::vector<std::pair<std::string, int>>& fields() const {
    return fields_;
  }

  // The collation it orders strings by (nullptr: simple).
  const Collator* collator() const { return collator_.get(); }

 private:
  std::vector<std::pair<std::string, int>> fields_;
  std::vector<std::string> paths_;
  std::shared_ptr<const PathKeyGenerator> keys_;  // over paths_, not sparse
  std::shared_ptr<const Collator> collator_;      // nullptr: simple
};

}  // namespace ttldb

#endif  // TTLDB_QUERY_SORT_H_
