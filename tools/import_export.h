// ttldb import / export: a collection to and from mongoexport's format, one
// Extended JSON document per line, so data moves both ways between ttldb
// and MongoDB (mongoimport / mongoexport).
//
// Export writes relaxed Extended JSON, except that 64-bit integers keep
// their type as {"$numberLong": "n"} (relaxed JSON would print them as
// plain numbers, which read back as 32-bit ints; mongoimport reads both
// forms). With `canonical`, it writes canonical Extended JSON, like
// `mongoexport --jsonFormat=canonical`. Documents a TTL index has expired
// (hidden from reads) are not exported.
//
// Index specs export as a JSON array in listIndexes' shape, _id_ first:
// each element is createIndexes-ready for MongoDB
// (db.runCommand({createIndexes: "c", indexes: <array>})).
//
// Import reads one document per line (relaxed or canonical Extended JSON;
// blank lines are skipped) or a single JSON array of documents
// (`mongoexport --jsonArray`), and inserts in ordered batches. It stops at
// the first bad line (malformed JSON, duplicate key, a rejected lifetime)
// with an error naming the line; every document before it is imported.
//
// Bounded lifetimes (issue 8): a document that a TTL index of the target
// collection has already expired by more than `skew_tolerance` at `now`
// (honouring the index's partialFilterExpression) is skipped and counted,
// not written and swept again; a document expired by less is imported and
// expires normally. Under an index with rejectExpired, every already
// expired document is skipped (the engine would refuse it).
#ifndef TTLDB_TOOLS_IMPORT_EXPORT_H_
#define TTLDB_TOOLS_IMPORT_EXPORT_H_

#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "ttldb/database.h"
#include "ttldb/value.h"

namespace ttldb {

struct ExportOptions {
  bool canonical = false;
};

// Writes every (visible) document of `coll`, one per line; returns how many.
absl::StatusOr<int64_t> ExportDocuments(Database* db, absl::string_view coll,
                                        const ExportOptions& options,
                                        std::ostream* out);

// Writes the index specs of `coll` as a JSON array, one spec per line.
absl::Status ExportIndexes(Database* db, absl::string_view coll,
                           std::ostream* out);

// One line of export output: relaxed Extended JSON with Int64 kept as
// {"$numberLong": ...}.
std::string ToExportJson(const Value& doc);

// Creates the indexes listed in `json` (an ExportIndexes array; _id_ is
// skipped). Returns how many specs were applied.
absl::StatusOr<int> ImportIndexes(Database* db, absl::string_view coll,
                                  absl::string_view json);

struct ImportOptions {
  // Drop the collection before importing.
  bool drop = false;
  // 120 s: issue 8's default tolerance for clock skew between the machine
  // that wrote a document and this one.
  absl::Duration skew_tolerance = absl::Seconds(120);
  // The wall time the expiry check uses.
  absl::Time now = absl::UnixEpoch();
  // 1000: one InsertMany (one lock hold per document, bounded memory).
  size_t batch_size = 1000;
  // Called after each batch (for a progress line).
  std::function<void(int64_t imported, int64_t skipped)> progress;
};

struct ImportResult {
  int64_t imported = 0;
  int64_t skipped = 0;
  // Skipped documents per TTL index name.
  std::map<std::string, int64_t> skipped_by_index;
  absl::Duration skew_tolerance;

  // "imported 998 documents, skipped 2 already expired by more than 120 s
  // (TTL index accessTime_1)".
  std::string Summary() const;
};

// Imports documents from `in` into `coll`. `result` receives the counts
// even when an error stops the import (documents before the bad line stay
// imported). Batches are written unsynced and the last document synced
// (WriteOptions::sync, which syncs the whole log), so OK means every
// imported document survives a power loss; a failed sync is an error.
absl::Status ImportDocuments(Database* db, absl::string_view coll,
                             std::istream* in, const ImportOptions& options,
                             ImportResult* result);

}  // namespace ttldb

#endif  // TTLDB_TOOLS_IMPORT_EXPORT_H_
