// Printing Values the way mongosh prints them.
//
// mongosh prints results with Node's util.inspect (compact: 3, breakLength:
// 80, depth: 6, maxArrayLength: 100) and its own inspect for BSON types.
// FormatValue reproduces that algorithm, so a short document stays on one
// line, `{ acknowledged: true, insertedId: ObjectId('65a1...') }`, and a
// longer one (roughly over 72 characters, or nested more than three levels
// deep) breaks into Node's multi-line form with 2-space indentation.
// Arrays of more than six short items are grouped into columns, as Node
// does.
//
//   int32 1 -> 1          int64 -> Long('123')      double 1.0 -> 1
//   double 1.5 -> 1.5     NaN, Infinity, -Infinity, -0
//   string 'abc', and "it's" (Node picks a quote the string lacks)
//   date -> ISODate('2026-11-21T10:00:00.000Z')
//   ObjectId('hex')   Timestamp({ t: 1, i: 2 })   /re/i   MinKey()  MaxKey()
//   binary -> Binary.createFromBase64('AQI=', 0), subtype 4 -> UUID('...')
//   keys: identifiers bare, others quoted: { a: 1, 'a.b': 2, '$set': 3 }
#ifndef TTLDB_TOOLS_SHELL_VALUE_FORMAT_H_
#define TTLDB_TOOLS_SHELL_VALUE_FORMAT_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {
namespace shell {

struct FormatOptions {
  int break_length = 80;       // Node's default
  int depth = 6;               // mongosh's default inspectDepth
  int max_array_length = 100;  // Node's default
};

// The mongosh rendering of `v` (one line or multi-line, as described above).
std::string FormatValue(const Value& v, const FormatOptions& options = {});

// `v` as one line of relaxed Extended JSON (the shell's --json mode).
std::string FormatJson(const Value& v);

// JavaScript's Number.prototype.toString for a double: the shortest digits
// that round-trip, "1e+21", "1.5e-7", "NaN", "Infinity"; -0 gives "-0"
// (as util.inspect shows it).
std::string FormatJsNumber(double d);

// A string literal as util.inspect writes it: single quotes unless the text
// holds a single quote (then double quotes, or backticks if it has both).
std::string QuoteJsString(absl::string_view s);

// An object key: bare when it matches [A-Za-z_][A-Za-z0-9_]*, else quoted.
std::string FormatKey(absl::string_view key);

// JavaScript's Date.prototype.toISOString: "2026-11-21T10:00:00.000Z",
// six-digit signed years outside 0..9999, "Invalid Date" beyond +-8.64e15 ms.
std::string FormatIsoDateJs(int64_t millis);

// Standard base64 with padding.
std::string Base64Encode(absl::string_view bytes);

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_VALUE_FORMAT_H_
