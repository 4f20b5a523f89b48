// BSON, MongoDB's document format (bsonspec.org), for Values: the size of a
// document in BSON, and the codec between BSON and Value.
//
// Two targets share this header. The size (BsonDocumentSize, BsonValueSize;
// bson_size.cc) is part of //document, as the library measures every
// document against MongoDB's 16 MiB limit. The codec (BsonToValue,
// ValueToBson, IsValidUtf8Key; bson.cc) is //document:bson, through libbson
// (Debian's libbson-dev): only the wire protocol and the tools link it, so
// the embeddable library (//:ttldb) does not depend on libbson.
//
// The codec:
//
// Every BSON type a Value has maps one to one: double, string, document,
// array, binData (all subtypes, the old subtype 2 unwrapped by libbson),
// ObjectId, bool, date, null, regex, int32, timestamp, int64, decimal128,
// minKey, maxKey.
//
// Regex flags: those libbson writes back ("ilmsux"), sorted and once
// each; another flag is refused (51108), never dropped.
//
// BSON's deprecated types: symbol (0x0E) becomes a string, as MongoDB
// compares and sorts symbols together with strings (BSONType::symbol shares
// the string bracket in canonicalizeBSONType) and as the drivers decode it
// when promoting values. undefined (0x06), DBPointer (0x0C), JavaScript code
// (0x0D) and code with scope (0x0F) have no ttldb Value and are refused with
// BadValue (2) naming the field: ttldb cannot store or compare them.
//
// Input is checked completely before any Value is built: lengths and
// terminators (InvalidBSON, 22, as mongod's validateBSON), UTF-8 of every
// key, string and regex (InvalidBSON 22, "invalid UTF-8"), and nesting
// (Overflow, 15, "BSONObj exceeds maximum nested object depth" past 200
// levels, MongoDB's BSONDepth::kDefaultMaxAllowableDepth). Nothing recurses
// deeper than that bound, so hostile input cannot exhaust the stack.
#ifndef TTLDB_DOCUMENT_BSON_H_
#define TTLDB_DOCUMENT_BSON_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

// The BSON size of `doc` as a document, as MongoDB measures it for its
// 16 MiB limit (BSONObj::objsize()), computed without encoding it: 4
// (length) + its elements + 1.
// Each element is 1 (type) + the field name and a NUL + the value: int32 4,
// int64/double/date/timestamp 8, decimal 16, ObjectId 12, bool 1, null and
// MinKey/MaxKey 0, string 4 + bytes + 1, binData 4 + 1 + bytes, regex two
// NUL-terminated strings, object/array a nested document (array elements
// are named "0", "1", ...). `doc` must be an object.
size_t BsonDocumentSize(const Value& doc);

// The BSON size of one value as an element's value (no type byte or name).
size_t BsonValueSize(const Value& v);

// The length of array element i's name: the digits of i ("0", "1", ...).
inline size_t BsonIndexNameSize(size_t i) {
  size_t n = 1;
  while (i >= 10) {
    i /= 10;
    ++n;
  }
  return n;
}

// 200: MongoDB's BSONDepth::kDefaultMaxAllowableDepth.
constexpr int kMaxBsonDepth = 200;

// Decodes one BSON document occupying exactly data[0, size) into an object
// Value. Errors carry MongoDB's code (base/status.h ErrorCode).
absl::StatusOr<Value> BsonToValue(const uint8_t* data, size_t size);

// Whether `key` is valid UTF-8 (NUL-free), as every BSON key must be.
bool IsValidUtf8Key(absl::string_view key);

// Encodes an object Value as one BSON document. Fails (BSONObjectTooLarge,
// 10334) only when the document exceeds what BSON can hold; a non-object
// Value is a programming error and fails with InvalidArgument.
absl::StatusOr<std::string> ValueToBson(const Value& document);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_BSON_H_
