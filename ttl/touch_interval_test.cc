#include "ttl/touch_interval.h"

#include "base/status.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace {

TEST(TouchIntervalTest, AtMostHalfOfExpireAfterSeconds) {
  EXPECT_TRUE(CheckTouchInterval(absl::Seconds(15), 30, "s", "t_1", 67).ok());
  EXPECT_TRUE(CheckTouchInterval(absl::ZeroDuration(), 1, "s", "t_1", 67).ok());
  // E = 0: an expireAt index, where the date is the expiry time.
  EXPECT_TRUE(CheckTouchInterval(absl::Seconds(60), 0, "s", "t_1", 67).ok());
  // The case: interval 60 s, E = 30 s.
  absl::Status s = CheckTouchInterval(absl::Seconds(60), 30, "s", "t_1", 67);
  EXPECT_EQ(ErrorCode(s), 67);
  EXPECT_EQ(s.message(),
            "TTL index 't_1' of collection 's': expireAfterSeconds (30) must "
            "be at least twice touch_min_interval (1m): Touch leaves a date "
            "younger than that interval unwritten, so a document in use could "
            "expire. Raise expireAfterSeconds or lower touch_min_interval");
  EXPECT_EQ(ErrorCode(CheckTouchInterval(absl::Milliseconds(15001), 30, "s",
                                         "t_1", 72)),
            72);
}

}  // namespace
}  // namespace ttldb
