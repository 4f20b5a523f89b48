// The update argument of UpdateOne/UpdateMany, FindOneAndUpdate and
// BulkWrite's updates, as MongoDB's UpdateDriver::parse tells them apart:
// an array is a pipeline-style update (pipeline/update_pipeline.h), a
// document an operator update or a replacement (query/update.h).
#ifndef TTLDB_ENGINE_UPDATE_PARSE_H_
#define TTLDB_ENGINE_UPDATE_PARSE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "query/update.h"
#include "ttldb/value.h"

namespace ttldb {

// What an update comes with besides its document (UpdateOptions' fields).
struct UpdateParseArgs {
  const std::vector<Value>* array_filters = nullptr;  // null: none
  Value constants;  // the statement's `c`; null: none
  Value let;        // the command's `let`; null: none
  bool upsert = false;
  bool upsert_supplied = false;
  int64_t now_millis = 0;  // $$NOW for `let`
};

// Errors, in MongoDB's order (parsed_update.cpp, update_driver.cpp): 9
// "cannot specify 'upsertSupplied: true' for a non-upsert operation", 9
// "the parameter 'upsertSupplied' is set to 'true', but no document was
// supplied"; the array filters' own errors; for a pipeline 9 "arrayFilters
// may not be specified for pipeline-style updates", then the pipeline's
// (40324 an unknown stage, 72 a stage not allowed in an update, ...); for a
// document with constants 51198 "Constant values may only be specified for
// pipeline updates", then Update::Parse's.
absl::StatusOr<Update> ParseUpdateArg(const Value& update,
                                      const UpdateParseArgs& args);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_UPDATE_PARSE_H_
