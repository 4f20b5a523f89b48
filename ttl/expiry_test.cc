#include "ttl/expiry.h"

#include <limits>
#include <vector>

#include "document/path.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxE = 2147483647;

IndexSpec SpecOn(const char* path) {
  IndexSpec spec;
  spec.key.push_back({path, 1});
  spec.expire_after_seconds = 3600;
  return spec;
}

Value Doc(const char* field, Value v) {
  Value doc = Value::MakeObject();
  doc.Set("_id", Value::Int32(1));
  doc.Set(field, std::move(v));
  return doc;
}

const absl::Time kNow = absl::FromUnixMillis(1'800'000'000'123);

TEST(EarliestIndexedDateTest, OnlyDatesCount) {
  const IndexSpec spec = SpecOn("t");
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Doc("t", Value::Date(5))), 5);
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Doc("t", Value::Int64(5))),
            std::nullopt);
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Doc("t", Value::Double(5))),
            std::nullopt);
  EXPECT_EQ(EarliestIndexedDateMillis(
                spec, Doc("t", Value::String("2020-01-01T00:00:00Z"))),
            std::nullopt);
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Doc("t", Value::Ts({5, 1}))),
            std::nullopt);
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Doc("t", Value::Null())),
            std::nullopt);
  EXPECT_EQ(EarliestIndexedDateMillis(
                spec, Doc("t", Value::MakeObject({{"d", Value::Date(5)}}))),
            std::nullopt);
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Doc("other", Value::Date(5))),
            std::nullopt);
}

TEST(EarliestIndexedDateTest, ArraysGiveTheirSmallestDate) {
  const IndexSpec spec = SpecOn("t");
  Value arr =
      Value::MakeArray({Value::String("x"), Value::Date(900), Value::Int32(1),
                        Value::Date(300), Value::Date(700)});
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Doc("t", arr)), 300);
  EXPECT_EQ(EarliestIndexedDateMillis(
                spec, Doc("t", Value::MakeArray({Value::Int32(1)}))),
            std::nullopt);
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Doc("t", Value::MakeArray())),
            std::nullopt);
  // A nested array is one index key (an array), not a Date.
  EXPECT_EQ(
      EarliestIndexedDateMillis(
          spec,
          Doc("t", Value::MakeArray({Value::MakeArray({Value::Date(1)})}))),
      std::nullopt);
}

// A top-level path reads the field without CollectPathValues; it must
// agree with it, also where a document repeats a field name (both take
// the first, as Value::Get does).
TEST(EarliestIndexedDateTest, TopLevelFieldAgreesWithCollectPathValues) {
  const IndexSpec spec = SpecOn("t");
  const Value dup = Value::MakeObject(
      {{"t", Value::Date(9)}, {"t", Value::Date(1)}, {"u", Value::Date(0)}});
  EXPECT_EQ(EarliestIndexedDateMillis(spec, dup), 9);
  std::vector<const Value*> values;
  CollectPathValues(dup, "t", &values);
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0]->date_millis(), 9);
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Value::MakeObject()), std::nullopt);
}

TEST(EarliestIndexedDateTest, DottedPathThroughArrayOfObjects) {
  const IndexSpec spec = SpecOn("s.t");
  Value sessions =
      Value::MakeArray({Value::MakeObject({{"t", Value::Date(2000)}}),
                        Value::MakeObject({{"t", Value::Date(1000)}}),
                        Value::MakeObject({{"t", Value::String("soon")}})});
  EXPECT_EQ(EarliestIndexedDateMillis(spec, Doc("s", sessions)), 1000);
}

TEST(IsExpiredTest, InclusiveAtTheExactMillisecond) {
  const IndexSpec spec = SpecOn("t");
  const int64_t now_ms = absl::ToUnixMillis(kNow);
  const int64_t e = 3600;
  EXPECT_TRUE(
      IsExpired(spec, e, Doc("t", Value::Date(now_ms - e * 1000)), kNow));
  EXPECT_FALSE(
      IsExpired(spec, e, Doc("t", Value::Date(now_ms - e * 1000 + 1)), kNow));
  EXPECT_TRUE(
      IsExpired(spec, e, Doc("t", Value::Date(now_ms - e * 1000 - 1)), kNow));
  // Sub-millisecond parts of `now` do not move the boundary.
  EXPECT_TRUE(IsExpired(spec, e, Doc("t", Value::Date(now_ms - e * 1000)),
                        kNow + absl::Microseconds(999)));
  EXPECT_FALSE(IsExpired(spec, e, Doc("t", Value::Date(now_ms - e * 1000)),
                         kNow - absl::Microseconds(1)));
}

