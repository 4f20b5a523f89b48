// The size a value takes in MongoDB's BSON encoding (bsonspec.org).
#ifndef TTLDB_DOCUMENT_BSON_SIZE_H_
#define TTLDB_DOCUMENT_BSON_SIZE_H_

#include <cstddef>

#include "document/value.h"

namespace ttldb {

// The bytes `v` takes as a BSON element's value (without the type byte and
// the field name): 4 for an int, 8 for a long, double, date or timestamp,
// 16 for a decimal, 12 for an ObjectId, 1 for a bool, 0 for null, MinKey
// and MaxKey, 4 + length + 1 for a string, 4 + 1 + length for binary data,
// pattern + 1 + options + 1 for a regex, and the embedded document's size
// for an object or array (an array's field names are "0", "1", ...).
// For an object this is the BSON document size, as Object.bsonsize() gives.
size_t BsonValueSize(const Value& v);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_BSON_SIZE_H_
