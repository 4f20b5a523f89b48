// MongoDB query filters: parse a filter document once, then match documents.
//
//   ASSIGN_OR_RETURN(Filter f, Filter::Parse(filter_doc));
//   if (f.Matches(doc)) ...
//
// Supported: implicit equality and $eq $ne $gt $gte $lt $lte $in $nin
// $exists $type $and $or $nor $not $all $size $elemMatch $regex/$options
// $mod, $expr (an aggregation expression, expr/expression.h, evaluated with
// the document as $$ROOT and $$CURRENT and $$NOW fixed when the filter is
// parsed), $jsonSchema (query/json_schema.h), and $comment (ignored). Semantics
// follow MongoDB's documentation:
//  - a path reaching an array matches if the array itself or any element
//    matches ({a: 5} matches {a: [1, 5]}; {a: [1, 5]} matches the array);
//    dotted paths traverse arrays of objects ({"a.b": 1} matches
//    {a: [{b: 1}]}) and numeric components index arrays ("a.0");
//  - comparisons stay within a type bracket ({a: {$lt: 5}} never matches a
//    string; Dates compare only with Dates);
//  - {a: null} (and $gte/$lte/$in with null) matches a missing field, an
//    explicit null and an array holding null; a dotted path through an
//    array reaches only what the array's object elements (or an element an
//    offset names) hold, so {"a.b": null} does not match {a: []} or
//    {a: [1]} (MongoDB 8.0; query/path_values.h has the exact walk);
//  - $ne, $nin and $not are negations over the whole path, so {a: {$ne: 5}}
//    does not match {a: [1, 5]}.
// Regular expressions use PCRE2 in UTF mode as MongoDB does (see
// document/regex.h); each is compiled once, by Parse. Parse errors are
// InvalidArgument with MongoDB's code (2 BadValue unless noted) and wording.
//
// A Filter is immutable after Parse and may be used from many threads.
#ifndef TTLDB_QUERY_FILTER_H_
#define TTLDB_QUERY_FILTER_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "document/collator.h"
#include "document/regex.h"
#include "expr/expression.h"
#include "query/json_schema.h"
#include "ttldb/value.h"

namespace ttldb {

// One node of a parsed filter. The tree is public so that the index planner
// can read predicates off the root's $and.
struct MatchExpr {
  enum class Kind {
    // Logical nodes: `children`, no path.
    kAnd,  // all children match; an empty kAnd matches everything
    kOr,   // some child matches (non-empty)
    kNor,  // no child matches (non-empty)
    // kNot: `path` is the field it was written on; one child (a kAnd of the
    // operators inside $not) that it negates over the whole path.
    kNot,
    // Leaves: `path` (dotted, "" inside a value-form $elemMatch) and
    // `operand`.
    kEq,      // operand: the value ({a: 5}, {a: {$eq: 5}}); {$eq: /re/}
              // matches only the regex value itself ({a: /re/} is a kRegex)
    kNe,      // operand; == not kEq
    kGt,      // operand, compared within its type bracket
    kGte,     // operand
    kLt,      // operand
    kLte,     // operand
    kIn,      // operands: the list (may hold regexes and null)
    kNin,     // operands; == not kIn
    kExists,  // operand: Bool(true|false)
    kType,    // type_codes: the accepted $type codes (see below)
    kAll,     // operands: the list; children: one kEq (or kElemMatch) per
              // element, all of which must match; an empty list never matches
    kSize,    // operand: Int64(n)
    // kElemMatch: children are the conditions on each array element.
    // elem_match_object: children form a filter applied to object elements
    // ({$elemMatch: {b: 1}}); otherwise they are operators applied to each
    // element value ({$elemMatch: {$gt: 1, $lt: 5}}), with path "".
    kElemMatch,
    kRegex,  // operand: a kRegex Value (pattern and sorted options)
    kMod,    // operand: [divisor, remainder] as Int64 values
    kAlwaysTrue,
    kAlwaysFalse,
    // {$expr: <aggregation expression>} at the top level (or inside
    // $and/$or/$nor): `expr` holds the parsed expression, `operand` its
    // spec, `now_millis` the $$NOW it sees; no path. The document matches
    // when the expression's value is truthy (agg::IsTruthy). The planner
    // never uses it to bound an index scan.
    kExpr,
    // {$jsonSchema: <schema>} at the top level (or inside $and/$or/$nor):
    // `schema` holds the parsed schema (query/json_schema.h), `operand` its
    // spec; no path. Never bounds an index scan.
    kJsonSchema,
  };

