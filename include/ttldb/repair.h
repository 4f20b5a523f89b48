// Repairing a damaged ttldb database: `ttldb repair --db DIR`.
//
//   ASSIGN_OR_RETURN(ttldb::RepairReport report,
//                    ttldb::RepairDatabase("/var/lib/app/db"));
//   std::cout << report.Summary();
//
// RepairDatabase works on a closed database (it takes the LevelDB lock and
// fails with FailedPrecondition if another Database has the directory open)
// and changes it in place, so run it on a copy when the damaged files
// matter. It:
//
//  1. runs LevelDB's RepairDB with checksums verified: every table and log
//     is scanned, a block or log record whose checksum fails is dropped and
//     the rest kept (the original files are moved to DIR/lost/). A
//     corrupted block thus loses the documents in that block only, never
//     the collection (MongoDB's repair likewise salvages what validates and
//     drops the rest; reads of a damaged range fail with 301
//     DataCorruptionDetected until the repair).
//  2. fixes the catalog: a lost meta record is rebuilt; a collection whose
//     catalog entry is corrupt gets back the documents stored under its id
//     when that can be known (its entry still parses, or it is the only
//     damaged entry and one id holds documents no entry names), with the
//     indexes that still compile; two entries sharing an id keep the
//     documents in the first (by name) and the others become empty;
//     documents under an id no entry names are kept in a new collection
//     "lost_and_found.<id>"; index entries under such ids are deleted.
//  3. rebuilds every index of every collection from its documents: stored
//     values that are not a valid document (or have no _id) are deleted
//     and counted, a document stored under another _id's key is moved,
//     documents the old index entries named but that are gone are counted
//     as lost, multikey flags are recomputed.
//  4. reopens the database normally and validates every collection.
//
// The report says what was lost: per collection the documents kept,
// unreadable documents deleted, documents known lost (named by index
// entries that survived), index entries rebuilt, and the validate result;
// the catalog entries repaired and how. Documents in a dropped block that
// no surviving index entry names are lost without a count (LevelDB's
// repair does not count the entries of a block it cannot read).
#ifndef TTLDB_REPAIR_H_
#define TTLDB_REPAIR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/options.h"
#include "ttldb/value.h"

namespace ttldb {

struct RepairReport {
  struct CollectionRepair {
    std::string name;
    int64_t documents = 0;              // kept, readable
    int64_t unreadable_documents = 0;   // stored values deleted: not a
                                        // document, or no _id
    int64_t moved_documents = 0;        // stored under a wrong key, moved
    int64_t lost_documents = 0;         // named by surviving index entries,
                                        // no longer stored
    int64_t index_entries_before = 0;   // entries found before the rebuild
    int64_t index_entries_rebuilt = 0;  // entries written by the rebuild
    bool valid = false;                 // validate after the repair
    std::vector<std::string> validate_errors;
  };
  bool meta_rebuilt = false;  // the meta record was lost and rebuilt
  // One line per catalog entry repaired: what was wrong, what was done.
  std::vector<std::string> catalog;
  std::vector<CollectionRepair> collections;

  // True when every collection validates after the repair.
  bool AllValid() const;
  // {metaRebuilt, catalog: [...], collections: [{name, documents, ...}]}.
  Value ToValue() const;
};

// Repairs the closed database in `path` as described above. `options` give
// the Env and storage sizes; the TTL monitor is not started. Errors: the
// directory is open elsewhere (FailedPrecondition), LevelDB's repair or a
// write fails (Internal), the repaired database cannot be opened.
absl::StatusOr<RepairReport> RepairDatabase(absl::string_view path,
                                            const Options& options = {});

}  // namespace ttldb

#endif  // TTLDB_REPAIR_H_
