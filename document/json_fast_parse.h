// Internal to document/: a fast path of ParseValue/ParseDocument for the
// JSON that ttldb reads most, its own storage form (json.h, kStorage).
//
// FastParseValue decides only what it is sure of. It returns true and sets
// *out when `json` is well-formed JSON (RFC 8259, valid UTF-8) made only of
// constructs it knows: objects whose keys do not start with '$', arrays,
// strings (escapes other than \u surrogates), numbers (integers of at most
// 18 digits, and doubles that parse without overflow or underflow), true,
// false, null, and the wrappers {"$date": {"$numberLong": "<ms>"}},
// {"$numberLong": "<n>"}, {"$numberDecimal": "<exact decimal>"} and
// {"$oid": "<24 hex>"}, nested no deeper than
// options.max_depth counting every container. *out is then exactly what the
// full simdjson path (ParseValueFullPath) gives. Otherwise it returns false,
// says nothing about why, and the caller runs the full path, which decides
// and words any error: so errors are unchanged.
#ifndef TTLDB_DOCUMENT_JSON_FAST_PARSE_H_
#define TTLDB_DOCUMENT_JSON_FAST_PARSE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/json.h"
#include "ttldb/value.h"

namespace ttldb {
namespace json_internal {

//
// With `storage_form`, a successful parse also sets *storage_form to
// whether `json` is byte for byte AppendJson(*out, JsonFormat::kStorage)
// (no whitespace, the writer's escapes, numbers and wrappers as it writes
// them), and never true for a string holding \u0000 (so a field name with
// a NUL is not among them: the fast path admits no other unstorable
// document, no '$' field name, invalid UTF-8 or nesting beyond max_depth).
bool FastParseValue(absl::string_view json, const ParseOptions& options,
                    Value* out, bool* storage_form = nullptr);

// ParseValue without the fast path (the simdjson DOM path), for tests that
// check the two agree.
absl::StatusOr<Value> ParseValueFullPath(absl::string_view json,
                                         const ParseOptions& options = {});

}  // namespace json_internal
}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_JSON_FAST_PARSE_H_
