#include "ttl/lifetime.h"

#include <limits>

#include "base/status.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace {

const absl::Time kNow = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01
const int64_t kNowMs = 1'767'225'600'000;

IndexSpec Spec(std::optional<double> e, std::optional<int64_t> max,
               bool reject_expired) {
  IndexSpec spec;
  spec.name = "expireAt_1";
  spec.key.push_back({"expireAt", 1});
  if (e.has_value()) spec.expire_after_seconds = *e;
  if (max.has_value()) spec.max_lifetime_seconds = *max;
  spec.reject_expired = reject_expired;
  return spec;
}

Value Doc(Value v) {
  Value doc = Value::MakeObject();
  doc.Set("expireAt", std::move(v));
  return doc;
}

TEST(CheckLifetimeTest, NoOptionsNoChecks) {
  EXPECT_TRUE(
      CheckLifetime(Spec(0, std::nullopt, false), Doc(Value::Null()), kNow)
          .ok());
  // Inactive (invalid E): the options do nothing.
  EXPECT_TRUE(
      CheckLifetime(Spec(-1, 10, true), Doc(Value::Date(0)), kNow).ok());
  EXPECT_TRUE(
      CheckLifetime(Spec(std::nullopt, 10, true), Doc(Value::Date(0)), kNow)
          .ok());
}

TEST(CheckLifetimeTest, MaxLifetime) {
  const IndexSpec spec = Spec(0, 86400, false);
  EXPECT_TRUE(
      CheckLifetime(spec, Doc(Value::Date(kNowMs + 86'400'000)), kNow).ok());
  const absl::Status too_far =
      CheckLifetime(spec, Doc(Value::Date(kNowMs + 86'400'001)), kNow);
  EXPECT_EQ(ErrorCode(too_far), kDocumentValidationFailure);
  EXPECT_EQ(too_far.message(),
            "Document failed validation: field 'expireAt' expires at "
            "2026-01-02T00:00:00.001Z, more than maxLifetimeSeconds 86400 "
            "after now (2026-01-01T00:00:00.000Z) under index 'expireAt_1'");
  // E counts: a date now with E = 2 days outlives a 1-day cap.
  EXPECT_FALSE(
      CheckLifetime(Spec(172800, 86400, false), Doc(Value::Date(kNowMs)), kNow)
          .ok());
  // The earliest date of an array decides.
  EXPECT_TRUE(
      CheckLifetime(spec,
                    Doc(Value::MakeArray(
                        {Value::Date(std::numeric_limits<int64_t>::max()),
                         Value::Date(kNowMs)})),
                    kNow)
          .ok());
  EXPECT_FALSE(
      CheckLifetime(Spec(2147483647, 86400, false),
                    Doc(Value::Date(std::numeric_limits<int64_t>::max())), kNow)
          .ok());
}

TEST(CheckLifetimeTest, MaxLifetimeNeedsADate) {
  const absl::Status status =
      CheckLifetime(Spec(0, 60, false), Doc(Value::String("tomorrow")), kNow);
  EXPECT_EQ(ErrorCode(status), kDocumentValidationFailure);
  EXPECT_EQ(status.message(),
            "Document failed validation: field 'expireAt' holds no date, so "
            "the document would never expire under index 'expireAt_1' with "
            "maxLifetimeSeconds 60");
  EXPECT_FALSE(
      CheckLifetime(Spec(0, 60, false), Value::MakeObject(), kNow).ok());
}

TEST(CheckLifetimeTest, RejectExpired) {
  const IndexSpec spec = Spec(3600, std::nullopt, true);
  EXPECT_TRUE(
      CheckLifetime(spec, Doc(Value::Date(kNowMs - 3'600'000 + 1)), kNow).ok());
  const absl::Status status =
      CheckLifetime(spec, Doc(Value::Date(kNowMs - 3'600'000)), kNow);
  EXPECT_EQ(ErrorCode(status), kDocumentValidationFailure);
  EXPECT_EQ(status.message(),
            "Document failed validation: field 'expireAt' is already expired "
            "at 2026-01-01T00:00:00.000Z under index 'expireAt_1' "
            "(expireAfterSeconds 3600) with rejectExpired");
  // Without a date nothing expires: rejectExpired alone accepts it.
  EXPECT_TRUE(CheckLifetime(spec, Doc(Value::Int32(1)), kNow).ok());
}

}  // namespace
}  // namespace ttldb
