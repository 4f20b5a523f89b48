// The test-support library, used as a service's test would use it.
#include "ttldb/testing/ttldb_testing.h"

#include <filesystem>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ttldb/testing/matchers.h"
#include "ttldb/value.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Optional;
using ttldb::Value;
using ttldb_testing::DateJson;
using ttldb_testing::EqualsJson;
using ttldb_testing::IsOk;
using ttldb_testing::IsOkAndHolds;
using ttldb_testing::StatusIs;
using ttldb_testing::TestDatabase;

// What a matcher says about `value` when it does not match.
template <typename M, typename T>
std::string Explain(const M& matcher, const T& value) {
  ::testing::StringMatchResultListener listener;
  ::testing::Matcher<const T&> m = matcher;
  EXPECT_FALSE(m.MatchAndExplain(value, &listener));
  return listener.str();
}

TEST(TestDatabaseTest, AdvanceAndExpireRunsThePassAtTheNewTime) {
  auto db = TestDatabase::Open();
  ASSERT_THAT(db, IsOk());
  ttldb::Collection& sessions = (*db)->collection("sessions");
  ASSERT_THAT(sessions.CreateIndex(R"({"lastSeen": 1})",
                                   R"({"expireAfterSeconds": 1800})"),
              IsOkAndHolds("lastSeen_1"));
  ASSERT_THAT(
      sessions.InsertOne(absl::StrCat(R"({"_id": "alice", "lastSeen": )",
                                      DateJson((*db)->Now()), "}")),
      IsOkAndHolds(EqualsJson(R"("alice")")));
  EXPECT_EQ((*db)->AdvanceAndExpire(absl::Seconds(1799)).deleted_documents, 0);
  EXPECT_THAT(sessions.FindOne(R"({"_id": "alice"})"),
              IsOkAndHolds(Optional(EqualsJson(absl::StrCat(
                  R"({"_id": "alice", "lastSeen": )",
                  DateJson(ttldb_testing::kDefaultTestStart), "}")))));
  EXPECT_EQ((*db)->AdvanceAndExpire(absl::Seconds(1)).deleted_documents, 1);
  EXPECT_THAT(sessions.FindOne("{}"),
              IsOkAndHolds(::testing::Eq(std::nullopt)));
  EXPECT_EQ((*db)->Now(),
            ttldb_testing::kDefaultTestStart + absl::Seconds(1800));
  // In memory: nothing on disk.
  EXPECT_FALSE(std::filesystem::exists((*db)->path()));
  EXPECT_THAT((*db)->Reopen(), StatusIs(absl::StatusCode::kFailedPrecondition));
}

TEST(TestDatabaseTest, TempDirReopensAndIsRemoved) {
  std::string path;
  {
    auto db = TestDatabase::Open({}, TestDatabase::Storage::kTempDir);
    ASSERT_THAT(db, IsOk());
    path = (*db)->path();
    EXPECT_TRUE(std::filesystem::is_directory(path));
    ASSERT_THAT((*db)->collection("c").InsertOne(R"({"_id": 1})"), IsOk());
    ASSERT_THAT((*db)->Reopen(), IsOk());
    EXPECT_THAT((*db)->collection("c").CountDocuments(), IsOkAndHolds(1));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(MatchersTest, StatusMatchers) {
  auto db = TestDatabase::Open();
  ASSERT_THAT(db, IsOk());
  ttldb::Collection& c = (*db)->collection("c");
  ASSERT_THAT(c.InsertOne(R"({"_id": 1})"), IsOk());
  auto dup = c.InsertOne(R"({"_id": 1})");
  EXPECT_THAT(dup, Not(IsOk()));
  EXPECT_THAT(dup, StatusIs(11000));
  EXPECT_THAT(dup, StatusIs(11000, "duplicate key"));
  EXPECT_THAT(dup, StatusIs(absl::StatusCode::kAlreadyExists,
                            HasSubstr("dup key: { _id: 1 }")));
  EXPECT_THAT(dup, Not(StatusIs(11000, "no such text")));
  EXPECT_THAT(dup.status(), StatusIs(absl::StatusCode::kAlreadyExists));
  EXPECT_THAT(absl::OkStatus(), IsOk());
  EXPECT_THAT(absl::OkStatus(), Not(StatusIs(11000)));
  // Readable failures: the code name, MongoDB's code and the message.
  EXPECT_THAT(
      Explain(IsOk(), dup.status()),
      HasSubstr("which is ALREADY_EXISTS (MongoDB code 11000): E11000"));
  EXPECT_THAT(Explain(IsOkAndHolds(EqualsJson("1")), dup),
              HasSubstr("MongoDB code 11000"));
}

TEST(MatchersTest, EqualsJsonComparesAsMongoDB) {
  auto doc = ttldb::Value::MakeObject(
      {ttldb::Field("a", Value::Int32(1)),
       ttldb::Field("b", Value::MakeObject({ttldb::Field(
                             "c", Value::MakeArray({Value::Int64(2),
                                                    Value::Double(3.5)}))}))});
  // Numbers compare by value across types.
  EXPECT_THAT(doc, EqualsJson(R"({"a": 1.0, "b": {"c": [2, 3.5]}})"));
  EXPECT_THAT(doc, EqualsJson(R"({"a": {"$numberLong": "1"},
                                 "b": {"c": [{"$numberDecimal": "2"}, 3.5]}})"));
  // Field order matters, as in MongoDB's document comparison.
  EXPECT_THAT(doc, Not(EqualsJson(R"({"b": {"c": [2, 3.5]}, "a": 1})")));
  EXPECT_THAT(Explain(EqualsJson(R"({"b": {"c": [2, 3.5]}, "a": 1})"), doc),
              HasSubstr("field 1 is 'a', expected 'b' (field order matters)"));
  // The first difference is named by its path.
  EXPECT_THAT(Explain(EqualsJson(R"({"a": 1, "b": {"c": [2, 4]}})"), doc),
              HasSubstr("field 'b.c.1': expected 4, actual 3.5"));
  EXPECT_THAT(Explain(EqualsJson(R"({"a": 1})"), doc),
              HasSubstr("unexpected field 'b'"));
  EXPECT_THAT(Explain(EqualsJson(R"({"a": 1, "b": {}, "d": 0})"), doc),
              HasSubstr("unexpected field 'b.c'"));
  EXPECT_THAT(Explain(EqualsJson(R"({"a": "1", "b": {"c": [2, 3.5]}})"), doc),
              HasSubstr(R"(field 'a': expected "1", actual 1)"));
  EXPECT_THAT(Explain(EqualsJson("{"), doc),
              HasSubstr("the expected JSON does not parse"));
  std::optional<Value> none;
  EXPECT_THAT(Explain(EqualsJson("{}"), none), HasSubstr("absent"));
}

}  // namespace
