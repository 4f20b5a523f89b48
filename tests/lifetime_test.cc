// Bounded lifetimes: maxLifetimeSeconds and rejectExpired on TTL indexes,
// at every way in, with an injected clock.
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/matchers.h"

namespace ttldb {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ttldb_testing::IsOk;
using ttldb_testing::IsOkAndHolds;
using ttldb_testing::StatusIs;

const absl::Time kNow = kTestStart;
constexpr int kE = 3600;   // expireAfterSeconds
constexpr int kL = 86400;  // maxLifetimeSeconds

class LifetimeTest : public DbTest {
 protected:
  void SetUp() override {
    DbTest::SetUp();
    ASSERT_TRUE(c().CreateIndex(R"({"expireAt": 1})",
                                absl::StrCat(R"({"expireAfterSeconds": )", kE,
                                             R"(, "maxLifetimeSeconds": )", kL,
                                             R"(, "rejectExpired": true})"))
                    .ok());
  }
  Collection& c() { return db_->collection("cache"); }
  absl::Status InsertAt(int id, absl::Time t) {
    return c()
        .InsertOne(absl::StrCat(R"({"_id": )", id, R"(, "expireAt": )",
                                DateJson(t), "}"))
        .status();
  }
  // The latest date the cap allows: now + L - E.
  absl::Time Latest() { return kNow + absl::Seconds(kL - kE); }
  // The latest date already expired: now - E.
  absl::Time Expired() { return kNow - absl::Seconds(kE); }
};

TEST_F(LifetimeTest, InsertBoundariesExactlyAtTheCap) {
  EXPECT_THAT(InsertAt(1, Latest()), IsOk());
  EXPECT_THAT(InsertAt(2, Latest() + absl::Milliseconds(1)),
              StatusIs(121, AllOf(HasSubstr("expireAt"), HasSubstr("86400"))));
  EXPECT_THAT(InsertAt(3, Expired() + absl::Milliseconds(1)), IsOk());
  EXPECT_THAT(InsertAt(4, Expired()), StatusIs(121, "rejectExpired"));
  EXPECT_THAT(c().CountDocuments(), IsOkAndHolds(2));
}

TEST_F(LifetimeTest, UpdatesReplaceAndUpsertAreChecked) {
  ASSERT_TRUE(InsertAt(1, kNow).ok());
  auto far = absl::StrCat(R"({"$set": {"expireAt": )",
                          DateJson(Latest() + absl::Seconds(1)), "}}");
  EXPECT_EQ(ErrorCode(c().UpdateOne(R"({"_id": 1})", far).status()), 121);
  EXPECT_EQ(
      ErrorCode(
          c().UpdateOne(R"({"_id": 1})",
                        absl::StrCat(R"({"$max": {"expireAt": )",
                                     DateJson(Latest() + absl::Hours(1)), "}}"))
              .status()),
      121);
  // $currentDate sets now: within both bounds.
  EXPECT_TRUE(
      c().UpdateOne(R"({"_id": 1})", R"({"$currentDate": {"expireAt": true}})")
          .ok());
  EXPECT_EQ(ErrorCode(c().ReplaceOne(R"({"_id": 1})",
                                     absl::StrCat(R"({"expireAt": )",
                                                  DateJson(Expired()), "}"))
                          .status()),
            121);
  EXPECT_EQ(ErrorCode(c().UpdateOne(R"({"_id": 9})", far,
                                    UpdateOptions{.upsert = true})
                          .status()),
            121);
  EXPECT_EQ(*c().CountDocuments(), 1);
  auto doc = c().FindById(Value::Int32(1));
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->Get("expireAt")->date_millis(), absl::ToUnixMillis(kNow));
}

TEST_F(LifetimeTest, InsertManyStopsAtTheFirstRejected) {
  std::vector<Value> ids;
  absl::Status s = c().InsertMany(
      {absl::StrCat(R"({"_id": 1, "expireAt": )", DateJson(kNow), "}"),
       absl::StrCat(R"({"_id": 2, "expireAt": )", DateJson(Expired()), "}"),
       absl::StrCat(R"({"_id": 3, "expireAt": )", DateJson(kNow), "}")},
      &ids);
  EXPECT_EQ(ErrorCode(s), 121);
  EXPECT_EQ(ids.size(), 1u);
  EXPECT_EQ(*c().CountDocuments(), 1);
}

