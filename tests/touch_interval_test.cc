// touch_min_interval (touch coalescing, beyond MongoDB) against
// expireAfterSeconds (issue 13, "The touch interval cannot outlive the
// TTL"): an interval that is not at most half of every TTL index's E is
// refused at Open, createIndex and collMod (ttl/touch_interval.h), and with
// an accepted one a document touched more often than E - interval never
// expires. MongoDB has no touch coalescing; the error codes are MongoDB's
// for a bad createIndex (67 CannotCreateIndex) and a bad collMod (72
// InvalidOptions), as src/mongo/db/catalog/coll_mod.cpp answers a bad
// expireAfterSeconds.
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/ttldb_testing.h"

namespace ttldb {
namespace {

const absl::Time kStart = kTestStart;

class TouchIntervalTest : public ::testing::Test {
 protected:
  absl::StatusOr<std::unique_ptr<Database>> Open(absl::Duration interval) {
    Options options;
    options.clock = &clock_;
    options.ttl_monitor_enabled = false;
    options.touch_min_interval = interval;
    return Database::Open(dir_.path(), options);
  }

  TempDir dir_;
  FakeClock clock_{kStart};
};

TEST_F(TouchIntervalTest, CreateIndexAndCollModRefuseATooLongInterval) {
  auto db = Open(absl::Seconds(60));
  ASSERT_TRUE(db.ok()) << db.status();
  Collection& c = (*db)->collection("sessions");
  // The issue's case: E = 30 s with a 60 s interval.
  auto r = c.CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 30})");
  EXPECT_EQ(ErrorCode(r.status()), kCannotCreateIndex) << r.status();
  EXPECT_EQ(r.status().message(),
            "TTL index 'lastSeen_1' of collection 'sessions': "
            "expireAfterSeconds (30) must be at least twice touch_min_interval "
            "(1m): Touch leaves a date younger than that interval unwritten, "
            "so a document in use could expire. Raise expireAfterSeconds or "
            "lower touch_min_interval");
  EXPECT_EQ(ErrorCode(c.CreateIndex(R"({"lastSeen": 1})",
                                    R"({"expireAfterSeconds": 119})")
                          .status()),
            kCannotCreateIndex);
  EXPECT_TRUE(c.ListIndexes()->empty());  // nothing created
  ASSERT_TRUE(
      c.CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 120})")
          .ok());
  // An expireAt index (E = 0) is not concerned.
  ASSERT_TRUE(
      c.CreateIndex(R"({"expireAt": 1})", R"({"expireAfterSeconds": 0})").ok());

  auto m = c.CollMod(
      R"({"index": {"name": "lastSeen_1", "expireAfterSeconds": 100}})");
  EXPECT_EQ(ErrorCode(m.status()), kInvalidOptions) << m.status();
  EXPECT_EQ(ToJson(*c.ListIndexes()->at(1).Get("expireAfterSeconds")), "120");
  EXPECT_TRUE(
      c.CollMod(
           R"({"index": {"name": "lastSeen_1", "expireAfterSeconds": 600}})")
          .ok());
  // Turning a plain index into a TTL index is checked too.
  ASSERT_TRUE(c.CreateIndex(R"({"t": 1})").ok());
  EXPECT_EQ(ErrorCode(c.CollMod(R"({"index": {"name": "t_1",
                                                "expireAfterSeconds": 60}})")
                          .status()),
            kInvalidOptions);
}

TEST_F(TouchIntervalTest, OpenRefusesAnIntervalTooLongForAnExistingIndex) {
  {
    auto db = Open(absl::ZeroDuration());
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_TRUE(
        (*db)
            ->collection("sessions")
            .CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 30})")
            .ok());
  }
  auto refused = Open(absl::Seconds(60));
  EXPECT_EQ(ErrorCode(refused.status()), kBadValue) << refused.status();
  EXPECT_TRUE(absl::IsInvalidArgument(refused.status()));
  auto half = Open(absl::Seconds(15));
  EXPECT_TRUE(half.ok()) << half.status();
}

// With interval I <= E / 2, a session used every (E - I) - 1 ms, touched at
// each use, is never expired; left idle, it expires within E of its last
// use.
TEST_F(TouchIntervalTest, EffectiveIdleTimeoutIsBetweenEMinusIAndE) {
  auto db = Open(absl::Seconds(15));
  ASSERT_TRUE(db.ok()) << db.status();
  Collection& c = (*db)->collection("sessions");
  ASSERT_TRUE(
      c.CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 30})")
          .ok());
  ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": 1, "lastSeen": )",
                                       DateJson(kStart), "}"))
                  .ok());
  const absl::Duration step = absl::Seconds(15) - absl::Milliseconds(1);
  int writes = 0;
  for (int i = 0; i < 20; ++i) {
    clock_.Advance(step);
    auto r = c.Touch(R"({"_id": 1})", "lastSeen");
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->matched_count, 1) << "expired while in use, use " << i;
    writes += r->modified_count;
    EXPECT_EQ(
        ttldb_testing::RunTtlPass(**db, clock_.WallNow()).deleted_documents, 0);
  }
  EXPECT_LT(writes, 20);  // coalescing did skip writes
  const absl::Time last_use = clock_.WallNow();
  clock_.Advance(absl::Seconds(30));
  EXPECT_FALSE(c.FindById(Value::Int32(1)).ok());
  EXPECT_EQ(ttldb_testing::RunTtlPass(**db, last_use + absl::Seconds(30))
                .deleted_documents,
            1);
}

}  // namespace
}  // namespace ttldb
