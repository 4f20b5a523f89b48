// aggregate with a leading $changeStream (document_source_change_stream.idl)
// and the getMore of its cursor: a tailable, awaitData cursor over
// Collection::Watch / Database::Watch (ttldb/change_stream.h) whose
// replies carry postBatchResumeToken (cursor_response.idl), which the
// drivers resume from. Internal to commands/.
#ifndef TTLDB_COMMANDS_CHANGE_STREAM_CURSOR_H_
#define TTLDB_COMMANDS_CHANGE_STREAM_CURSOR_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "commands/command_context.h"
#include "commands/cursor_store.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// True if `stages` starts with {$changeStream: ...}.
bool StartsWithChangeStream(const Value::Array& stages);

// aggregate: "<coll>" (a collection's stream) or aggregate: 1 (the
// database's) whose pipeline starts with $changeStream. The first batch
// holds the events already committed after the start point (none for a
// new stream), without waiting.
absl::StatusOr<Value> ChangeStreamAggregate(CommandContext& ctx,
                                            const Value::Array& stages,
                                            int64_t batch_size);

// getMore of a change stream cursor: waits up to `max_await` (getMore's
// maxTimeMS; 1 s when absent, as mongod's awaitData default) for a first
// event, then takes what is already there. Releases the cursor.
absl::StatusOr<Value> ChangeStreamGetMore(
    CommandContext& ctx, ServerCursor* cursor, int64_t batch_size,
    std::optional<absl::Duration> max_await);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_CHANGE_STREAM_CURSOR_H_