  Kind kind = Kind::kAlwaysTrue;
  std::string path;
  std::vector<std::string> parts;  // path split on '.'
  Value operand;
  std::vector<Value> operands;
  std::vector<MatchExpr> children;
  bool elem_match_object = false;
  // $type: MongoDB type numbers (1 double, 2 string, 3 object, 4 array,
  // 5 binData, 7 objectId, 8 bool, 9 date, 10 null, 11 regex, 16 int,
  // 17 timestamp, 18 long, -1 minKey, 127 maxKey) and 0 for "number".
  std::vector<int> type_codes;
  // Compiled patterns: for kRegex, regexes[0]; for kIn/kNin, one entry per
  // operand (nullptr for non-regex operands).
  std::vector<std::shared_ptr<const CompiledRegex>> regexes;
  // kIn/kNin, built by Filter::Parse so that a lookup costs O(log n), not
  // O(n) (MongoDB keeps $in's equalities in a sorted set,
  // expression_leaf.h InListData): the operands that are neither null nor
  // regexes, sorted by CompareValues (document/compare.h). Membership is
  // CompareValues == 0, exactly the linear scan's ValuesEqual, so numbers
  // are equal across int, long, double and decimal, NaN equals NaN, and an
  // array or object operand equals only the same array or object. Null
  // operands (which also match a missing field) and regexes are checked
  // one by one as before. nullptr (a hand-built expression): a linear scan
  // of `operands`.
  struct InSet {
    std::vector<Value> sorted;
    bool has_null = false;
    std::vector<size_t> regex_indexes;  // into operands/regexes
  };
  std::shared_ptr<const InSet> in_set;
  // kExpr only.
  std::shared_ptr<const agg::Expression> expr;
  int64_t now_millis = 0;
  // kJsonSchema only.
  std::shared_ptr<const JsonSchema> schema;
  // The collation of the comparisons ($eq, $ne, $gt, $gte, $lt, $lte, $in,
  // $nin, $all's and $elemMatch's): strings, also inside arrays and
  // objects, compare by it (document/collator.h). nullptr: the simple
  // binary comparison. $regex, $type, $exists, $size and $mod ignore it, as
  // in MongoDB. Set on every node by the Parse overloads that take one.
  std::shared_ptr<const Collator> collator;
};

// What Filter::Matches can report besides the verdict.
struct MatchDetails {
  // MongoDB's elemMatchKey: the position, in the array a matching predicate
  // traversed, of the element that satisfied it, for the positional
  // projection and update operator ("a.$"). When a path traverses nested
  // arrays it is the position in the outermost one (path.cpp prefers the
  // outermost array offset); {a: {$elemMatch: ...}} on an array reached
  // without traversing one reports the matching element. Leaves under $or,
  // $nor, $not, $ne and $nin report nothing; of the children of an implicit
  // or explicit $and, the last one that reports wins (MatchDetails::
  // setElemMatchKey overwrites). Empty when no array position was involved
  // (e.g. {a: 5} on {a: 5}, or {a: [1, 2]} matching the whole array).
  std::optional<size_t> elem_match_key;
};

class Filter {
 public:
  // Parses a filter document (type kObject). {} matches every document.
  // $$NOW in a $expr is the wall-clock time of this call.
  static absl::StatusOr<Filter> Parse(const Value& filter_doc);
  // As above with $$NOW = `now` (the query's time, for an injected clock).
  static absl::StatusOr<Filter> Parse(const Value& filter_doc, absl::Time now);
  // As above, comparing strings by `collator` (nullptr: simple), as a
  // query with that collation does. The in_set is ordered by it.
  static absl::StatusOr<Filter> Parse(const Value& filter_doc, absl::Time now,
                                      std::shared_ptr<const Collator> collator);

  // Parses the operator form of a condition on one value, as $pull and
  // $elemMatch use it: {$gte: 6} or {$in: [1, 2]}. The result's root is a
  // kAnd of leaves with path "". Use MatchesValue with it.
  static absl::StatusOr<Filter> ParseValueCondition(const Value& operators);
  static absl::StatusOr<Filter> ParseValueCondition(
      const Value& operators, std::shared_ptr<const Collator> collator);

  // True if `doc` satisfies the filter. A $expr whose evaluation fails
  // (e.g. {$divide: [1, 0]}) does not match here; use MatchesOrError to
  // report the error as MongoDB does (the whole query fails).
  bool Matches(const Value& doc) const;

  // As Matches, but fails with the first $expr evaluation error (MongoDB's
  // code and message) instead of treating it as no match.
  absl::StatusOr<bool> MatchesOrError(const Value& doc) const;

  // As above, and fills *details when the document matches. Slower: use it
  // only when a positional "$" needs the matched position.
  bool Matches(const Value& doc, MatchDetails* details) const;

  // For filters made by ParseValueCondition: true if `v` itself (arrays are
  // not expanded) satisfies every operator.
  bool MatchesValue(const Value& v) const;

  // The parsed tree; the root is always a kAnd (one child per top-level
  // field or operator, in document order; a field with several operators,
  // {a: {$gt: 1, $lt: 5}}, contributes one child per operator).
  const MatchExpr& root() const { return root_; }

  // The collation its comparisons use (nullptr: simple).
  const Collator* collator() const { return root_.collator.get(); }

 private:
  MatchExpr root_;
};

// Whether the comparison `e` ($gt, $gte, $lt or $lte) holds for the one value
// `v` (nullptr: the field is missing), without array traversal, as MongoDB's
// ComparisonMatchExpression::matchesSingleElement decides: type-bracketed
// except against MinKey/MaxKey, NaN equal only to NaN. The planner's
// implication rules use it so that they agree with the matcher.
bool ComparisonMatches(const MatchExpr& e, const Value* v);

// True if `expr` (as parsed by Filter) matches `doc`.
bool MatchExprMatches(const MatchExpr& expr, const Value& doc);

}  // namespace ttldb

#endif  // TTLDB_QUERY_FILTER_H_
