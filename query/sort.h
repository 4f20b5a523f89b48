// MongoDB sort specifications: {field: 1 | -1, ...}.
#ifndef TTLDB_QUERY_SORT_H_
#define TTLDB_QUERY_SORT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "document/value.h"

namespace ttldb {

// Orders documents as MongoDB's sort does:
//  - values of different types follow MongoDB's type order (document/
//    compare.h); numbers compare by value across int/long/double;
//  - a missing field sorts as null;
//  - an array field sorts by its smallest element when ascending and by its
//    largest when descending; an empty array sorts below null (and below a
//    missing field) in either direction;
//  - dotted paths traverse arrays of objects ({"a.b": 1} over
//    {a: [{b: 3}, {b: 1}]} sorts by 1 ascending, 3 descending).
// Immutable after Parse; safe to share between threads.
class SortSpec {
 public:
  // Each value must be the number 1 or -1; otherwise InvalidArgument code
  // 15975 "$sort key ordering must be 1 (for ascending) or -1 (for
  // descending)". An empty spec is valid and orders nothing (Compare is 0).
  static absl::StatusOr<SortSpec> Parse(const Value& spec);

  // <0 if `a` sorts before `b`, 0 if tied, >0 otherwise.
  int Compare(const Value& a, const Value& b) const;

  // (path, direction) pairs in spec order; direction is 1 or -1.
  const std::vector<std::pair<std::string, int>>& fields() const {
    return fields_;
  }

 private:
  std::vector<std::pair<std::string, int>> fields_;
  std::vector<std::vector<std::string>> parts_;
};

}  // namespace ttldb

#endif  // TTLDB_QUERY_SORT_H_
