// The window functions of $setWindowFields (one output field's {$op: ...,
// window: ...}), as MongoDB 8.0's window_function/ defines them: the
// accumulators of pipeline/accumulator.h over a window of the partition
// ($sum, $avg, $min, $max, $count, $push, $addToSet, $first, $last,
// $stdDevPop, $stdDevSamp, $minN, $maxN, $firstN, $lastN, $top, $bottom,
// $topN, $bottomN), and the window-only ones ($rank, $denseRank,
// $documentNumber, $shift, $locf, $linearFill, $expMovingAvg, $derivative,
// $integral, $covariancePop, $covarianceSamp). Internal to //pipeline.
//
// A window is `documents: [lo, hi]` (positions relative to the current
// document) or `range: [lo, hi]` (values of the single sortBy field relative
// to the current document's, with `unit` for dates); each bound is
// "unbounded", "current" or a constant (window_bounds.cpp).
#ifndef TTLDB_PIPELINE_WINDOW_FUNCTION_H_
#define TTLDB_PIPELINE_WINDOW_FUNCTION_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "expr/expression.h"
#include "query/sort.h"
#include "ttldb/value.h"

namespace ttldb {
namespace agg {

// $setWindowFields' sortBy, as the window functions need it.
struct WindowSort {
  SortSpec spec;
  // The first sort field's path and direction; its "$path" expression
  // (range windows, $rank, $linearFill, $derivative, $integral read it).
  std::string first_path;
  int first_direction = 1;
  std::shared_ptr<const Expression> first_value;
};

// One sorted partition, as the window functions read it.
struct WindowPartition {
  const std::vector<Value>* docs = nullptr;
  const WindowSort* sort = nullptr;  // nullptr: no sortBy
  // docs' sort keys (empty without a sortBy).
  const std::vector<SortSpec::Key>* keys = nullptr;
  Variables* vars = nullptr;
  // The stage's memory: the partition's bytes so far, which each function
  // adds its inputs and results to, and the bound (5414201 past it).
  size_t* bytes = nullptr;
  size_t max_bytes = 0;
};

// Adds `v`'s size to p.bytes; 5414201 "Exceeded memory limit in
// DocumentSourceSetWindowFields, ..." past p.max_bytes.
absl::Status ChargeWindowMemory(const WindowPartition& p,
                                const std::optional<Value>& v);

class WindowFunction {
 public:
  virtual ~WindowFunction() = default;
  // Parses `spec`, the value of output field `field`. Errors are MongoDB's
  // (mostly 9 FailedToParse, with its messages).
  static absl::StatusOr<std::unique_ptr<const WindowFunction>> Parse(
      absl::string_view field, const Value& spec, const WindowSort* sort,
      ParseContext* ctx);
  // The function's value for each document of `p` (std::nullopt: the field
  // is not set, as $addFields does with a missing value).
  virtual absl::Status Compute(
      const WindowPartition& p,
      std::vector<std::optional<Value>>* out) const = 0;
};

// Milliseconds of a fixed time unit ("week" .. "millisecond"), 0 for the
// calendar ones ("year", "quarter", "month"), -1 for an unknown one.
int64_t TimeUnitMillis(absl::string_view unit);
// Whether `unit` is one of MongoDB's time units.
bool IsTimeUnit(absl::string_view unit);
// `millis` plus `amount` units, as $dateAdd in UTC (months clamp the day to
// the month's last). False on overflow.
bool AddTimeUnits(int64_t millis, absl::string_view unit, int64_t amount,
                  int64_t* out);

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_PIPELINE_WINDOW_FUNCTION_H_
