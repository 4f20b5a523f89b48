// MongoDB's errors, as libmongoc reports them, turned into the statuses the
// embedded engine returns for the same errors: the same MongoDB code, the
// same absl code, the duplicate key error with its keyPattern / keyValue
// (ttldb/duplicate_key_error.h). Internal to //remote.
#ifndef TTLDB_REMOTE_MONGO_STATUS_H_
#define TTLDB_REMOTE_MONGO_STATUS_H_

#include <bson/bson.h>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {
namespace remote {

// The absl code ttldb's engine reports MongoDB code `code` with
// (AlreadyExists for 11000 / 48 / 85 / 86, NotFound for 26 / 27,
// Unimplemented for 115 / 238, ...; InvalidArgument for the other codes
// of bad input).
absl::StatusCode KindOfMongoCode(int code);

// One error document of a reply ({code, errmsg, keyPattern?, keyValue?}:
// a writeErrors element, a writeConcernError, a command's error reply).
// `ns` ("db.collection") is what a duplicate key error names.
absl::Status StatusFromErrorDocument(const Value& error, absl::string_view ns);

// A failed libmongoc call: the reply's first writeError when it has one,
// else its writeConcernError, else `error` (a server error: its code; a
// network or server-selection failure: Unavailable, 6 HostUnreachable or
// 89 NetworkTimeout; a client-side refusal: InvalidArgument 2 BadValue).
absl::Status StatusFromMongoc(const bson_error_t& error, const bson_t* reply,
                              absl::string_view ns);

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_MONGO_STATUS_H_