TEST(IsExpiredTest, ExpireAfterZeroMeansAtThatTime) {
  const IndexSpec spec = SpecOn("expireAt");
  const int64_t now_ms = absl::ToUnixMillis(kNow);
  EXPECT_TRUE(IsExpired(spec, 0, Doc("expireAt", Value::Date(now_ms)), kNow));
  EXPECT_FALSE(
      IsExpired(spec, 0, Doc("expireAt", Value::Date(now_ms + 1)), kNow));
}

TEST(IsExpiredTest, ArrayWithOneExpiredDate) {
  const IndexSpec spec = SpecOn("t");
  const int64_t now_ms = absl::ToUnixMillis(kNow);
  Value arr = Value::MakeArray(
      {Value::Date(now_ms + 1'000'000), Value::Date(now_ms - 3'600'000)});
  EXPECT_TRUE(IsExpired(spec, 3600, Doc("t", arr), kNow));
}

TEST(IsExpiredTest, NonDatesNeverExpire) {
  const IndexSpec spec = SpecOn("t");
  const absl::Time far_future = absl::FromUnixSeconds(4'000'000'000LL);
  for (const Value& v :
       {Value::Int64(0), Value::Int64(kInt64Min), Value::Double(-1e300),
        Value::String(""), Value::Ts({0, 0}), Value::Null(),
        Value::MakeObject(), Value::Bool(false), Value::MinKey()}) {
    EXPECT_FALSE(IsExpired(spec, 0, Doc("t", v), far_future));
    EXPECT_FALSE(IsExpired(spec, 0, Doc("t", v), absl::InfiniteFuture()));
  }
  EXPECT_FALSE(IsExpired(spec, 0, Doc("u", Value::Date(0)), far_future));
}

TEST(IsExpiredTest, PreEpochDates) {
  const IndexSpec spec = SpecOn("t");
  // 1969-12-31T23:59:59.999Z
  EXPECT_TRUE(IsExpired(spec, 3600, Doc("t", Value::Date(-1)), kNow));
  EXPECT_TRUE(IsExpired(spec, kMaxE,
                        Doc("t", Value::Date(-62'135'596'800'000LL)), kNow));
  // Before 1970 "now": the boundary still works with negative millis.
  const absl::Time old_now = absl::FromUnixMillis(-1'000'000);
  EXPECT_TRUE(IsExpired(spec, 1, Doc("t", Value::Date(-1'001'000)), old_now));
  EXPECT_FALSE(IsExpired(spec, 1, Doc("t", Value::Date(-1'000'999)), old_now));
}

TEST(IsExpiredTest, ExtremesDoNotOverflow) {
  const IndexSpec spec = SpecOn("t");
  EXPECT_FALSE(IsExpired(spec, kMaxE, Doc("t", Value::Date(kInt64Max)), kNow));
  EXPECT_TRUE(IsExpired(spec, kMaxE, Doc("t", Value::Date(kInt64Min)), kNow));
  EXPECT_FALSE(IsExpired(spec, kMaxE, Doc("t", Value::Date(kInt64Min)),
                         absl::InfinitePast()));
  EXPECT_TRUE(IsExpired(spec, 0, Doc("t", Value::Date(kInt64Max)),
                        absl::InfiniteFuture()));
  EXPECT_TRUE(IsExpired(spec, kMaxE, Doc("t", Value::Date(kInt64Max)),
                        absl::InfiniteFuture()));
  // now - E * 1000 right at the bottom of int64 saturates rather than wraps.
  EXPECT_EQ(CutoffMillis(absl::FromUnixMillis(kInt64Min + 5), kMaxE),
            kInt64Min);
  EXPECT_EQ(CutoffMillis(absl::FromUnixMillis(kInt64Max), 0), kInt64Max);
  EXPECT_EQ(CutoffMillis(absl::InfinitePast(), 0), kInt64Min);
  EXPECT_EQ(CutoffMillis(kNow, kInt64Max), kInt64Min);
}

TEST(ExpiryTimeTest, AddsSecondsAndSaturates) {
  EXPECT_EQ(ExpiryTime(1000, 60), absl::FromUnixMillis(61'000));
  EXPECT_EQ(ExpiryTime(-1, 0), absl::FromUnixMillis(-1));
  // absl::Time spans far beyond int64 milliseconds: exact, no wrap.
  EXPECT_EQ(ExpiryTime(kInt64Max, kMaxE) - absl::FromUnixMillis(kInt64Max),
            absl::Seconds(kMaxE));
  EXPECT_EQ(ExpiryTime(kInt64Min, 0), absl::FromUnixMillis(kInt64Min));
}

}  // namespace
}  // namespace ttldb
