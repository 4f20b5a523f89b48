// An embedded-only program (//:ttldb without //remote) opening a mongodb://
// URI: a clear error naming the target to link, nothing else changed.
#include "absl/strings/match.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

TEST(NotLinkedTest, OpenOnAUriNamesTheTargetToLink) {
  for (const char* uri : {"mongodb://127.0.0.1:27017/test",
                          "mongodb+srv://cluster0.example.net/app"}) {
    auto db = Database::Open(uri, {});
    ASSERT_FALSE(db.ok());
    EXPECT_TRUE(absl::IsFailedPrecondition(db.status())) << db.status();
    EXPECT_EQ(ErrorCode(db.status()), kCommandNotSupported);
    EXPECT_TRUE(absl::StrContains(db.status().message(), "//remote"))
        << db.status();
    EXPECT_TRUE(absl::StrContains(db.status().message(), "ttldb::remote"));
  }
}

}  // namespace
}  // namespace ttldb
