// MongoDB's command reply shapes: {..., ok: 1} for success and
// {ok: 0, errmsg, code, codeName} for failure, built from an absl::Status
// that carries a MongoDB code (base/status.h).
#ifndef TTLDB_COMMANDS_REPLY_H_
#define TTLDB_COMMANDS_REPLY_H_

#include <cstdint>

#include "absl/status/status.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// `fields` followed by ok: 1.0 (mongod replies ok as a double).
Value OkReply(Value::Object fields = {});

// {ok: 0.0, errmsg, code, codeName[, keyPattern, keyValue]} for a failed
// status. A status without
// a MongoDB code is reported as 1 InternalError, except absl's NotFound /
// AlreadyExists / InvalidArgument, which have no code only through a bug
// and are reported as 1 too: every layer below attaches its code.
Value ErrorReply(const absl::Status& status);

// Appends the error's extra information MongoDB's ErrorExtraInfo
// serializes beside code/errmsg: keyPattern and keyValue for a duplicate
// key (src/mongo/db/storage/duplicate_key_error_info.cpp). Nothing for
// other errors. ErrorReply adds it after codeName; a writeError after code.
void AppendErrorExtraInfo(const absl::Status& status, Value::Object* fields);

// The MongoDB code a reply reports for `status` (1 when it has none).
int ReplyCode(const absl::Status& status);

// A random (version 4) UUID, as BinData subtype 4.
Binary RandomUuid();

// A count as MongoDB replies with one: Int32 when it fits, else Int64.
Value Count(int64_t n);

// Int64 values that fit in an int32 become Int32, recursively (engine
// reports use Int64 everywhere; MongoDB's replies hold plain ints).
Value Narrow(Value v);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_REPLY_H_
