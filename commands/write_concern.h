// writeConcern on a standalone server (src/mongo/db/write_concern.cpp
// validateWriteConcern, write_concern_options.cpp parse): w may be 0, 1 or
// "majority" (a standalone is its own majority); j: true or fsync: true
// wait for the journal, here a synced LevelDB write; j with fsync is 9
// FailedToParse; w > 1 and tag modes are 2 BadValue.
#ifndef TTLDB_COMMANDS_WRITE_CONCERN_H_
#define TTLDB_COMMANDS_WRITE_CONCERN_H_

#include "absl/status/statusor.h"
#include "ttldb/options.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

absl::StatusOr<WriteOptions> ParseWriteConcern(const Value& write_concern);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_WRITE_CONCERN_H_
