#include "base/status.h"

#include "gtest/gtest.h"

namespace ttldb {
namespace {

TEST(StatusTest, CarriesMongoCode) {
  absl::Status s = MongoError(absl::StatusCode::kAlreadyExists, kDuplicateKey,
                              "E11000 duplicate key error");
  EXPECT_EQ(ErrorCode(s), 11000);
  EXPECT_EQ(MongoCodeName(ErrorCode(s)), "DuplicateKey");
  EXPECT_EQ(ErrorCode(absl::InvalidArgumentError("x")), 0);
}

// codeName as MongoDB's ErrorCodes::errorString gives it: the name from
// src/mongo/base/error_codes.yml, "Location<code>" for an assertion code
// without an entry there (e.g. $sort's 15975), "OK" for 0.
TEST(StatusTest, CodeNamesAsMongoDB) {
  EXPECT_EQ(MongoCodeName(2), "BadValue");
  EXPECT_EQ(MongoCodeName(34), "CannotBackfillArray");
  EXPECT_EQ(MongoCodeName(kInvalidBSON), "InvalidBSON");
  EXPECT_EQ(MongoCodeName(14031), "OutOfDiskSpace");
  EXPECT_EQ(MongoCodeName(kUserAlreadyExists), "Location51003");
  EXPECT_EQ(MongoCodeName(15975), "Location15975");
  EXPECT_EQ(MongoCodeName(0), "OK");
  EXPECT_EQ(kTooManyIndexes, kCannotCreateIndex);
}

absl::StatusOr<int> Twice(absl::StatusOr<int> v) {
  ASSIGN_OR_RETURN(int x, v);
  return 2 * x;
}

TEST(StatusTest, Macros) {
  EXPECT_EQ(*Twice(3), 6);
  EXPECT_EQ(Twice(absl::NotFoundError("n")).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace ttldb
