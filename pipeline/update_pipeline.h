// MongoDB's pipeline-style update (4.2+): an update given as an array of
// stages, updateOne(filter, [{$set: {total: {$add: ["$a", "$b"]}}}]), run
// on each matched document (and on an upsert's seed) to give its new
// version (src/mongo/db/update/pipeline_executor.cpp).
//
//   ASSIGN_OR_RETURN(auto t, ParseUpdatePipeline(stages, constants, let,
//                                                now_millis));
//   Update u = Update::FromTransform(std::move(t));  // query/update.h
//
// The result replaces the document as a replacement does (query/update.h
// Update::FromTransform): the _id is kept when the pipeline drops it and
// may not change (66 ImmutableField); the engine validates it as any
// stored document (16 MiB, storable field names) on its one write path.
#ifndef TTLDB_PIPELINE_UPDATE_PIPELINE_H_
#define TTLDB_PIPELINE_UPDATE_PIPELINE_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "query/update.h"
#include "ttldb/value.h"

namespace ttldb {
namespace agg {

// Parses `stages` (an array) into an update. Only $addFields/$set,
// $project/$unset and $replaceRoot/$replaceWith may appear: any other stage
// is 72 InvalidOptions "<stage> is not allowed to be used within an update"
// (pipeline_executor.cpp, after the whole pipeline parsed, so an unknown
// stage is 40324 first). `constants` (the update statement's `c`, null:
// none) binds each field as a variable of that exact value, never
// evaluated ("$$foo" of c: {foo: "$x"} is the string "$x"); `let` (the
// command's, null: none) binds each field to its expression evaluated once,
// as aggregate's let does; names follow MongoDB's variable rules
// (16866..16870). `now_millis` is $$NOW for `let`; each run gets its own.
// `supplied_insert` (update's upsertSupplied: c.new) is the document an
// upsert inserts instead of the pipeline's result; null: none.
absl::StatusOr<std::shared_ptr<const UpdateTransform>> ParseUpdatePipeline(
    const Value& stages, const Value& constants, const Value& let,
    int64_t now_millis, const Value& supplied_insert = Value());

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_PIPELINE_UPDATE_PIPELINE_H_
