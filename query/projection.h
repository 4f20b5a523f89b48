// MongoDB find projections: inclusion ({a: 1, "b.c": 1}) or exclusion
// ({a: 0}) of fields.
#ifndef TTLDB_QUERY_PROJECTION_H_
#define TTLDB_QUERY_PROJECTION_H_

#include <memory>

#include "absl/status/statusor.h"
#include "document/value.h"

namespace ttldb {

// Semantics as MongoDB's:
//  - a value of 1/true (any non-zero number) includes a field, 0/false
//    excludes it; a projection is either all inclusions or all exclusions,
//    except `_id`, which is included by default and may be excluded
//    ({_id: 0}) in either mode;
//  - dotted paths select embedded fields; through arrays they apply to every
//    object element (inclusion drops scalar elements; an included parent
//    that lacks the child becomes {});
//  - fields keep the document's order; {} returns the document unchanged.
// Errors (InvalidArgument): 31254 "Cannot do exclusion on field b in
// inclusion projection", 31253 "Cannot do inclusion on field a in exclusion
// projection", 31250 "Path collision at ...", 2 for operators/expressions
// ($slice, $elemMatch, $meta, computed fields), which ttldb does not support.
// Immutable after Parse; safe to share between threads.
class Projection {
 public:
  static absl::StatusOr<Projection> Parse(const Value& spec);

  // The projected copy of `doc` (an object).
  Value Apply(const Value& doc) const;

  bool is_inclusion() const { return inclusion_; }

  struct Node;

 private:
  bool inclusion_ = false;
  bool empty_ = true;
  std::shared_ptr<const Node> root_;
};

}  // namespace ttldb

#endif  // TTLDB_QUERY_PROJECTION_H_
