// A consumer's test target: ttldb from a gtest, through the public headers.
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "ttldb/collection.h"
#include "ttldb/cursor.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace {

std::string TempDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string pattern = std::string(tmp ? tmp : "/tmp") + "/db.XXXXXX";
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  return pattern;
}

TEST(SessionsTest, ExpiredSessionIsHiddenAndLiveOneIsFound) {
  auto db = ttldb::Database::Open(TempDir() + "/db");
  ASSERT_TRUE(db.ok()) << db.status();
  ttldb::Collection& sessions = (*db)->collection("sessions");
  ASSERT_TRUE(
      sessions
          .CreateIndex(R"({"lastUsed": 1})", R"({"expireAfterSeconds": 1800})")
          .ok());
  ASSERT_TRUE(sessions
                  .InsertOne(R"({"_id": "alice", "lastUsed": )"
                             R"({"$date": "2100-01-01T00:00:00Z"}})")
                  .ok());
  ASSERT_TRUE(sessions
                  .InsertOne(R"({"_id": "bob", "lastUsed": )"
                             R"({"$date": "1970-01-01T00:00:00Z"}})")
                  .ok());

  auto live = sessions.CountDocuments();
  ASSERT_TRUE(live.ok()) << live.status();
  EXPECT_EQ(*live, 1);
  auto alice = sessions.FindOne(R"({"_id": "alice"})");
  ASSERT_TRUE(alice.ok()) << alice.status();
  ASSERT_TRUE(alice->has_value());
  EXPECT_EQ(
      ttldb::ToJson(**alice),
      R"({"_id":"alice","lastUsed":{"$date":"2100-01-01T00:00:00.000Z"}})");
}

TEST(SessionsTest, BadFilterIsAnError) {
  auto db = ttldb::Database::Open(TempDir() + "/db");
  ASSERT_TRUE(db.ok()) << db.status();
  auto count = (*db)->collection("c").CountDocuments(R"({"a": {"$bogus": 1}})");
  EXPECT_EQ(count.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
