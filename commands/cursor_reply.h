// Batches of a server cursor and MongoDB's cursor reply shape:
//   {cursor: {firstBatch|nextBatch: [...], id: Long, ns: "db.coll"}, ok: 1}
// (CursorInitialReply / CursorGetMoreReply in cursor_response.idl).
// Internal to commands/; aggregate and listCollections use it too.
#ifndef TTLDB_COMMANDS_CURSOR_REPLY_H_
#define TTLDB_COMMANDS_CURSOR_REPLY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "commands/command_context.h"
#include "commands/cursor_store.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// 101: MongoDB's default first batch (query_request_helper.h).
inline constexpr int64_t kDefaultFirstBatch = 101;

// Reads up to `batch_size` documents (0: no count limit) from `cursor`,
// stopping before the batch would pass 16 MiB (the document that does not
// fit waits in `pending`; the first always goes). *exhausted is set when
// the cursor has no more (its end, or its limit reached).
absl::StatusOr<Value::Array> FillBatch(ServerCursor* cursor, int64_t batch_size,
                                       bool* exhausted);

Value CursorReply(absl::string_view ns, int64_t id, Value::Array batch,
                  bool first);

// Who runs the command, as the cursor store compares owners: under --auth
// the connection's user, else anyone.
CursorRequester RequesterOf(const CommandContext& ctx);
// The command's logical session (its lsid with its user's digest) as
// ServerCursor::session prints it; nullopt without lsid.
std::optional<std::string> SessionOf(const CommandContext& ctx);

// The batchSize of a command's `cursor` option ({batchSize: N}, a number
// >= 0), or -1 when `cursor_opts` is not an object or has none. `command`
// names the command in the errors, as MongoDB's IDL does: 14
// TypeMismatch "BSON field '<command>.cursor.batchSize' is the wrong
// type ...", 51024 for a negative one.
absl::StatusOr<int64_t> CursorBatchSize(const Value& cursor_opts,
                                        absl::string_view command);

// The reply of a command whose results are in memory (listCollections,
// listIndexes): the first `batch_size` of `docs` (all of them when < 0,
// within 16 MiB) as {cursor: {id, ns, firstBatch}, ok: 1}, MongoDB's order
// for these commands, and a cursor for the rest that getMore reads.
absl::StatusOr<Value> ArrayCursorReply(CommandContext& ctx, std::string ns,
                                       Value::Array docs, int64_t batch_size);

// Registers `cursor` as the command's: its connection (killed with it),
// its user (under --auth) and its logical session, as a find's and a
// change stream's cursors belong to them. Checked out: Release it.
absl::StatusOr<ServerCursor*> RegisterCursor(
    CommandContext& ctx, std::unique_ptr<ServerCursor> cursor);

// Serves the first batch of `cursor` and registers it when documents are
// left (unless single_batch): the find/aggregate reply. Under --auth the
// cursor belongs to the connection's user.
absl::StatusOr<Value> FirstBatchReply(CommandContext& ctx,
                                      std::unique_ptr<ServerCursor> cursor,
                                      int64_t batch_size, bool single_batch);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_CURSOR_REPLY_H_
