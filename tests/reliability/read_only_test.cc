// Options::read_only writes nothing at all (issue 15 "Operations", issue 18
// item 12): not the LOCK file, not a new log or MANIFEST, not the replayed
// log's table, not LevelDB's LOG. A database on read-only media, or on a
// full disk, opens and answers. Tests run as root, so permissions prove
// nothing: a recording Env fails and counts every write LevelDB attempts,
// and every file's bytes and mtime are compared before and after.
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "tests/reliability/fault_env.h"
#include "tests/test_util.h"
#include "ttldb/collection.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

namespace fs = std::filesystem;

// Every file of a directory: its bytes and modification time.
struct FileState {
  std::string bytes;
  int64_t mtime_ns = 0;
  bool operator==(const FileState& o) const {
    return bytes == o.bytes && mtime_ns == o.mtime_ns;
  }
};

std::map<std::string, FileState> Snapshot(const std::string& dir) {
  std::map<std::string, FileState> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    FileState st;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    st.bytes = buf.str();
    struct stat sb;
    if (::stat(e.path().c_str(), &sb) == 0) {
      st.mtime_ns =
          int64_t{sb.st_mtim.tv_sec} * 1000000000 + sb.st_mtim.tv_nsec;
    }
    out[e.path().filename().string()] = std::move(st);
  }
  return out;
}

// Fails every operation that would change the file system, and records it.
class NoWriteEnv : public leveldb::EnvWrapper {
 public:
  NoWriteEnv() : EnvWrapper(leveldb::Env::Default()) {}
  std::vector<std::string> attempts() {
    std::lock_guard<std::mutex> l(mu_);
    return attempts_;
  }

  leveldb::Status NewWritableFile(const std::string& f,
                                  leveldb::WritableFile**) override {
    return Refuse("NewWritableFile", f);
  }
  leveldb::Status NewAppendableFile(const std::string& f,
                                    leveldb::WritableFile**) override {
    return Refuse("NewAppendableFile", f);
  }
  leveldb::Status RemoveFile(const std::string& f) override {
    return Refuse("RemoveFile", f);
  }
  leveldb::Status RemoveDir(const std::string& f) override {
    return Refuse("RemoveDir", f);
  }
  leveldb::Status CreateDir(const std::string& f) override {
    return Refuse("CreateDir", f);
  }
  leveldb::Status RenameFile(const std::string& a,
                             const std::string& b) override {
    return Refuse("RenameFile", a + " -> " + b);
  }
  leveldb::Status NewLogger(const std::string& f, leveldb::Logger**) override {
    return Refuse("NewLogger", f);
  }
  leveldb::Status LockFile(const std::string& f,
                           leveldb::FileLock** lock) override {
    // Locking an existing LOCK file changes no byte; creating one would.
    if (!target()->FileExists(f)) return Refuse("LockFile (create)", f);
    return target()->LockFile(f, lock);
  }

 private:
  leveldb::Status Refuse(const std::string& op, const std::string& f) {
    std::lock_guard<std::mutex> l(mu_);
    attempts_.push_back(op + " " + f);
    return leveldb::Status::IOError(f, "Read-only file system");
  }
  std::mutex mu_;
  std::vector<std::string> attempts_;
};

Options Quiet() {
  Options o;
  o.ttl_monitor_enabled = false;
  return o;
}

// 300 documents with a TTL index and a secondary index; the last 100 are
// written after a reopen, so they are only in the write-ahead log (a
// read_only open must replay it).
void Populate(const std::string& path) {
  for (int round = 0; round < 2; ++round) {
    auto db = Database::Open(path, Quiet());
    ASSERT_TRUE(db.ok()) << db.status();
    Collection& c = (*db)->collection("events");
    if (round == 0) {
      ASSERT_TRUE(
          c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
      ASSERT_TRUE(c.CreateIndex(R"({"k": 1})").ok());
    }
    const int first = round == 0 ? 0 : 200;
    const int last = round == 0 ? 200 : 300;
    for (int i = first; i < last; ++i) {
      ASSERT_TRUE(
          c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "k": )", i % 7,
                                   R"(, "at": )", DateJson(kTestStart), "}"))
              .ok());
    }
    ASSERT_TRUE((*db)->Close().ok());
  }
}

