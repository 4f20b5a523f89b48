// A full, deterministic dump of a database for before/after comparisons:
// every collection, its listIndexes, and every document as canonical
// Extended JSON in _id order.
#ifndef TTLDB_TESTS_RELIABILITY_DB_DUMP_H_
#define TTLDB_TESTS_RELIABILITY_DB_DUMP_H_

#include <string>

#include "absl/status/statusor.h"
#include "ttldb/database.h"

namespace ttldb {

// One line per collection, index list and document. An error if any read
// fails.
absl::StatusOr<std::string> DumpDatabase(Database& db);

// Validate() of every collection; OK if all are valid, else an error
// naming the collection and quoting the report.
absl::Status ValidateAll(Database& db);

}  // namespace ttldb

#endif  // TTLDB_TESTS_RELIABILITY_DB_DUMP_H_
