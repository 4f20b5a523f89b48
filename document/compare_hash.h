// A hash of values that agrees with MongoDB's comparison: values that
// CompareValues(a, b, collator) (document/collator.h) finds equal hash
// alike, so a hash table keyed by it groups as a sorted map compared by
// that order would ($group's keys, without a tree walk per document).
//
// Numbers of every type hash by their floor (1, 1.0, NumberLong(1) and
// NumberDecimal("1.00") alike; 1.5 with 1), NaNs alike; strings by their
// bytes, or by their collation key under a collator; objects by field names
// and values, arrays by elements. Types whose comparison it does not follow
// (binData, regex, Timestamp, MinKey...) hash by their type alone: equal
// hashes then only say "maybe equal", as they always do.
#ifndef TTLDB_DOCUMENT_COMPARE_HASH_H_
#define TTLDB_DOCUMENT_COMPARE_HASH_H_

#include <cstddef>

#include "document/collator.h"
#include "ttldb/value.h"

namespace ttldb {

// `collator`: nullptr for the simple binary comparison.
size_t CompareHash(const Value& v, const Collator* collator);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_COMPARE_HASH_H_