// Reads everything a read-only user would: a full scan, an indexed query,
// a point read, validate.
void ReadEverything(Database* db) {
  Collection& c = db->collection("events");
  EXPECT_EQ(*c.CountDocuments(), 300);
  EXPECT_EQ(*c.CountDocuments(R"({"k": 3})"), 43);
  absl::StatusOr<Value> one = c.FindById(Value::Int32(250));
  ASSERT_TRUE(one.ok()) << one.status();
  absl::StatusOr<Value> v = c.Validate();
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->Get("valid")->bool_value()) << ToJson(*v);
  auto names = db->ListCollectionNames();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 1u);
}

TEST(ReadOnly, OpensAndReadsWithoutAnyWrite) {
  TempDir dir;
  Populate(dir.path());
  const auto before = Snapshot(dir.path());
  NoWriteEnv env;
  Options o = Quiet();
  o.read_only = true;
  TestingOptions testing;
  testing.env = &env;
  {
    auto db = DatabaseInternal::Open(dir.path(), o, testing);
    ASSERT_TRUE(db.ok()) << db.status();
    ReadEverything(db->get());
    // Writes are refused by ttldb itself.
    EXPECT_TRUE(absl::IsFailedPrecondition(
        (*db)->collection("events").InsertOne(R"({"_id": -1})").status()));
    ASSERT_TRUE((*db)->Close().ok());
  }
  EXPECT_EQ(env.attempts(), std::vector<std::string>{});
  EXPECT_TRUE(Snapshot(dir.path()) == before);
  // And the database is still whole for a writable open.
  auto db = Database::Open(dir.path(), Quiet());
  ASSERT_TRUE(db.ok()) << db.status();
  ReadEverything(db->get());
}

// A directory copied without its LOCK file (or whose LOCK was lost): the
// read-only open does not create one.
TEST(ReadOnly, DoesNotCreateAMissingLockFile) {
  TempDir dir;
  Populate(dir.path());
  ASSERT_TRUE(fs::remove(fs::path(dir.path()) / "LOCK"));
  const auto before = Snapshot(dir.path());
  NoWriteEnv env;
  Options o = Quiet();
  o.read_only = true;
  TestingOptions testing;
  testing.env = &env;
  auto db = DatabaseInternal::Open(dir.path(), o, testing);
  ASSERT_TRUE(db.ok()) << db.status();
  ReadEverything(db->get());
  ASSERT_TRUE((*db)->Close().ok());
  EXPECT_EQ(env.attempts(), std::vector<std::string>{});
  EXPECT_TRUE(Snapshot(dir.path()) == before);
  EXPECT_FALSE(fs::exists(fs::path(dir.path()) / "LOCK"));
}

// The lock still protects: a read-only open of a directory a writable
// Database holds is refused (it would read files the writer deletes).
TEST(ReadOnly, RefusesADirectoryOpenForWriting) {
  TempDir dir;
  Populate(dir.path());
  auto writer = Database::Open(dir.path(), Quiet());
  ASSERT_TRUE(writer.ok()) << writer.status();
  Options o = Quiet();
  o.read_only = true;
  auto reader = Database::Open(dir.path(), o);
  ASSERT_FALSE(reader.ok());
  EXPECT_TRUE(absl::IsFailedPrecondition(reader.status())) << reader.status();
}

// Issue 18 item 12: with the disk full, a writable open cannot start its
// new log; a read-only open still works and attempts no write at all.
TEST(ReadOnly, OpensOnAFullDisk) {
  TempDir dir;
  Populate(dir.path());
  FaultEnv env;
  env.Inject(FaultKind::kDiskFull, "");
  TestingOptions testing;
  testing.env = &env;
  {
    auto db = DatabaseInternal::Open(dir.path(), Quiet(), testing);
    if (db.ok()) {
      // If it opened, its first write fails: the disk is full.
      EXPECT_FALSE(
          (*db)->collection("events").InsertOne(R"({"_id": -1})").ok());
    }
  }
  const int64_t failures = env.injected_failures();
  EXPECT_GT(failures, 0);
  const auto before = Snapshot(dir.path());
  Options ro = Quiet();
  ro.read_only = true;
  {
    auto db = DatabaseInternal::Open(dir.path(), ro, testing);
    ASSERT_TRUE(db.ok()) << db.status();
    ReadEverything(db->get());
    ASSERT_TRUE((*db)->Close().ok());
  }
  EXPECT_EQ(env.injected_failures(), failures);  // not one write attempted
  EXPECT_TRUE(Snapshot(dir.path()) == before);
  // Space comes back: nothing was lost.
  env.ClearAll();
  auto db = Database::Open(dir.path(), Quiet());
  ASSERT_TRUE(db.ok()) << db.status();
  ReadEverything(db->get());
}

}  // namespace
}  // namespace ttldb
