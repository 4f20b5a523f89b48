// Reading a command's arguments with MongoDB's IDL errors:
//   unknown field   40415 "BSON field 'find.foo' is an unknown field."
//   wrong type      14 TypeMismatch "BSON field 'find.limit' is the wrong
//                   type 'string', expected types '[long, int, decimal,
//                   double]'"
//   missing field   40414 "BSON field 'insert.documents' is missing but a
//                   required field"
// (src/mongo/idl/idl_parser.cpp). Internal to commands/.
#ifndef TTLDB_COMMANDS_COMMAND_ARGS_H_
#define TTLDB_COMMANDS_COMMAND_ARGS_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "commands/command_context.h"
#include "document/idl_errors.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// The generic arguments every command accepts (generic_argument.idl):
// $db, lsid, txnNumber, writeConcern, readConcern, comment, maxTimeMS, ...
bool IsGenericArgument(absl::string_view field);

// 40415 for the first field that is neither the command's name, one of
// `known`, nor a generic argument.
absl::Status CheckFields(const CommandContext& ctx,
                         std::initializer_list<absl::string_view> known);

// 40413 "BSON field '<command>.<field>' is a duplicate field" for the first
// top-level field given twice (MongoDB's IDL parsers,
// IDLParserContext::throwDuplicateField).
absl::Status CheckNoDuplicateFields(const CommandContext& ctx);

// The collection the command names ({find: "c"}): 73 InvalidNamespace
// "collection name has invalid type <type>" for a non-string, "Invalid
// namespace specified '<db>.'" for "".
absl::StatusOr<std::string> CollectionArg(const CommandContext& ctx);

// "db.coll".
std::string Ns(absl::string_view db, absl::string_view coll);

// A field of the command, or nullptr.
const Value* Arg(const CommandContext& ctx, absl::string_view field);

// An object argument; null Value when absent (or null).
absl::StatusOr<Value> ObjectArg(const CommandContext& ctx,
                                absl::string_view field);
// A collation argument (`field` of the command, or of one statement when
// `statement` is given: its path for errors, "update.updates.collation"):
// null when absent, null or {} (MongoDB treats an empty collation as none);
// 14 TypeMismatch when not an object. The document itself is checked where
// it is used (document/collator.h).
absl::StatusOr<Value> CollationArg(const CommandContext& ctx);
absl::StatusOr<Value> CollationField(const Value& statement,
                                     absl::string_view path);
// A required array argument (40414 when absent).
absl::StatusOr<const Value::Array*> ArrayArg(const CommandContext& ctx,
                                             absl::string_view field);
// A whole number ([long, int, decimal, double]); nullopt when absent.
absl::StatusOr<std::optional<int64_t>> IntArg(const CommandContext& ctx,
                                              absl::string_view field);
// A strict bool (IDL "bool"); `def` when absent.
absl::StatusOr<bool> BoolArg(const CommandContext& ctx, absl::string_view field,
                             bool def);
// A "safeBool": bool or number (non-zero is true); `def` when absent.
absl::StatusOr<bool> SafeBoolArg(const CommandContext& ctx,
                                 absl::string_view field, bool def);

// The IDL errors, for callers checking nested fields ("update.updates.q").
// The command's maxTimeMS (zero when absent or 0: no limit), parsed as
// mongod's parseMaxTimeMS does: a number from 0 to 2^31-1 without a
// fraction; else 2 BadValue "maxTimeMS must be a number", "<n> value for
// maxTimeMS is out of range" or "maxTimeMS has non-integral value".
absl::StatusOr<absl::Duration> MaxTimeArg(const Value& cmd);

// Whether a value is a number that is truthy as MongoDB's trueValue().
bool TrueValue(const Value& v);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_COMMAND_ARGS_H_
