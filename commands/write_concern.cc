#include "commands/write_concern.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"

namespace ttldb {
namespace commands {

absl::StatusOr<WriteOptions> ParseWriteConcern(const Value& wc) {
  WriteOptions out;
  if (wc.is_null()) return out;
  if (!wc.is_object()) return IdlWrongType("writeConcern", wc, "object");
  const Value* w = wc.Get("w");
  const Value* j = wc.Get("j");
  const Value* fsync = wc.Get("fsync");
  const bool want_j = j != nullptr && TrueValue(*j);
  const bool want_fsync = fsync != nullptr && TrueValue(*fsync);
  if (want_j && want_fsync) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "fsync and j options cannot be used together");
  }
  if (w != nullptr) {
    if (w->is_number()) {
      const double n = w->AsDouble();
      if (n < 0) {
        return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                          "w has to be a non-negative number and not greater "
                          "than 50; found: " +
                              std::to_string(static_cast<int64_t>(n)));
      }
      if (n > 1) {
        return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                          "cannot use 'w' > 1 when a host is not replicated");
      }
    } else if (w->is_string()) {
      if (w->string_value() == "majority") {
        out.sync = true;  // majority of one: durable on this node
      } else {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kBadValue,
            absl::StrCat("cannot use non-majority 'w' mode ", w->string_value(),
                         " when a host is not a member of a replica set"));
      }
    } else if (!w->is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                        "w has to be a number, string, or object");
    }
  }
  if (want_j || want_fsync) out.sync = true;
  return out;
}

}  // namespace commands
}  // namespace ttldb
