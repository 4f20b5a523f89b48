// Which names a collection may have.
#ifndef TTLDB_COLLECTION_NAME_H_
#define TTLDB_COLLECTION_NAME_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace ttldb {

// MongoDB's NamespaceString::validCollectionName as ttldb applies it: OK for
// 1..120 bytes of valid UTF-8 without '$', NUL, quotes, backslashes or
// control characters, not starting with '.' nor "system." (except
// "system.profile", the profiler's, and "system.users", the server's users).
// Otherwise InvalidArgument, 73 InvalidNamespace "Invalid collection name
// '<name>': <why>". Every Collection operation checks it; callers that
// name collections from outside (the server's commands) check it first.
absl::Status ValidateCollectionName(absl::string_view name);

}  // namespace ttldb

#endif  // TTLDB_COLLECTION_NAME_H_
