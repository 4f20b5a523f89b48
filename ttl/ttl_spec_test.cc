#include "ttl/ttl_spec.h"

#include <cmath>
#include <limits>
#include <string>

#include "base/status.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace {

IndexSpec Spec(std::initializer_list<const char*> paths,
               std::optional<double> expire_after_seconds) {
  IndexSpec spec;
  spec.name = "idx";
  for (const char* path : paths) spec.key.push_back({path, 1});
  if (expire_after_seconds.has_value()) {
    spec.expire_after_seconds = *expire_after_seconds;
  }
  return spec;
}

void ExpectError(const absl::Status& status, int code,
                 const std::string& message) {
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(ErrorCode(status), code) << status;
  EXPECT_EQ(status.message(), message);
}

constexpr char kNaN[] = "TTL index 'expireAfterSeconds' option must not be NaN";
constexpr char kRange[] =
    "TTL index 'expireAfterSeconds' must be within the range of a 32-bit "
    "integer";
constexpr char kNegative[] =
    "TTL index 'expireAfterSeconds' option cannot be less than 0";
constexpr char kCompound[] =
    "TTL indexes are single-field indexes, compound indexes do not support "
    "TTL";
constexpr char kId[] =
    "The field 'expireAfterSeconds' is not valid for an _id index "
    "specification";

TEST(NormalizeExpireAfterSecondsTest, TruncatesTowardZero) {
  EXPECT_EQ(*NormalizeExpireAfterSeconds(0), 0);
  EXPECT_EQ(*NormalizeExpireAfterSeconds(3600), 3600);
  EXPECT_EQ(*NormalizeExpireAfterSeconds(3600.9), 3600);
  EXPECT_EQ(*NormalizeExpireAfterSeconds(0.5), 0);
  // MongoDB truncates before the sign check: -0.5 becomes 0.
  EXPECT_EQ(*NormalizeExpireAfterSeconds(-0.5), 0);
  EXPECT_EQ(*NormalizeExpireAfterSeconds(2147483647.0), 2147483647);
  EXPECT_EQ(*NormalizeExpireAfterSeconds(2147483647.9), 2147483647);
}

TEST(NormalizeExpireAfterSecondsTest, Rejections) {
  ExpectError(NormalizeExpireAfterSeconds(std::nan("")).status(),
              kCannotCreateIndex, kNaN);
  ExpectError(NormalizeExpireAfterSeconds(-1).status(), kCannotCreateIndex,
              kNegative);
  ExpectError(NormalizeExpireAfterSeconds(-2147483648.0).status(),
              kCannotCreateIndex, kNegative);
  ExpectError(NormalizeExpireAfterSeconds(2147483648.0).status(),
              kCannotCreateIndex, kRange);
  ExpectError(NormalizeExpireAfterSeconds(-2147483649.0).status(),
              kCannotCreateIndex, kRange);
  ExpectError(NormalizeExpireAfterSeconds(9223372036854775808.0).status(),
              kCannotCreateIndex, kRange);
  ExpectError(NormalizeExpireAfterSeconds(1e300).status(), kCannotCreateIndex,
              kRange);
  ExpectError(
      NormalizeExpireAfterSeconds(std::numeric_limits<double>::infinity())
          .status(),
      kCannotCreateIndex, kRange);
  ExpectError(
      NormalizeExpireAfterSeconds(-std::numeric_limits<double>::infinity())
          .status(),
      kCannotCreateIndex, kRange);
}

TEST(ParseExpireAfterSecondsTest, NumbersOfEveryType) {
  EXPECT_EQ(*ParseExpireAfterSeconds(Value::Int32(60)), 60);
  EXPECT_EQ(*ParseExpireAfterSeconds(Value::Int64(2147483647)), 2147483647);
  EXPECT_EQ(*ParseExpireAfterSeconds(Value::Double(1.99)), 1);
  ExpectError(ParseExpireAfterSeconds(Value::Int64(2147483648)).status(),
              kCannotCreateIndex, kRange);
  ExpectError(ParseExpireAfterSeconds(Value::Int32(-5)).status(),
              kCannotCreateIndex, kNegative);
}

TEST(ParseExpireAfterSecondsTest, NonNumbers) {
  ExpectError(ParseExpireAfterSeconds(Value::String("60")).status(),
              kCannotCreateIndex,
              "TTL index 'expireAfterSeconds' option must be numeric, but "
              "received a type of 'string'");
  ExpectError(ParseExpireAfterSeconds(Value::Null()).status(),
              kCannotCreateIndex,
              "TTL index 'expireAfterSeconds' option must be numeric, but "
              "received a type of 'null'");
  ExpectError(ParseExpireAfterSeconds(Value::Bool(true)).status(),
              kCannotCreateIndex,
              "TTL index 'expireAfterSeconds' option must be numeric, but "
              "received a type of 'bool'");
}

