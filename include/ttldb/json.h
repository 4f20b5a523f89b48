// MongoDB Extended JSON v2 (relaxed and canonical) <-> Value, with simdjson.
//
// Accepted on input, in both relaxed and canonical forms: $date (ISO-8601
// string, {"$numberLong": "ms"}, or a bare number of ms), $oid, $numberLong,
// $numberInt, $numberDouble ("NaN", "Infinity", "-Infinity" too), $timestamp,
// $regularExpression (and legacy $regex/$options), $minKey, $maxKey,
// $binary (canonical {"base64","subType"} and legacy) and $numberDecimal (a
// string in the BSON Decimal128 grammar that is exactly representable, else
// InvalidArgument). Every format writes a decimal as {"$numberDecimal": "s"}.
//
// Every error is InvalidArgument and names what was wrong and where (a byte
// offset or a field path).
//
// Reading rules worth knowing:
// - Integers become Int32 when they fit, else Int64, else Double (also for
//   integers beyond 64 bits); numbers with '.' or an exponent are Double.
//   "-0" is Int32 0; "-0.0" is Double -0.0.
// - Objects with '$' keys that are not wrappers ({"$gt": 5}, {"$type": "date"},
//   {"$regex": "a"} alone) stay plain objects. The legacy pair
//   {"$regex": "<string>", "$options": "<string>"} becomes a Regex value.
//   A wrapper key next to other keys ({"$oid": .., "x": 1}) is an error.
// - Regex options are stored sorted ("mi" -> "im").
// - Duplicate keys are kept in order as given (Value::Get finds the first).
// - Wrapper objects become scalars and do not count towards max_depth.
// - Each thread keeps one simdjson parser and a padded copy buffer, sized by
//   the largest input it has parsed.
#ifndef TTLDB_JSON_H_
#define TTLDB_JSON_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

// 16 MiB: MongoDB's maximum BSON document size.
inline constexpr size_t kMaxDocumentBytes = 16 * 1024 * 1024;
// The largest storage JSON (JsonFormat::kStorage) of a document within the
// 16 MiB BSON limit (document/bson.h): the JSON of a value takes at
// most ~6 bytes per BSON byte (a control character in a string is "\u0001";
// a MinKey array element is 3 BSON bytes and 14 of JSON), so 8x bounds it.
// Stored documents are read back with this limit.
inline constexpr size_t kMaxStoredJsonBytes = 8 * kMaxDocumentBytes;
// 100: MongoDB's maximum nesting depth of a stored document.
inline constexpr int kMaxNestingDepth = 100;

struct ParseOptions {
  size_t max_bytes = kMaxDocumentBytes;
  int max_depth = kMaxNestingDepth;
};

// For reading documents back from storage (and `ttldb import` lines):
// max_bytes is kMaxStoredJsonBytes.
inline ParseOptions StoredJsonParseOptions() {
  ParseOptions o;
  o.max_bytes = kMaxStoredJsonBytes;
  return o;
}

// Parses one JSON document whose top level must be an object. Rejects
// malformed JSON, invalid UTF-8, input over max_bytes, nesting deeper than
// max_depth, and malformed Extended JSON wrappers.
absl::StatusOr<Value> ParseDocument(absl::string_view json,
                                    const ParseOptions& options = {});

// ParseDocument into *out, which it overwrites (its content is unspecified
// after an error): the same Value or the same error, without moving the
// tree through a StatusOr. The read path parses straight into the Value it
// hands out.
absl::Status ParseDocumentInto(absl::string_view json,
                               const ParseOptions& options, Value* out);

// ParseDocument with the default options, and whether `json` is already
// the document's storage form: *storage_form true means that
// AppendJson(result, JsonFormat::kStorage) writes exactly `json`, byte for
// byte, and that CheckStorable(result) (document/storable.h) is OK, so a
// writer may store `json` as it is. False says nothing either way (the
// input is then serialized and checked as usual); always false on error.
absl::StatusOr<Value> ParseDocumentNotingForm(absl::string_view json,
                                              bool* storage_form);

// Parses any JSON value (object, array or scalar) with the same rules.
absl::StatusOr<Value> ParseValue(absl::string_view json,
                                 const ParseOptions& options = {});

enum class JsonFormat {
  // MongoDB relaxed Extended JSON: numbers as plain JSON (doubles keep a
  // decimal point: 1.0), dates in 1970..9999 as {"$date": "ISO-8601Z"}.
  kRelaxed,
  // MongoDB canonical Extended JSON: every number and date wrapped.
  kCanonical,
  // What `ttldb export` writes: relaxed Extended JSON (readable by
  // mongoimport), except that int64 stays {"$numberLong": "n"} so that an
  // export/import round trip keeps the type.
  kExport,
  // ttldb's storage form: compact and type-exact. Like relaxed, but int64 as
  // {"$numberLong": "n"} and dates as {"$date": {"$numberLong": "ms"}}, so
  // that ParseDocument(ToJson(v, kStorage)) reproduces v exactly.
  kStorage,
};

// Serializes `v` (any type) as one line of JSON, no spaces.
std::string ToJson(const Value& v, JsonFormat format = JsonFormat::kRelaxed);
void AppendJson(const Value& v, JsonFormat format, std::string* out);

// ISO-8601 "YYYY-MM-DDTHH:MM:SS.mmmZ" of a date in milliseconds since the
// epoch, and the reverse (accepts Z or a ±HH:MM offset, optional fraction).
std::string FormatIsoDate(int64_t millis);
bool ParseIsoDate(absl::string_view text, int64_t* millis);

}  // namespace ttldb

#endif  // TTLDB_JSON_H_
