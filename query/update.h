// MongoDB update documents: operator updates ({$set: {...}, $inc: {...}})
// and replacement documents.
//
//   ASSIGN_OR_RETURN(Update u, Update::Parse(update_doc));
//   bool modified;
//   RETURN_IF_ERROR(u.Apply(&doc, now_millis, /*is_insert=*/false,
//                           &modified));
//
// Operators: $set $unset $inc $mul $min $max $rename $currentDate
// $setOnInsert $push ($each $slice $position $sort) $addToSet ($each) $pull
// $pullAll $pop. Paths may hold the positional operators of MongoDB 8.0:
// "a.$" (the array position the query matched: Filter::Matches with
// MatchDetails), "a.$[]" (every element) and "a.$[<id>]" (the elements
// passing the array filter whose top-level field is <id>), also nested
// ("a.$[i].b.$[j]"); see Update::Parse for their errors.
// Dotted paths create missing intermediate objects; a numeric component
// addresses an array element, padding the array with nulls when it is past
// the end (as MongoDB does). New fields are created in the lexicographic
// order of the update's paths (MongoDB >= 5.0).
//
// An Update may also be a document transformation (Update::FromTransform):
// MongoDB's pipeline-style update ([{$set: ...}, {$unset: ...}]), whose
// stages pipeline/update_pipeline.h parses (query/ knows no pipelines). Its
// result replaces the document as a replacement does (the _id kept when the
// result has none; a different _id is 66 ImmutableField).
//
// Errors carry MongoDB's codes and wording: 9 FailedToParse (malformed
// update document), 14 TypeMismatch, 2 BadValue, 40 ConflictingUpdateOperators,
// 28 PathNotViable, 56 EmptyFieldName, 52 DollarPrefixedFieldName,
// 66 ImmutableField. An Update is immutable after Parse and thread-safe.
#ifndef TTLDB_QUERY_UPDATE_H_
#define TTLDB_QUERY_UPDATE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "query/filter.h"
#include "query/sort.h"
#include "ttldb/value.h"

namespace ttldb {

// One parsed modification of one path.
struct UpdateOp {
  enum class Kind {
    kSet,
    kUnset,
    kInc,
    kMul,
    kMin,
    kMax,
    kRename,
    kCurrentDate,
    kSetOnInsert,
    kPush,
    kAddToSet,
    kPull,
    kPullAll,
    kPop,
    kBit,
  };
  Kind kind = Kind::kSet;
  std::string path;  // the field modified ($rename: the source)
  std::vector<std::string> parts;
  Value arg;  // the operator's argument for this path
  // $rename: the destination.
  std::string to_path;
  std::vector<std::string> to_parts;
  // $currentDate: set a Timestamp rather than a Date.
  bool timestamp = false;
  // $push / $addToSet: the values to add ($each, or the single argument).
  std::vector<Value> each;
  std::optional<int64_t> slice;
  std::optional<int64_t> position;
  // $push $sort: whole-element direction (1/-1), or by fields.
  int sort_direction = 0;
  std::shared_ptr<const SortSpec> sort_fields;
  // $pull with a condition: a filter over object elements
  // ({$pull: {a: {b: 1}}}), or an operator condition on each element value
  // ({$pull: {a: {$gte: 6}}}).
  std::shared_ptr<const Filter> pull_filter;
  bool pull_value_condition = false;
  // $pop: 1 removes the last element, -1 the first.
  int pop = 1;
  // The path holds "$", "$[]" or "$[<id>]", resolved per document.
  bool dynamic = false;
};

// A whole-document transformation standing for an update: MongoDB's
// pipeline-style update (pipeline/update_pipeline.h). Immutable and
// thread-safe once built.
class UpdateTransform {
 public:
  virtual ~UpdateTransform() = default;
  // The new document for `doc` (an insert's seed when `is_insert`), or the
  // transformation's run-time error. `now_millis` is $$NOW.
  virtual absl::StatusOr<Value> Transform(const Value& doc, int64_t now_millis,
                                          bool is_insert) const = 0;
};

class Update {
 public:
  // A document whose first field starts with '$' is an operator update
  // (every field must then be a known operator); anything else is a
  // replacement document (which may not hold $-prefixed top-level fields).
  static absl::StatusOr<Update> Parse(const Value& update_doc);

