// MongoDB's duplicate key error (code 11000 DuplicateKey) with its extra
// information, as src/mongo/db/storage/duplicate_key_error_info.cpp has it:
// the message
//   E11000 duplicate key error collection: test.c index: a_1 dup key: { a: 1 }
// names the namespace <db>.<collection>, and the status carries the index's
// key pattern ({a: 1}) and the colliding values ({a: 1}), which the command
// layer adds to the write error (or the command's error reply) as the
// fields keyPattern and keyValue, after code and before errmsg.
#ifndef TTLDB_DUPLICATE_KEY_ERROR_H_
#define TTLDB_DUPLICATE_KEY_ERROR_H_

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

struct DuplicateKeyInfo {
  Value key_pattern;  // {field: 1 or -1, ...}, in the index's order
  Value key_value;    // {field: value, ...}, null for a missing field
};

// AlreadyExists with MongoDB code 11000 and the message above, prefixed by
// `prefix` ("" for a write; "Index build failed: " for createIndexes).
// `ns` is "<db>.<collection>".
absl::Status DuplicateKeyError(absl::string_view ns,
                               absl::string_view index_name,
                               const DuplicateKeyInfo& info,
                               absl::string_view prefix = "");

// The keyPattern / keyValue a status made by DuplicateKeyError carries, or
// nullopt for any other status (also after the message was rewritten with
// absl::Status(code, new_message): keep the payloads when wrapping).
std::optional<DuplicateKeyInfo> GetDuplicateKeyInfo(const absl::Status& status);

}  // namespace ttldb

#endif  // TTLDB_DUPLICATE_KEY_ERROR_H_
