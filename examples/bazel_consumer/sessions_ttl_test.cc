// A consumer's test with ttldb's test support (@ttldb//testing:ttldb_testing):
// a database on a fake clock, and "let 31 minutes pass and run the TTL
// monitor's pass" without sleeping.
#include <optional>

#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ttldb/collection.h"
#include "ttldb/testing/matchers.h"
#include "ttldb/testing/ttldb_testing.h"

namespace {

TEST(SessionsTtlTest, IdleSessionExpiresAfterThirtyMinutes) {
  auto db = ttldb_testing::TestDatabase::Open();
  ASSERT_THAT(db, ttldb_testing::IsOk());
  ttldb::Collection& sessions = (*db)->collection("sessions");
  ASSERT_THAT(
      sessions
          .CreateIndex(R"({"lastUsed": 1})", R"({"expireAfterSeconds": 1800})")
          .status(),
      ttldb_testing::IsOk());
  ASSERT_THAT(sessions
                  .InsertOne(R"({"_id": "alice", "lastUsed": {"$date": )"
                             R"("2027-01-15T08:00:00Z"}})")
                  .status(),
              ttldb_testing::IsOk());

  EXPECT_EQ((*db)->AdvanceAndExpire(absl::Minutes(29)).deleted_documents, 0);
  EXPECT_EQ((*db)->AdvanceAndExpire(absl::Minutes(2)).deleted_documents, 1);
  EXPECT_THAT(sessions.FindOne(R"({"_id": "alice"})"),
              ttldb_testing::IsOkAndHolds(::testing::Eq(std::nullopt)));
}

}  // namespace
