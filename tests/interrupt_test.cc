// WriteOptions::interrupt: a multi-document write stops between documents
// with 11601 Interrupted and keeps what it wrote, as MongoDB's killOp of a
// multi-document write does (the shell's Ctrl-C).
#include <atomic>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/collection.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

class InterruptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options o;
    o.ttl_monitor_enabled = false;
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }
  TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(InterruptTest, InsertManyStopsBetweenDocuments) {
  std::atomic<bool> stop{true};
  WriteOptions w;
  w.interrupt = &stop;
  std::vector<DocArg> docs = {R"({"_id": 1})", R"({"_id": 2})",
                              R"({"_id": 3})"};
  absl::Status s = db_->collection("c").InsertMany(docs, nullptr, w);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(ErrorCode(s), kInterrupted);
  EXPECT_TRUE(absl::StrContains(s.message(), "after 1 of 3 documents")) << s;
  // The first document went in before the check; nothing after it.
  EXPECT_EQ(*db_->collection("c").CountDocuments(), 1);
}

TEST_F(InterruptTest, UpdateManyAndDeleteManyStop) {
  Collection& c = db_->collection("c");
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", i, "}")).ok());
  }
  std::atomic<bool> stop{true};
  WriteOptions w;
  w.interrupt = &stop;
  absl::StatusOr<UpdateResult> u =
      c.UpdateMany("{}", R"({"$set": {"x": 1}})", {}, w);
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(ErrorCode(u.status()), kInterrupted);
  EXPECT_TRUE(absl::StrContains(u.status().message(),
                                "after 0 of 10 matching documents"))
      << u.status();
  absl::StatusOr<int64_t> d = c.DeleteMany("{}", w);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(ErrorCode(d.status()), kInterrupted);
  EXPECT_EQ(*c.CountDocuments(), 10);
  // Not interrupted: the same calls run to the end.
  stop.store(false);
  EXPECT_EQ(c.UpdateMany("{}", R"({"$set": {"x": 1}})", {}, w)->modified_count,
            10);
}

}  // namespace
}  // namespace ttldb