  // With arrayFilters (each a filter document such as {i: 0} or
  // {"i.b": {$gt: 1}}, whose top-level fields all start with the same
  // identifier). Errors, as MongoDB's (update_object_node.cpp,
  // expression_with_placeholder.cpp, parsed_update_array_filters.cpp):
  //  14 a filter that is not a document; 9 "Cannot use an expression without
  //  a top-level field name in arrayFilters"; 9 "Error parsing array filter
  //  :: caused by :: Expected a single top-level field name, found 'i' and
  //  'j'"; 2 "... The top-level field name must be an alphanumeric string
  //  beginning with a lowercase letter, found 'I'"; 9 "Found multiple array
  //  filters with the same top-level field name i"; 2 "No array filter found
  //  for identifier 'x' in path 'a.$[x]'"; 9 "The array filter for
  //  identifier 'x' was not used in the update { ... }"; 2 "Too many
  //  positional (i.e. '$') elements found in path ..."; 2 "Cannot have
  //  positional (i.e. '$') element in the first position in path ..." (and
  //  the same for '$[<id>]'); 40 "Updating the path 'a.$' would create a
  //  conflict at 'a'" beside "a.$[i]"; 2 "The source/destination field for
  //  $rename may not be dynamic: ...". A replacement ignores the filters
  //  (after checking them).
  static absl::StatusOr<Update> Parse(const Value& update_doc,
                                      const std::vector<Value>& array_filters);

  // An update that replaces each document by transform->Transform(doc)
  // (keeping its _id when the result has none, as MongoDB's
  // ObjectReplaceExecutor::applyReplacementUpdate does for a pipeline).
  static Update FromTransform(std::shared_ptr<const UpdateTransform> transform);

  bool is_replacement() const { return replacement_; }
  // True for FromTransform (a pipeline-style update).
  bool is_transform() const { return transform_ != nullptr; }

  // Applies the update to *doc in place. All-or-nothing: on error *doc is
  // unchanged. `now_millis` is used by $currentDate. $setOnInsert applies
  // only when `is_insert` (an upsert inserting). *modified tells whether
  // the document changed at all (types included: 1 -> 1.0 is a change).
  // If *doc had an _id, changing or removing it fails with 66
  // ImmutableField. A replacement keeps the original _id (see
  // ApplyReplacement).
  absl::Status Apply(Value* doc, int64_t now_millis, bool is_insert,
                     bool* modified) const;

  // As above; `matched_position` is the query's MatchDetails elem_match_key
  // for "$" (none when inserting). Errors while resolving positional paths
  // (2 BadValue): "The positional operator did not find the match needed
  // from the query." (no position, or an upsert's insert), "The path 'a'
  // must exist in the document in order to apply array updates.", "Cannot
  // apply array updates to non-array element a: 1"; 40 "Update created a
  // conflict at 'a.0'" when two paths resolve to one element.
  absl::Status Apply(Value* doc, int64_t now_millis, bool is_insert,
                     bool* modified,
                     std::optional<size_t> matched_position) const;

  // As Apply with `matched_position`, for a caller that has already copied
  // the document: `*copy` starts equal to `original` and receives the
  // result; on error it is left in any state (the caller discards it).
  // Saves Apply's own copy of the document (an update's largest cost
  // outside LevelDB after the read). *modified compares with `original`.
  absl::Status ApplyToCopy(const Value& original, Value* copy,
                           int64_t now_millis, bool is_insert, bool* modified,
                           std::optional<size_t> matched_position) const;

  // True when a path holds "$": the caller must pass the matched position.
  bool needs_matched_position() const { return positional_; }

  // The parsed operators, in application order (sorted by path).
  const std::vector<UpdateOp>& ops() const { return ops_; }
  // For a replacement update: the replacement document.
  const Value& replacement() const { return replacement_doc_; }

 private:
  // The operators (or, with "$" or arrayFilters, their resolved targets)
  // applied to *work; no checks of the result.
  absl::Status ApplyOps(Value* work, int64_t now_millis, bool is_insert,
                        std::optional<size_t> matched_position) const;
  absl::Status ApplyDynamic(Value* work, int64_t now_millis, bool is_insert,
                            std::optional<size_t> matched) const;

  // As a replacement by transform_->Transform(*doc).
  absl::Status ApplyTransform(const Value& original, Value* doc,
                              int64_t now_millis, bool is_insert,
                              bool* modified) const;

  bool replacement_ = false;
  std::shared_ptr<const UpdateTransform> transform_;
  bool positional_ = false;  // some path holds "$"
  bool dynamic_ = false;     // some path holds "$", "$[]" or "$[<id>]"
  std::map<std::string, std::shared_ptr<const Filter>> array_filters_;
  Value replacement_doc_;
  std::vector<UpdateOp> ops_;
};

// Replaces *doc by `replacement`, keeping the original _id as the first
// field. A replacement _id different from the original fails with 66
// ImmutableField; when *doc has no _id (an insert), the replacement's _id
// (if any) comes first. All-or-nothing; *modified as in Update::Apply.
absl::Status ApplyReplacement(const Value& replacement, Value* doc,
                              bool* modified);

// The document an upsert starts from when nothing matched `filter`: every
// top-level equality of the filter (including inside $and, {$eq: v} and a
// one-element $in), with dotted paths expanded into embedded documents;
// _id, if present, first. Two equalities on the same or overlapping paths
// fail with 54 NotSingleValueField. Regex and non-equality predicates are
// ignored.
absl::StatusOr<Value> UpsertSeed(const Filter& filter);

}  // namespace ttldb

#endif  // TTLDB_QUERY_UPDATE_H_
