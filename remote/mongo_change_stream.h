// Collection::Watch and Database::Watch on a MongoDB deployment: a
// ChangeStream over libmongoc's change stream (mongoc_collection_watch,
// mongoc_database_watch: the $changeStream aggregate, its getMores, and
// the drivers' resume after a network error). Internal to //remote.
#ifndef TTLDB_REMOTE_MONGO_CHANGE_STREAM_H_
#define TTLDB_REMOTE_MONGO_CHANGE_STREAM_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "remote/remote_context.h"
#include "ttldb/change_stream.h"

namespace ttldb {
namespace remote {

// Opens a stream on collection `coll` of the context's database, or on the
// whole database when `coll` is empty. The stream holds one pooled
// connection until it is destroyed. Errors of the $changeStream aggregate
// itself (a bad option or pipeline; 40573 where the deployment has no
// change streams, as a standalone mongod) come back here, mapped as every
// other call's.
absl::StatusOr<std::unique_ptr<ChangeStream>> OpenMongoChangeStream(
    const std::shared_ptr<const RemoteContext>& context,
    const std::string& coll, const ChangeStreamOptions& options);

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_MONGO_CHANGE_STREAM_H_
