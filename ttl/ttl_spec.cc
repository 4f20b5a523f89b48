#include "ttl/ttl_spec.h"

#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/safe_number.h"

namespace ttldb {
namespace {

constexpr int64_t kMinInt32 = std::numeric_limits<int32_t>::min();

absl::Status CannotCreateTtlIndex(absl::string_view message,
                                  absl::string_view spec_text) {
  if (spec_text.empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                      message);
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                    absl::StrCat(message, ". Index spec: ", spec_text));
}

// The range and sign checks shared by ParseExpireAfterSeconds and
// NormalizeExpireAfterSeconds, on the value already truncated.
absl::StatusOr<int64_t> CheckTruncated(int64_t truncated) {
  if (truncated < kMinInt32 || truncated > kMaxExpireAfterSeconds) {
    return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                      "TTL index 'expireAfterSeconds' must be within the "
                      "range of a 32-bit integer");
  }
  if (truncated < 0) {
    return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                      "TTL index 'expireAfterSeconds' option cannot be less "
                      "than 0");
  }
  return truncated;
}

}  // namespace

absl::StatusOr<int64_t> NormalizeExpireAfterSeconds(double value) {
  if (std::isnan(value)) {
    return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                      "TTL index 'expireAfterSeconds' option must not be NaN");
  }
  return CheckTruncated(SafeNumberLong(value));
}

absl::StatusOr<int64_t> ParseExpireAfterSeconds(const Value& value) {
  switch (value.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      return CheckTruncated(value.int64_value());
    case ValueType::kDouble:
      return NormalizeExpireAfterSeconds(value.double_value());
    default:
      return MongoError(
          absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
          absl::StrCat("TTL index 'expireAfterSeconds' option must be "
                       "numeric, but received a type of '",
                       TypeName(value.type()), "'"));
  }
}

absl::Status ValidateTtlOptions(const IndexSpec& spec,
                                absl::string_view spec_text) {
  if (!spec.expire_after_seconds.has_value()) return absl::OkStatus();
  absl::StatusOr<int64_t> seconds =
      NormalizeExpireAfterSeconds(*spec.expire_after_seconds);
  if (!seconds.ok()) {
    return CannotCreateTtlIndex(seconds.status().message(), spec_text);
  }
  if (spec.key.size() != 1) {
    return CannotCreateTtlIndex(
        "TTL indexes are single-field indexes, compound indexes do not "
        "support TTL",
        spec_text);
  }
  if (spec.key[0].path == "_id") {
    std::string message =
        "The field 'expireAfterSeconds' is not valid for an _id index "
        "specification";
    if (!spec_text.empty())
      absl::StrAppend(&message, ". Specification: ", spec_text);
    return MongoError(absl::StatusCode::kInvalidArgument,
                      kInvalidIndexSpecificationOption, message);
  }
  return absl::OkStatus();
}

absl::Status NormalizeTtlSpec(IndexSpec* spec, absl::string_view spec_text) {
  RETURN_IF_ERROR(ValidateTtlOptions(*spec, spec_text));
  if (spec->expire_after_seconds.has_value()) {
    spec->expire_after_seconds =
        static_cast<double>(SafeNumberLong(*spec->expire_after_seconds));
  }
  return absl::OkStatus();
}

bool IsValidStoredExpireAfterSeconds(double value) {
  if (std::isnan(value)) return false;
  const int64_t truncated = SafeNumberLong(value);
  return truncated >= 0 && truncated <= kMaxExpireAfterSeconds;
}

std::optional<int64_t> ActiveExpireAfterSeconds(const IndexSpec& spec) {
  if (!spec.expire_after_seconds.has_value()) return std::nullopt;
  const double v = *spec.expire_after_seconds;
  if (!IsValidStoredExpireAfterSeconds(v)) return std::nullopt;
  if (spec.key.size() != 1 || spec.key[0].path == "_id") return std::nullopt;
  return SafeNumberLong(v);  // a fraction is dropped, as MongoDB reads it
}

}  // namespace ttldb
