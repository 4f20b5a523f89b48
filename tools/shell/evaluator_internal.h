// Helpers shared by the evaluator's .cc files: argument conversion and
// small value utilities. Internal to tools/shell.
#ifndef TTLDB_TOOLS_SHELL_EVALUATOR_INTERNAL_H_
#define TTLDB_TOOLS_SHELL_EVALUATOR_INTERNAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/shell/evaluator.h"
#include "tools/shell/parser.h"
#include "ttldb/value.h"

namespace ttldb {
namespace shell {
namespace internal {

// "TypeError: <message>" as InvalidArgument.
absl::Status TypeError(absl::string_view message);
// "db.c.find" for error messages.
std::string NodeText(const Node& n);
bool IsNumeric(const Value& v);
double NumberOf(const Value& v);
// A computed JavaScript number: Int32 when integral and in range, else
// Double.
Value JsNumber(double d);
// A count: Int32 when it fits, else Int64.
Value CountValue(int64_t n);
const Value* FieldOf(const Value& obj, absl::string_view name);
// Replaces the field in place or appends it (JavaScript's duplicate keys).
void SetField(Value* obj, const std::string& name, Value v);
// JavaScript truthiness.
bool Truthy(const Value& v);
// Whether a document has a top-level $-key (an update, not a replacement).
bool HasOperatorKeys(const Value& doc);
// Argument i as a BSON value; undefined or missing gives `fallback`.
absl::StatusOr<Value> Arg(const std::vector<ShellValue>& args, size_t i,
                          const Value& fallback, absl::string_view what);
// mongosh's assertArgsDefinedType for required arguments: the first `n`
// arguments must be given and not undefined, else
// "MongoshInvalidInputError: [COMMON-10001] Missing required argument at
// position i (Collection.insertOne)" (mongosh packages/shell-api
// src/helpers.ts).
absl::Status RequireArgs(const std::vector<ShellValue>& args, size_t n,
                         absl::string_view function);
// Argument i as an object; missing, undefined or null give {}.
absl::StatusOr<Value> ObjectArg(const std::vector<ShellValue>& args, size_t i,
                                absl::string_view what);
// Argument i as an integer (0 when missing).
absl::StatusOr<int64_t> IntArg(const std::vector<ShellValue>& args, size_t i,
                               absl::string_view what);
// {upsert: true} -> true.
bool BoolOption(const Value& options, absl::string_view name);
ShellValue Collection(std::string name);
// A command given as "name" or {name: 1}.
absl::StatusOr<Value> CommandArg(const std::vector<ShellValue>& args);
// 40960 -> "40.00 KiB".
std::string HumanSize(double bytes);

}  // namespace internal
}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_EVALUATOR_INTERNAL_H_