TEST(ValidateTtlOptionsTest, AcceptsSingleFieldAndNonTtl) {
  EXPECT_TRUE(ValidateTtlOptions(Spec({"accessTime"}, 3600)).ok());
  EXPECT_TRUE(ValidateTtlOptions(Spec({"expireAt"}, 0)).ok());
  EXPECT_TRUE(ValidateTtlOptions(Spec({"a.b"}, 2147483647)).ok());
  // Not a TTL index: nothing to check, compound or _id alike.
  EXPECT_TRUE(ValidateTtlOptions(Spec({"a", "b"}, std::nullopt)).ok());
  EXPECT_TRUE(ValidateTtlOptions(Spec({"_id"}, std::nullopt)).ok());
}

TEST(ValidateTtlOptionsTest, Rejections) {
  ExpectError(ValidateTtlOptions(Spec({"t"}, std::nan(""))), kCannotCreateIndex,
              kNaN);
  ExpectError(ValidateTtlOptions(Spec({"t"}, -1)), kCannotCreateIndex,
              kNegative);
  ExpectError(ValidateTtlOptions(Spec({"t"}, 2147483648.0)), kCannotCreateIndex,
              kRange);
  ExpectError(ValidateTtlOptions(Spec({"a", "b"}, 60)), kCannotCreateIndex,
              kCompound);
  ExpectError(ValidateTtlOptions(Spec({}, 60)), kCannotCreateIndex, kCompound);
  ExpectError(ValidateTtlOptions(Spec({"_id"}, 60)),
              kInvalidIndexSpecificationOption, kId);
  // The value is checked before the key pattern, as MongoDB does.
  ExpectError(ValidateTtlOptions(Spec({"a", "b"}, -1)), kCannotCreateIndex,
              kNegative);
}

TEST(ValidateTtlOptionsTest, MessagesNameTheSpec) {
  const std::string text = R"({"key": {"a": 1, "b": 1}, "name": "a_1_b_1"})";
  ExpectError(ValidateTtlOptions(Spec({"a", "b"}, 60), text),
              kCannotCreateIndex,
              std::string(kCompound) + ". Index spec: " + text);
  ExpectError(ValidateTtlOptions(Spec({"_id"}, 60), text),
              kInvalidIndexSpecificationOption,
              std::string(kId) + ". Specification: " + text);
}

TEST(NormalizeTtlSpecTest, StoresTheTruncatedValue) {
  IndexSpec spec = Spec({"t"}, 3600.75);
  ASSERT_TRUE(NormalizeTtlSpec(&spec).ok());
  EXPECT_EQ(*spec.expire_after_seconds, 3600.0);

  IndexSpec bad = Spec({"t"}, -3);
  ExpectError(NormalizeTtlSpec(&bad), kCannotCreateIndex, kNegative);
  EXPECT_EQ(*bad.expire_after_seconds, -3.0);  // unchanged on error
}

TEST(ActiveExpireAfterSecondsTest, ValidValues) {
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"t"}, 0)), 0);
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"t"}, 3600)), 3600);
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"t"}, 2147483647)), 2147483647);
}

// A fractional stored value is active, truncated: MongoDB's ttl_test.cpp
// TTLDoubleFitsIntoInt32 (4.5 deletes) and TTLMinDoubleFitsIntoInt32; its
// monitor reads spec[expireAfterSeconds].safeNumberLong().
TEST(ActiveExpireAfterSecondsTest, FractionalStoredValueIsTruncatedAndActive) {
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"t"}, 4.5)), 4);
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"t"}, 3600.25)), 3600);
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"t"}, 0.5)), 0);
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"t"}, -0.5)), 0);
  EXPECT_EQ(
      ActiveExpireAfterSeconds(Spec({"t"}, std::numeric_limits<double>::min())),
      0);
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"t"}, 2147483647.5)), 2147483647);
}

TEST(ActiveExpireAfterSecondsTest, AbsentOrInvalidOnDiskIsInactive) {
  EXPECT_FALSE(IsTtlIndex(Spec({"t"}, std::nullopt)));
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"t"}, std::nullopt)), std::nullopt);
  // MongoDB's SkipInvalidTTLTest cases (ttl_test.cpp): NaN, negative,
  // int32 min, int64 extremes.
  for (double bad : {std::nan(""), -1.0, -2147483648.0, 2147483648.0, 9.2e18,
                     -9.2e18, 1e300, std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity()}) {
    IndexSpec spec = Spec({"t"}, bad);
    EXPECT_TRUE(IsTtlIndex(spec));
    EXPECT_EQ(ActiveExpireAfterSeconds(spec), std::nullopt) << bad;
  }
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"a", "b"}, 60)), std::nullopt);
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({"_id"}, 60)), std::nullopt);
  EXPECT_EQ(ActiveExpireAfterSeconds(Spec({}, 60)), std::nullopt);
}

}  // namespace
}  // namespace ttldb
