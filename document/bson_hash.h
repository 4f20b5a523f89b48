// MongoDB's hash of a value: BSONElementHasher::hash64 with seed 0
// (src/mongo/db/hasher.cpp), the key of a hashed index ({a: "hashed"}) and
// the result of $toHashedIndexKey. Shards and explain output agree with
// MongoDB's because the bytes hashed are the same.
#ifndef TTLDB_DOCUMENT_BSON_HASH_H_
#define TTLDB_DOCUMENT_BSON_HASH_H_

#include <cstdint>

#include "ttldb/value.h"

namespace ttldb {

// The first 8 bytes (little-endian) of the MD5 digest of: the seed (int32
// 0), then the value as hasher.cpp's recursiveHash feeds it: its canonical
// type (int32 LE: MinKey -1, null 5, numbers 10, string 15, object 20,
// array 25, binData 30, ObjectId 35, bool 40, Date 45, Timestamp 47, regex
// 50, MaxKey 127), then for a number the int64 it truncates to (NaN 0,
// clamped to the int64 range, the double 2^63 as -2^63:
// safeNumberLongForHash; a Decimal128 rounds ties to even), for an object
// or array each field as type, name and NUL, value, then an end marker
// (int32 0), and for the rest its BSON value bytes. So 42, 42.5 and
// NumberLong(42) hash alike, and {check: 42}'s value hashes to
// -944302157085130861 (hasher.cpp's own check).
int64_t BsonHash64(const Value& v);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_BSON_HASH_H_
