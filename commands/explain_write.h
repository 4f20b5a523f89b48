// explain of the write commands: {explain: {update: ...}}, {explain:
// {delete: ...}}, {explain: {findAndModify: ...}} (explain_cmd.cpp,
// write_commands.cpp's explain, find_and_modify.cpp's explain) over
// Collection::ExplainUpdate / ExplainDelete. Nothing is written.
#ifndef TTLDB_COMMANDS_EXPLAIN_WRITE_H_
#define TTLDB_COMMANDS_EXPLAIN_WRITE_H_

#include "absl/status/statusor.h"
#include "commands/command_context.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// True for the commands ExplainWrite explains.
bool IsExplainableWrite(absl::string_view command);

// The explained command `sub` (its name in sub.name) parsed as the command
// would parse it, then its plan and counts (Collection::ExplainUpdate /
// ExplainDelete); an empty plan when the database does not exist. A batch
// of more than one statement is 16 InvalidLength "explained write batches
// must be of size 1" (write_commands.cpp).
absl::StatusOr<Value> ExplainWrite(CommandContext& sub);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_EXPLAIN_WRITE_H_
