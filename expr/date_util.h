// Dates for the aggregation operators: time zones (Olson names from the
// system's tzdata through absl::LoadTimeZone, "+hh:mm" / "+hhmm" / "+hh"
// offsets), MongoDB's $dateToString format specifiers, and the date-string
// parser behind $dateFromString and $toDate. Internal to //expr.
#ifndef TTLDB_EXPR_DATE_UTIL_H_
#define TTLDB_EXPR_DATE_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace ttldb {
namespace agg {

struct ZoneInfo {
  absl::TimeZone tz;
  bool is_utc = true;  // UTC itself (the default, "UTC", "GMT", "+00:00")
};

// A zone by name or offset; 40485 "unrecognized time zone identifier:
// \"<name>\"" otherwise.
absl::StatusOr<ZoneInfo> LoadZone(absl::string_view name);

// Whether `format` is a valid $dateToString format (18535 for a trailing
// '%', 18536 for an unknown specifier).
absl::Status ValidateDateFormat(absl::string_view format);

// Formats `millis` in `tz` with MongoDB's specifiers (%Y %m %d %H %M %S %L
// %j %w %u %U %V %G %Z %z %%); 18537 for a year outside 0-9999.
absl::StatusOr<std::string> FormatDate(absl::string_view format, int64_t millis,
                                       absl::TimeZone tz);

// Parses a date string. Without `format`: ISO-8601 dates with optional time
// (T or space), fraction and zone (Z, +hh:mm, +hhmm, +hh); a string
// without a zone is in `tz`. With `format`: MongoDB's specifiers. Errors
// are 241 ConversionFailure "Error parsing date string '<s>'; ...".
absl::StatusOr<int64_t> ParseDateString(
    absl::string_view s, absl::TimeZone tz,
    const std::optional<std::string>& format);

// Calendar fields of an instant in a zone.
struct DateParts {
  int64_t year;
  int month, day, hour, minute, second, millisecond;
  int day_of_week;  // 1 (Sunday) .. 7 (Saturday)
  int day_of_year;  // 1 .. 366
  int week;         // 0 .. 53 (%U: weeks start on Sunday)
  int iso_week;     // 1 .. 53
  int64_t iso_week_year;
  int iso_day_of_week;  // 1 (Monday) .. 7 (Sunday)
  int utc_offset_seconds;
};
DateParts ToParts(int64_t millis, absl::TimeZone tz);

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_EXPR_DATE_UTIL_H_
