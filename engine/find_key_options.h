// The find options that speak of index keys and record ids: min / max,
// returnKey and showRecordId (FindOptions, ttldb/results.h). Internal to
// query execution (engine/query_exec.cc).
#ifndef TTLDB_ENGINE_FIND_KEY_OPTIONS_H_
#define TTLDB_ENGINE_FIND_KEY_OPTIONS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "storage/collection_state.h"
#include "ttldb/results.h"
#include "ttldb/value.h"

namespace ttldb {

struct QueryPlan;

struct KeyOptions {
  Value min;  // null or an object (empty: no bound)
  Value max;
  bool return_key = false;
  bool show_record_id = false;
  // Set by ResolveKeyBounds for the hinted index: the bounds as encoded
  // keys (index/key_codec.h: a compound key compares field by field in the
  // index's directions, as MongoDB's woCompare with the key pattern).
  bool has_min = false, has_max = false;
  std::string min_key, max_key;

  bool bounded() const { return has_min || has_max; }
  bool changes_output() const { return return_key || show_record_id; }
};

// Before planning (query_request_helper.cpp validateFindCommandRequest and
// query_planner.cpp): 14 min/max not objects, 51176 different field names,
// 51173 no hint, 291 a $natural hint.
absl::StatusOr<KeyOptions> ParseKeyOptions(const FindOptions& options);

// After planning, for the plan of the hinted index: 51174 bounds whose
// fields are not the index's key fields in order, 51175 min not before
// max; then narrows the plan's ranges to [min, max).
absl::Status ResolveKeyBounds(QueryPlan* plan, KeyOptions* keys);

// Whether `doc` has a key of `index` within the bounds.
absl::StatusOr<bool> InKeyBounds(const IndexState& index,
                                 const KeyOptions& keys, const Value& doc);

// The result for `doc` (found by `plan`; `out` is it as projected): the
// index key for returnKey, then "$recordId" for showRecordId.
absl::StatusOr<Value> KeyOptionsOutput(const QueryPlan& plan,
                                       const KeyOptions& keys, const Value& doc,
                                       Value out);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_FIND_KEY_OPTIONS_H_
