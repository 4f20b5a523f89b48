// The size of a document in MongoDB's storage form, BSON (bsonspec.org), as
// MongoDB measures it for its 16 MiB limit (BSONObj::objsize()), computed
// from a Value without encoding it.
#ifndef TTLDB_DOCUMENT_BSON_SIZE_H_
#define TTLDB_DOCUMENT_BSON_SIZE_H_

#include <cstddef>

#include "document/value.h"

namespace ttldb {

// The BSON size of `doc` as a document: 4 (length) + its elements + 1.
// Each element is 1 (type) + the field name and a NUL + the value: int32 4,
// int64/double/date/timestamp 8, decimal 16, ObjectId 12, bool 1, null and
// MinKey/MaxKey 0, string 4 + bytes + 1, binData 4 + 1 + bytes, regex two
// NUL-terminated strings, object/array a nested document (array elements
// are named "0", "1", ...). `doc` must be an object.
size_t BsonDocumentSize(const Value& doc);

// The BSON size of one value as an element's value (no type byte or name).
size_t BsonValueSize(const Value& v);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_BSON_SIZE_H_
