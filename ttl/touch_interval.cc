#include "ttl/touch_interval.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {

absl::Status CheckTouchInterval(absl::Duration touch_min_interval,
                                int64_t expire_after_seconds,
                                absl::string_view collection,
                                absl::string_view index_name, int code) {
  if (touch_min_interval <= absl::ZeroDuration() || expire_after_seconds <= 0) {
    return absl::OkStatus();
  }
  if (touch_min_interval * 2 <= absl::Seconds(expire_after_seconds)) {
    return absl::OkStatus();
  }
  return MongoError(
      absl::StatusCode::kInvalidArgument, code,
      absl::StrCat("TTL index '", index_name, "' of collection '", collection,
                   "': expireAfterSeconds (", expire_after_seconds,
                   ") must be at least twice touch_min_interval (",
                   absl::FormatDuration(touch_min_interval),
                   "): Touch leaves a date younger than that interval "
                   "unwritten, so a document in use could expire. Raise "
                   "expireAfterSeconds or lower touch_min_interval"));
}

}  // namespace ttldb
