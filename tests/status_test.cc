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
