// $group's accumulators ($sum, $avg, $min, $max, $first, $last, $push,
// $addToSet, $count, $mergeObjects, $stdDevPop, $stdDevSamp, $top, $bottom,
// $topN, $bottomN, $firstN, $lastN, $minN, $maxN), as MongoDB 8.0's
// (src/mongo/db/pipeline/accumulator_*.cpp).
//
// An accumulator folds the values of one group. Like MongoDB's, it has a
// *partial* form (Partial) that another accumulator of the same kind can
// Merge: $group spills partial groups to disk under allowDiskUse and merges
// them back, key by key, in spill order.
#ifndef TTLDB_PIPELINE_ACCUMULATOR_H_
#define TTLDB_PIPELINE_ACCUMULATOR_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "expr/expression.h"
#include "query/sort.h"
#include "ttldb/value.h"

namespace ttldb {
namespace agg {

class Accumulator {
 public:
  virtual ~Accumulator() = default;
  // Folds one document's value (std::nullopt: the expression was missing).
  // `root` is the document ($top/$bottom read their sortBy from it).
  virtual absl::Status Process(const std::optional<Value>& value,
                               const Value& root) = 0;
  // Folds another accumulator's Partial().
  virtual absl::Status Merge(const Value& partial) = 0;
  virtual Value Partial() const = 0;
  // The group's result.
  virtual Value Final() const = 0;
  // Approximate memory held, for the stage's bound.
  virtual size_t MemoryBytes() const = 0;
};

// One output field of a $group ({total: {$sum: "$x"}}), parsed.
class AccumulatorSpec {
 public:
  // `field` is the output name; `spec` the {$op: argument} object.
  // Errors: 40234 not an object, 40238 not exactly one field, 15952
  // "unknown group operator '$op'", and each operator's own.
  static absl::StatusOr<AccumulatorSpec> Parse(absl::string_view field,
                                               const Value& spec,
                                               ParseContext* ctx);

  const std::string& field() const { return field_; }
  const std::string& op() const { return op_; }
  // The argument evaluated for each document (nullptr: none, as $count).
  const Expression* argument() const { return argument_.get(); }
  // A fresh accumulator. For $topN & co. `n` is evaluated here against the
  // first document of the group.
  absl::StatusOr<std::unique_ptr<Accumulator>> Make(const Value& first_doc,
                                                    Variables* vars) const;

 private:
  std::string field_;
  std::string op_;
  std::shared_ptr<const Expression> argument_;
  std::shared_ptr<const Expression> n_;      // $topN, $firstN, ...
  std::shared_ptr<const SortSpec> sort_by_;  // $top, $bottom, ...
};

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_PIPELINE_ACCUMULATOR_H_
