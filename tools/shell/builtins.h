// The shell's global constructors for BSON values: Date, ISODate,
// ObjectId, NumberLong, NumberInt, NumberDecimal, Timestamp, MinKey,
// MaxKey, BinData, UUID; and JavaScript date-string parsing.
#ifndef TTLDB_TOOLS_SHELL_BUILTINS_H_
#define TTLDB_TOOLS_SHELL_BUILTINS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "ttldb/value.h"

namespace ttldb {
namespace shell {

// The world the constructors read: the time and zone for new Date(), and
// where fresh ObjectIds and random UUID bytes come from.
struct BuiltinContext {
  int64_t now_millis = 0;
  // JavaScript reads "July 22, 2013 14:00:00" and new Date(y, m, d) in the
  // local time zone.
  absl::TimeZone time_zone = absl::UTCTimeZone();
  std::function<ObjectId()> new_object_id;
  std::function<std::string(size_t)> random_bytes;
};

// Whether `name` is one of the constructors above.
bool IsBuiltinConstructor(absl::string_view name);

// Calls constructor `name` (with `is_new` for `new Name(...)`). `Date()`
// without new gives the current time as a string, as JavaScript does.
// Errors are InvalidArgument with mongosh's wording where it has one.
absl::StatusOr<Value> CallBuiltin(absl::string_view name, bool is_new,
                                  const std::vector<Value>& args,
                                  const BuiltinContext& ctx);

// Parses a date string as `new Date(string)` does: ISO-8601 first (a date
// alone is UTC, a date-time without offset is local time), then the legacy
// forms "July 22, 2013 14:00:00", "Jul 22 2013", "22 July 2013 2:00 PM",
// "7/22/2013", "Mon Jul 22 2013 14:00:00 GMT+0200 (CEST)". False if none
// matches.
bool ParseJsDate(absl::string_view text, absl::TimeZone local, int64_t* millis);

// Parses ISODate's argument: ISO-8601, UTC unless an offset is given.
bool ParseIsoDateUtc(absl::string_view text, int64_t* millis);

// JavaScript's Date.prototype.toString:
// "Sun Nov 22 2026 00:47:45 GMT+0000 (UTC)".
std::string JsDateString(int64_t millis, absl::TimeZone zone);

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_BUILTINS_H_
