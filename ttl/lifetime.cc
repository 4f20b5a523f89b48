#include "ttl/lifetime.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "ttl/expiry.h"
#include "ttl/ttl_spec.h"

namespace ttldb {
namespace {

std::string Rfc3339Millis(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", t, absl::UTCTimeZone());
}

absl::Status Invalid(absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument,
                    kDocumentValidationFailure,
                    absl::StrCat("Document failed validation: ", message));
}

}  // namespace

absl::Status CheckLifetime(const IndexSpec& spec, const Value& doc,
                           absl::Time now) {
  if (!spec.max_lifetime_seconds.has_value() && !spec.reject_expired) {
    return absl::OkStatus();
  }
  const std::optional<int64_t> e = ActiveExpireAfterSeconds(spec);
  if (!e.has_value()) return absl::OkStatus();
  const std::string& field = spec.key[0].path;
  const std::optional<int64_t> earliest = EarliestIndexedDateMillis(spec, doc);

  if (spec.reject_expired && earliest.has_value() &&
      IsDateExpired(*earliest, *e, now)) {
    return Invalid(absl::StrCat("field '", field, "' is already expired at ",
                                Rfc3339Millis(now), " under index '", spec.name,
                                "' (expireAfterSeconds ", *e,
                                ") with rejectExpired"));
  }
  if (spec.max_lifetime_seconds.has_value()) {
    const int64_t max_lifetime = *spec.max_lifetime_seconds;
    if (!earliest.has_value()) {
      return Invalid(absl::StrCat(
          "field '", field,
          "' holds no date, so the document would never expire under index '",
          spec.name, "' with maxLifetimeSeconds ", max_lifetime));
    }
    // absl::Time arithmetic saturates: no overflow at the extremes.
    const absl::Time expires = ExpiryTime(*earliest, *e);
    if (expires > now + absl::Seconds(max_lifetime)) {
      return Invalid(absl::StrCat(
          "field '", field, "' expires at ", Rfc3339Millis(expires),
          ", more than maxLifetimeSeconds ", max_lifetime, " after now (",
          Rfc3339Millis(now), ") under index '", spec.name, "'"));
    }
  }
  return absl::OkStatus();
}

}  // namespace ttldb
