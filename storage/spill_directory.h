// The database's temporary area, <db>/_tmp: where a sort or a $group past
// its memory bound writes its spill files under allowDiskUse
// (query/spill_file.h). Each file is removed by its owner; the whole area
// is removed at Close and at the next Open, so nothing a crash left there
// outlives it.
#ifndef TTLDB_STORAGE_SPILL_DIRECTORY_H_
#define TTLDB_STORAGE_SPILL_DIRECTORY_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <string>

#include "absl/status/statusor.h"

namespace ttldb {

// The area of the database at `db_path`, created if missing. An in-memory
// database (Options::in_memory) never writes files: 292
// QueryExceededMemoryLimitNoDiskUseAllowed "allowDiskUse cannot spill: the
// database is in memory (Options::in_memory)". A directory that cannot be
// created: InternalError naming it.
absl::StatusOr<std::string> SpillDirectory(const std::string& db_path,
                                           bool in_memory);

// Removes the area and everything in it (nothing if it does not exist).
void RemoveSpillDirectory(const std::string& db_path);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_SPILL_DIRECTORY_H_
