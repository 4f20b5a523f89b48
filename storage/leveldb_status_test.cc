// The mapping of LevelDB failures to MongoDB errors (storage/leveldb_status.h).
// Codes from MongoDB's src/mongo/base/error_codes.yml: OutOfDiskSpace 14031,
// DataCorruptionDetected 301, TooManyFilesOpen 264; messages as
// PosixEnv (leveldb/util/env_posix.cc) writes them.
#include "storage/leveldb_status.h"

#include "absl/strings/match.h"
#include "base/status.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace storage {
namespace {

TEST(LevelDBStatusTest, OkIsOk) {
  EXPECT_TRUE(FromLevelDB(leveldb::Status::OK(), "write").ok());
}

TEST(LevelDBStatusTest, FullDiskIsOutOfDiskSpace) {
  absl::Status s = FromLevelDB(
      leveldb::Status::IOError("/d/000005.log", "No space left on device"),
      "write");
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ErrorCode(s), 14031);
  EXPECT_TRUE(absl::StartsWith(s.message(), "write failed: the disk is full"))
      << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "No space left on device")) << s;
}

TEST(LevelDBStatusTest, CorruptionAndMissingFilesNameRepair) {
  for (const leveldb::Status& ls :
       {leveldb::Status::Corruption("block checksum mismatch", "/d/5.ldb"),
        leveldb::Status::NotFound("/d/MANIFEST-000002")}) {
    absl::Status s = FromLevelDB(ls, "reading collection 'c'");
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
    EXPECT_EQ(ErrorCode(s), 301) << s;
    EXPECT_TRUE(absl::StartsWith(
        s.message(), "reading collection 'c' failed: the database is corrupt"))
        << s;
    EXPECT_TRUE(absl::StrContains(s.message(), "ttldb repair")) << s;
  }
}

TEST(LevelDBStatusTest, TooManyOpenFiles) {
  absl::Status s = FromLevelDB(
      leveldb::Status::IOError("/d/000007.ldb", "Too many open files"),
      "opening database '/d'");
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ErrorCode(s), 264);
  EXPECT_TRUE(absl::StrContains(s.message(), "ulimit -n")) << s;
}

TEST(LevelDBStatusTest, HeldLockIsAlreadyOpen) {
  absl::Status s = FromLevelDB(
      leveldb::Status::IOError("lock /d/LOCK", "already held by process"),
      "opening database '/d'");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(s.message(), "already open")) << s;
}

TEST(LevelDBStatusTest, InvalidArgumentAndOthers) {
  absl::Status bad = FromLevelDB(leveldb::Status::InvalidArgument(
                                     "/d", "exists (error_if_exists is true)"),
                                 "creating backup database '/d'");
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  absl::Status io = FromLevelDB(
      leveldb::Status::IOError("/d/x", "Input/output error"), "fsync");
  EXPECT_EQ(io.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(io.message(), "fsync failed: IO error: /d/x: Input/output error");
}

TEST(StickyWriteErrorTest, KeepsTheFirstFailure) {
  StickyWriteError sticky;
  EXPECT_FALSE(sticky.IsSet());
  EXPECT_TRUE(sticky.Refusal().ok());
  EXPECT_TRUE(sticky.Record(leveldb::Status::IOError("/d/1.log", "EIO")));
  EXPECT_FALSE(sticky.Record(
      leveldb::Status::IOError("/d/2.log", "No space left on device")));
  EXPECT_TRUE(sticky.IsSet());
  absl::Status refusal = sticky.Refusal();
  EXPECT_EQ(refusal.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(refusal.message(), "/d/1.log")) << refusal;
  EXPECT_TRUE(absl::StrContains(refusal.message(), "reopened")) << refusal;
  // A commit refused afterwards maps as the first failure did.
  EXPECT_EQ(FromLevelDB(sticky.RefusedWrite(), "write").code(),
            absl::StatusCode::kInternal);
}

TEST(StickyWriteErrorTest, FullDiskRefusesWithOutOfDiskSpace) {
  StickyWriteError sticky;
  sticky.Record(
      leveldb::Status::IOError("/d/1.log", "No space left on device"));
  EXPECT_EQ(ErrorCode(sticky.Refusal()), 14031);
  EXPECT_EQ(ErrorCode(FromLevelDB(sticky.RefusedWrite(), "write")), 14031);
}

}  // namespace
}  // namespace storage
}  // namespace ttldb