TEST_F(LifetimeTest, OptionsAreListedValidatedAndChangeable) {
  auto indexes = c().ListIndexes();
  ASSERT_TRUE(indexes.ok());
  EXPECT_EQ(
      ToJson(indexes->back()),
      R"({"v":2,"key":{"expireAt":1},"name":"expireAt_1","expireAfterSeconds":3600,"maxLifetimeSeconds":86400,"rejectExpired":true})");
  Collection& other = db_->collection("other");
  EXPECT_EQ(
      ErrorCode(
          other
              .CreateIndex(
                  R"({"t": 1})",
                  R"({"expireAfterSeconds": 100, "maxLifetimeSeconds": 99})")
              .status()),
      67);
  EXPECT_EQ(
      ErrorCode(
          other.CreateIndex(R"({"t": 1})", R"({"maxLifetimeSeconds": 99})")
              .status()),
      67);
  EXPECT_FALSE(
      other
          .CreateIndex(R"({"t": 1})",
                       R"({"expireAfterSeconds": 1, "maxLifetimeSeconds": -5})")
          .ok());
  EXPECT_FALSE(
      other
          .CreateIndex(R"({"t": 1})",
                       R"({"expireAfterSeconds": 1, "rejectExpired": "yes"})")
          .ok());
  auto reply = c().CollMod(
      R"({"index": {"name": "expireAt_1", "maxLifetimeSeconds": 7200, "rejectExpired": false}})");
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(
      ToJson(*reply),
      R"({"maxLifetimeSeconds_old":86400,"maxLifetimeSeconds_new":7200,"rejectExpired_old":true,"rejectExpired_new":false,"ok":1})");
  EXPECT_TRUE(InsertAt(5, Expired()).ok());  // no longer rejected
  EXPECT_EQ(ErrorCode(InsertAt(6, kNow + absl::Seconds(3601))), 121);
  EXPECT_EQ(
      ErrorCode(
          c().CollMod(
                 R"({"index": {"name": "expireAt_1", "maxLifetimeSeconds": 10}})")
              .status()),
      72);
}

// collMod's maxLifetimeSeconds takes what createIndex takes (an int64 is
// accepted whole) and refuses what does not convert to an integer: before,
// it cast the number through double to int64_t, undefined for NaN and
// values beyond int64 (UBSan, found by fuzz/coll_mod_fuzz.cc), and refused
// NumberLong(INT64_MAX).
TEST_F(LifetimeTest, CollModMaxLifetimeTakesWhatCreateIndexTakes) {
  for (const char* bad : {"1e300", "-1e300", R"({"$numberDouble": "NaN"})",
                          R"({"$numberDouble": "Infinity"})", "2.5", "-1"}) {
    EXPECT_EQ(ErrorCode(c().CollMod(absl::StrCat(
                                        R"({"index": {"name": "expireAt_1", )"
                                        R"("maxLifetimeSeconds": )",
                                        bad, "}}"))
                            .status()),
              72)
        << bad;
  }
  Collection& other = db_->collection("other");
  ASSERT_THAT(
      other.CreateIndex(
          R"({"t": 1})",
          R"({"expireAfterSeconds": 1, "maxLifetimeSeconds": {"$numberLong": "9223372036854775807"}})"),
      IsOk());
  auto reply = c().CollMod(
      R"({"index": {"name": "expireAt_1", "maxLifetimeSeconds": {"$numberLong": "9223372036854775807"}}})");
  ASSERT_THAT(reply, IsOk());
  EXPECT_EQ(reply->Get("maxLifetimeSeconds_new")->int64_value(), INT64_MAX);
}

TEST_F(LifetimeTest, PartialIndexChecksOnlyWhatItCovers) {
  Collection& d = db_->collection("drafts");
  ASSERT_TRUE(
      d.CreateIndex(R"({"t": 1})",
                    R"({"expireAfterSeconds": 60, "maxLifetimeSeconds": 60,
                                "partialFilterExpression": {"draft": true}})")
          .ok());
  EXPECT_EQ(
      ErrorCode(d.InsertOne(absl::StrCat(R"({"draft": true, "t": )",
                                         DateJson(kNow + absl::Hours(1)), "}"))
                    .status()),
      121);
  EXPECT_TRUE(d.InsertOne(absl::StrCat(R"({"draft": false, "t": )",
                                       DateJson(kNow + absl::Hours(1)), "}"))
                  .ok());
}

}  // namespace
}  // namespace ttldb
