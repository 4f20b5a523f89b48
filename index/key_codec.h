// Order-preserving, self-delimiting encoding of document values as index key
// bytes (the grammar is at the top of key_codec.cc and in
// docs/format.md).
//
// Under LevelDB's bytewise comparator, for any values a and b:
//   encode(a) <  encode(b)  iff  CompareValues(a, b) < 0
//   encode(a) == encode(b)  iff  CompareValues(a, b) == 0
// so Int32(5), Int64(5) and Double(5.0) encode to the same bytes (MongoDB
// treats them as the same index key), and -0.0 encodes as 0. A descending
// field is the bytewise complement of its ascending encoding, which reverses
// the order. Because every encoding is self-delimiting (no encoding is a
// prefix of another), the concatenation of several encodings (a compound key,
// then the _id) compares field by field.
//
// Every value starts with one "bracket" byte naming its type (all numbers
// share one contiguous group of brackets), so all keys of one type form one
// contiguous byte range: KeyBracketStart/KeyBracketEnd give its bounds.
#ifndef TTLDB_INDEX_KEY_CODEC_H_
#define TTLDB_INDEX_KEY_CODEC_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

// Appends the key encoding of `v` (any type, nested to any depth) to *out.
void AppendKeyValue(const Value& v, bool descending, std::string* out);

// Convenience: the encoding of `v` alone.
std::string EncodeKeyValue(const Value& v, bool descending);

// Appends the key ttldb indexes an empty array as (MongoDB indexes it as
// `undefined`). It has its own bracket that sorts just below null and above
// MinKey; it decodes as an empty array. No Value encodes to it.
void AppendEmptyArrayKey(bool descending, std::string* out);

// Decodes one value from the front of *in and advances *in past it. Numbers
// decode to a canonical type that compares equal to what was encoded: Int32
// if the value is an integer that fits, else Int64 if it is an integer in
// int64 range, else Double. Returns DataLoss on malformed or truncated input.
absl::StatusOr<Value> DecodeKeyValue(absl::string_view* in, bool descending);

// Bounds of the byte range holding every encoding of type `t` (all number
// types share one range; kInt32, kInt64 and kDouble give the same answer):
// every such encoding e satisfies KeyBracketStart(t, d) <= e <
// KeyBracketEnd(t, d) bytewise, and no encoding of another type lies in
// [start, end). Start is inclusive, end exclusive. With descending = true the
// bracket is the one of the complemented encodings.
std::string KeyBracketStart(ValueType t, bool descending);
std::string KeyBracketEnd(ValueType t, bool descending);

// The smallest byte string greater than every string that starts with
// `prefix` (an exclusive upper bound for "all keys beginning with prefix",
// e.g. every index entry of encode(Date(cutoff)) whatever its _id suffix).
// Returns "" when there is none (prefix empty or all 0xFF): no upper bound.
std::string KeyPrefixEnd(absl::string_view prefix);

}  // namespace ttldb

#endif  // TTLDB_INDEX_KEY_CODEC_H_
