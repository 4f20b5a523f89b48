// The find command's arguments (src/mongo/db/query/find_command.idl) as
// engine FindOptions, shared by find and explain. Internal to commands/.
#ifndef TTLDB_COMMANDS_FIND_REQUEST_H_
#define TTLDB_COMMANDS_FIND_REQUEST_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "commands/command_context.h"
#include "ttldb/results.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

struct FindRequest {
  std::string collection;
  Value filter = Value::MakeObject();
  FindOptions options;      // projection, sort, skip, limit, hint
  int64_t batch_size = -1;  // -1: the default (101 for the first batch)
  bool single_batch = false;
  // tailable / awaitData: a cursor that stays open at the end of a capped
  // collection (commands/tailable_cursor.h).
  bool tailable = false;
  bool await_data = false;
};

// Parses a find command; errors as MongoDB's (40415 unknown field, 14 wrong
// type, 51024 negative limit/skip/batchSize).
absl::StatusOr<FindRequest> ParseFindRequest(const CommandContext& ctx);

// A hint argument (string name or key pattern) into FindOptions.
absl::Status ApplyHint(const CommandContext& ctx, FindOptions* options);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_FIND_REQUEST_H_
