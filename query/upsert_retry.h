// When an upsert that lost a race may try again.
//
// Two clients upsert the same missing document: both find no match, both
// insert, and one insert fails on a unique index with E11000. MongoDB
// (since 4.2) then runs the losing update again, which now matches the
// winner's document and updates it, so no client sees the error. It does
// so only when the retry is sure to be the same request against the
// winner's document: src/mongo/db/ops/write_ops_exec.cpp,
// shouldRetryDuplicateKeyException (used by performSingleUpdateOpWithDup-
// KeyRetry and by the findAndModify command), retries when
//  - the update is an upsert and not multi;
//  - the filter is nothing but equalities: one $eq, or an $and of them
//    (after MongoDB's optimizer has flattened nested $and, collapsed a
//    one-clause $or and turned a one-value $in into an $eq);
//  - the unique index's key fields are exactly the filter's equality
//    paths (as many of them, each one present), and
//  - the duplicated key's values are the values those equalities ask for.
// A duplicate on any other index (say a unique `email` the update sets
// while the filter names `_id`) is a real conflict and is reported.
#ifndef TTLDB_QUERY_UPSERT_RETRY_H_
#define TTLDB_QUERY_UPSERT_RETRY_H_

#include "query/filter.h"
#include "ttldb/value.h"

namespace ttldb {

// Whether a single (multi: false) upsert with `filter`, whose insert failed
// with a duplicate key on the index with key pattern `key_pattern`
// ({field: 1 or -1, ...}) for the values `key_value` ({field: value, ...},
// in key pattern order), should be run again (MongoDB's rule above).
bool ShouldRetryUpsertDuplicateKey(const Filter& filter,
                                   const Value& key_pattern,
                                   const Value& key_value);

}  // namespace ttldb

#endif  // TTLDB_QUERY_UPSERT_RETRY_H_
