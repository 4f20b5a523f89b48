// MongoDB find projections: inclusion ({a: 1, "b.c": 1}) or exclusion
// ({a: 0}) of fields, and the find-only operators: positional "a.$",
// {a: {$slice: n | [skip, limit]}} and {a: {$elemMatch: {...}}}.
#ifndef TTLDB_QUERY_PROJECTION_H_
#define TTLDB_QUERY_PROJECTION_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "query/filter.h"
#include "query/sort.h"
#include "ttldb/value.h"

namespace ttldb {
namespace agg {
class Expression;
}  // namespace agg
}  // namespace ttldb

namespace ttldb {

// Semantics as MongoDB 8.0's (query/projection_parser.cpp,
// exec/projection_executor_utils.cpp):
//  - a value of 1/true (any non-zero number) includes a field, 0/false
//    excludes it; a projection is either all inclusions or all exclusions,
//    except `_id`, which is included by default and may be excluded
//    ({_id: 0}) in either mode;
//  - dotted paths select embedded fields; through arrays they apply to every
//    object element (inclusion drops scalar elements; an included parent
//    that lacks the child becomes {});
//  - fields keep the document's order; {} returns the document unchanged;
//  - "a.$" (or "a.b.$", inclusion only) replaces the first array on the path
//    by the one element the query matched there (MatchDetails);
//  - {a: {$slice: n}} keeps the first n (last -n) elements of the array at
//    `a` (dotted paths go through arrays of objects); [skip, limit] skips
//    (from the end when negative) then keeps `limit`. $slice does not
//    decide the mode: alone it is an exclusion projection (an inclusion if
//    {_id: 1} is given);
//  - {a: {$elemMatch: {...}}} (top-level fields only) returns, as a
//    one-element array, the first element of `a` that matches, placed after
//    the included fields; nothing when none matches. It makes the
//    projection an inclusion unless an exclusion is given;
//  - a nested object that is not an operator is the dotted form
//    ({a: {b: 1, c: {$slice: 2}}} is {"a.b": 1, "a.c": {$slice: 2}}); an
//    empty one is 51270;
//  - any other value is a computed field (a literal, "$path", an
//    aggregation expression, "$$REMOVE" for nothing), evaluated against the
//    whole document and set at its path (through arrays, replacing scalars
//    by objects); it makes the projection an inclusion (31252 in an
//    exclusion);
//  - {a: {$meta: "sortKey"}} sets `a` to the array of the document's sort
//    key values (the find must have a sort); it does not decide the mode.
// Errors (InvalidArgument, MongoDB's code and message): 31254/31253 mixed
// inclusion and exclusion, 31250 path collision, 31276 two positionals,
// 31256/31255 positional with $elemMatch, 51050 positional without a query,
// 31277 positional on a field the query does not test, 31270 path ending in
// ".$.", 31287 positional twice in a path, 31271/31308 positional with an
// object or literal value, 16410 "a.$": 0, 31272/31257/31258/31259/31273
// malformed $slice, 31274/31275 malformed or nested $elemMatch, 2 for other
// $meta names other than "sortKey", which ttldb does not
// support (other $meta names). Apply fails with 51246 when the query matched
// but recorded no array position for the positional path, 51247 when that
// position is past the projected array's end. Immutable after Parse; safe to
// share between threads.
class Projection {
 public:
  // `query` (the find's filter) is needed by a positional projection; it is
  // copied.
  static absl::StatusOr<Projection> Parse(const Value& spec,
                                          const Filter* query = nullptr);

  // The projected copy of `doc` (an object, which matched the query).
  // `sort` gives the values of {$meta: "sortKey"} fields (null without
  // one).
  absl::StatusOr<Value> Apply(const Value& doc,
                              const SortSpec* sort = nullptr) const;

  bool is_inclusion() const { return inclusion_; }
  // Whether some field is {$meta: "sortKey"}.
  bool wants_sort_key() const { return !sort_keys_.empty(); }

  struct Node;

 private:
  struct Slice {
    std::vector<std::string> parts;
    std::optional<int> skip;
    int limit = 0;
  };
  struct ElemMatch {
    std::string field;
    std::shared_ptr<const Filter> filter;
  };

  struct Computed {
    std::vector<std::string> parts;
    std::shared_ptr<const agg::Expression> expr;
  };

  absl::Status ApplyPositional(const Value& doc, Value* out) const;
  absl::Status ApplyComputed(const Value& doc, const SortSpec* sort,
                             Value* out) const;

  bool inclusion_ = false;
  bool empty_ = true;
  std::shared_ptr<const Node> root_;
  std::vector<Slice> slices_;
  std::vector<ElemMatch> elem_matches_;
  std::vector<Computed> computed_;
  // The paths of the {$meta: "sortKey"} fields.
  std::vector<std::vector<std::string>> sort_keys_;
  // The path before ".$" of a positional projection, and the query.
  std::vector<std::string> positional_;
  std::shared_ptr<const Filter> query_;
};

}  // namespace ttldb

#endif  // TTLDB_QUERY_PROJECTION_H_
