// The statements of the update and delete commands (write_ops.idl's
// UpdateOpEntry and DeleteOpEntry), parsed once for the commands that run
// them (commands/write_commands.cc) and for explain of them
// (commands/explain_write.cc). Internal to commands/.
#ifndef TTLDB_COMMANDS_WRITE_STATEMENTS_H_
#define TTLDB_COMMANDS_WRITE_STATEMENTS_H_

#include <string>

#include "absl/status/statusor.h"
#include "ttldb/results.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// Whether an update document `u` is a replacement: an object whose first
// field is not a $-operator (an array is a pipeline, not a replacement).
bool IsReplacement(const Value& u);

// One update statement {q, u, upsert, multi, arrayFilters, c,
// upsertSupplied, collation, hint, sampleId, sort}. `q` and `u` point into
// the statement, which must outlive it.
struct UpdateStatement {
  const Value* q = nullptr;
  const Value* u = nullptr;  // operators, a replacement or a pipeline
  bool multi = false;
  bool replacement = false;  // u has no $-operators
  UpdateOptions options;     // upsert, arrayFilters, c, let, collation...
};

// `op` (an object) with the command's `let`; `at` names the statements in
// errors ("update.updates"): 40415 for an unknown field, 40414 for a
// missing q or u, 14 for a wrong type, 9 for a multi replacement.
absl::StatusOr<UpdateStatement> ParseUpdateStatement(const Value& op,
                                                     const Value& let,
                                                     const std::string& at);

// One delete statement {q, limit: 0 | 1, collation, hint, sampleId}.
struct DeleteStatement {
  const Value* q = nullptr;
  bool multi = false;  // limit 0
  DeleteOptions options;
};

absl::StatusOr<DeleteStatement> ParseDeleteStatement(const Value& op,
                                                     const std::string& at);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_WRITE_STATEMENTS_H_
