// Issue 18, items 1, 2 and 5: ttldb never creates a database over existing
// files, never answers from a corrupted block as if data were absent, and a
// failed insert creates no collection. Real LevelDB directories in temp dirs.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "storage/keys.h"
#include "tests/test_util.h"
#include "tools/import_export.h"
#include "ttldb/collection.h"
#include "ttldb/database.h"
#include "ttldb/value.h"

namespace ttldb {
namespace {

namespace fs = std::filesystem;

Options TestOptions() {
  Options o;
  o.ttl_monitor_enabled = false;
  return o;
}

std::unique_ptr<Database> OpenOrDie(const std::string& path,
                                    Options o = TestOptions()) {
  auto db = Database::Open(path, o);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

// Every file of `dir` with its size.
std::map<std::string, uintmax_t> Listing(const std::string& dir) {
  std::map<std::string, uintmax_t> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    out[e.path().filename().string()] = e.is_regular_file() ? e.file_size() : 0;
  }
  return out;
}

void WriteFileBytes(const fs::path& p, const std::string& data) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(data.data(), data.size());
}

// ---- Item 1: a missing CURRENT file -------------------------------------

TEST(MissingCurrent, RefusesWithDataLossAndChangesNothing) {
  TempDir dir;
  {
    auto db = OpenOrDie(dir.path());
    Collection& c = db->collection("r");
    for (int i = 0; i < 500; ++i) {
      ASSERT_TRUE(
          c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "v": "x"})")).ok());
    }
    ASSERT_TRUE(db->Close().ok());
  }
  // Reopen once so that the log becomes a table file, then close again.
  { ASSERT_TRUE(OpenOrDie(dir.path())->Close().ok()); }
  ASSERT_TRUE(fs::remove(fs::path(dir.path()) / "CURRENT"));
  const auto before = Listing(dir.path());

  for (bool read_only : {false, true}) {
    Options o = TestOptions();
    o.read_only = read_only;
    auto db = Database::Open(dir.path(), o);
    ASSERT_FALSE(db.ok()) << "read_only=" << read_only;
    EXPECT_TRUE(absl::IsDataLoss(db.status())) << db.status();
    EXPECT_TRUE(absl::StrContains(db.status().message(), dir.path()))
        << db.status();
    EXPECT_TRUE(absl::StrContains(db.status().message(), "CURRENT"))
        << db.status();
    EXPECT_TRUE(absl::StrContains(db.status().message(), "ttldb repair"))
        << db.status();
    EXPECT_EQ(Listing(dir.path()), before) << "read_only=" << read_only;
  }
}

TEST(MissingCurrent, EmptyOrMissingDirectoryStillCreates) {
  TempDir dir;
  const std::string sub = dir.path() + "/new";
  auto db = OpenOrDie(sub);
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->collection("c").InsertOne(R"({"_id": 1})").ok());
  ASSERT_TRUE(db->Close().ok());
  // An existing empty directory too.
  TempDir empty;
  ASSERT_TRUE(OpenOrDie(empty.path())->Close().ok());
  // A creation interrupted between LevelDB's first manifest and CURRENT
  // (found by crash_test, killed in its first open) holds no data.
  TempDir interrupted;
  WriteFileBytes(fs::path(interrupted.path()) / "MANIFEST-000001", "");
  ASSERT_TRUE(OpenOrDie(interrupted.path())->Close().ok());
}

// The meta record (next collection id) lost while the data stays: opening
// must not start ids at 1 again (the next new collection would get id 1 and
// the old documents stored under it).
TEST(MissingCurrent, DataWithoutMetaRecordIsRefused) {
  TempDir dir;
  {
    auto db = OpenOrDie(dir.path());
    ASSERT_TRUE(db->collection("r").InsertOne(R"({"_id": 1})").ok());
    ASSERT_TRUE(db->Close().ok());
  }
  {
    leveldb::DB* raw = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir.path(), &raw).ok());
    std::unique_ptr<leveldb::DB> ldb(raw);
    ASSERT_TRUE(ldb->Delete(leveldb::WriteOptions(), MetaKey()).ok());
  }
  auto db = Database::Open(dir.path(), TestOptions());
  ASSERT_FALSE(db.ok());
  EXPECT_TRUE(absl::IsDataLoss(db.status())) << db.status();
  EXPECT_TRUE(absl::StrContains(db.status().message(), "metadata"))
      << db.status();
}

// A table file or the MANIFEST gone, or CURRENT garbled (issue 28 item 14,
// review L2/L10): 301 DataCorruptionDetected naming `ttldb repair`, as
// mongod reports damaged storage, never InternalError (1).
TEST(MissingFiles, AreDataCorruptionDetectedNamingTtldbRepair) {
  for (const std::string damage : {"table", "manifest", "current"}) {
    TempDir dir;
    {
      auto db = OpenOrDie(dir.path());
      ASSERT_TRUE(db->collection("c").InsertOne(R"({"_id": 1})").ok());
      ASSERT_TRUE(db->Close().ok());
    }
    // Reopen once so that the log becomes a table file.
    { ASSERT_TRUE(OpenOrDie(dir.path())->Close().ok()); }
    bool removed = false;
    for (const auto& e : fs::directory_iterator(dir.path())) {
      const std::string name = e.path().filename().string();
      if ((damage == "table" && absl::EndsWith(name, ".ldb")) ||
          (damage == "manifest" && absl::StartsWith(name, "MANIFEST-"))) {
        fs::remove(e.path());
        removed = true;
      }
    }
    if (damage == "current") {
      WriteFileBytes(fs::path(dir.path()) / "CURRENT", "garbage");
      removed = true;
    }
    ASSERT_TRUE(removed) << damage;
    auto db = Database::Open(dir.path(), TestOptions());
    ASSERT_FALSE(db.ok()) << damage;
    EXPECT_EQ(ErrorCode(db.status()), kDataCorruptionDetected)
        << damage << ": " << db.status();
    EXPECT_TRUE(absl::StrContains(db.status().message(), "ttldb repair"))
        << db.status();
    EXPECT_FALSE(absl::StrContains(db.status().message(), "RepairDB"))
        << db.status();
  }
}

// ---- Item 2: checksums -----------------------------------------------------

// A random alphanumeric string: Snappy leaves such text as literal bytes,
// so it can be found (and altered) in the table files.
std::string RandomText(std::mt19937_64* rng, int n) {
  static const char kAlnum[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::string s;
  for (int i = 0; i < n; ++i) s.push_back(kAlnum[(*rng)() % 62]);
  return s;
}

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class Checksums : public ::testing::Test {
 protected:
  static constexpr int kDocs = 20'000;

  void SetUp() override {
    std::mt19937_64 rng(18);
    Options o = TestOptions();
    o.write_buffer_bytes = 256 << 10;  // several table files
    // The change log's insert events would be a third copy of each `p`;
    // this test is about a document and its index entry.
    o.change_log = false;
    {
      auto db = OpenOrDie(dir_.path(), o);
      Collection& c = db->collection("r");
      ASSERT_TRUE(c.CreateIndex(R"({"p": 1})").ok());
      std::vector<std::string> docs;
      for (int i = 0; i < kDocs; ++i) {
        std::string p = RandomText(&rng, 32);
        texts_.push_back(p);
        ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "p": ")", p,
                                             R"(", "q": ")",
                                             RandomText(&rng, 40), R"("})"))
                        .ok());
      }
      ASSERT_TRUE(db->Close().ok());
    }
    // The log becomes a table at the next open.
    { ASSERT_TRUE(OpenOrDie(dir_.path(), o)->Close().ok()); }

    // One document whose `p` is in the tables twice (its document and its
    // index entry): change one character of each copy, keeping the blocks
    // parseable, as a flipped bit on disk can. Without checksums the
    // document reads back altered and the index misses it.
    std::vector<fs::path> tables;
    for (const auto& e : fs::directory_iterator(dir_.path())) {
      if (e.path().extension() == ".ldb") tables.push_back(e.path());
    }
    ASSERT_GE(tables.size(), 2u);
    std::map<fs::path, std::string> contents;
    for (const auto& t : tables) contents[t] = ReadAll(t);
    for (int i = kDocs / 3; i < kDocs && target_ < 0; ++i) {
      const std::string tail = texts_[i].substr(8);  // past a shared prefix
      int found = 0;
      for (const auto& [path, data] : contents) {
        for (size_t at = data.find(tail); at != std::string::npos;
             at = data.find(tail, at + 1)) {
          ++found;
        }
      }
      if (found == 2) target_ = i;
    }
    ASSERT_GE(target_, 0) << "no document found in the tables twice";
    const std::string tail = texts_[target_].substr(8);
    for (auto& [path, data] : contents) {
      bool changed = false;
      for (size_t at = data.find(tail); at != std::string::npos;
           at = data.find(tail, at + 1)) {
        char& ch = data[at + 12];
        ch = ch == 'A' ? 'B' : 'A';
        changed = true;
      }
      if (changed) WriteFileBytes(path, data);
    }
  }

  TempDir dir_;
  std::vector<std::string> texts_;
  int target_ = -1;
};

// Expects a corruption error naming the collection: DataLoss with MongoDB's
// DataCorruptionDetected (301, src/mongo/base/error_codes.yml).
void ExpectCorruption(const absl::Status& s) {
  EXPECT_TRUE(absl::IsDataLoss(s)) << s;
  EXPECT_EQ(ErrorCode(s), kDataCorruptionDetected) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "collection 'r'")) << s;
}

TEST_F(Checksums, ReadsOfACorruptedBlockFailInsteadOfMissingData) {
  auto db = OpenOrDie(dir_.path());
  ASSERT_NE(db, nullptr);
  Collection& c = db->collection("r");

  // A full count, a collection scan and an export all read every block.
  absl::StatusOr<int64_t> count = c.CountDocuments("{}");
  ASSERT_FALSE(count.ok()) << "counted " << *count << " of " << kDocs;
  ExpectCorruption(count.status());

  FindOptions scan;
  scan.hint_keys = Value::MakeObject({{"$natural", Value::Int32(1)}});
  auto cursor = c.Find("{}", scan);
  ASSERT_TRUE(cursor.ok()) << cursor.status();
  absl::StatusOr<std::vector<Value>> all = (*cursor)->ToVector();
  ASSERT_FALSE(all.ok()) << "found " << all->size() << " of " << kDocs;
  ExpectCorruption(all.status());

  // The altered document by _id, and through its index.
  absl::StatusOr<Value> by_id = c.FindById(Value::Int32(target_));
  ASSERT_FALSE(by_id.ok()) << "found the altered document";
  ExpectCorruption(by_id.status());

  FindOptions by_index;
  by_index.hint = "p_1";
  auto indexed =
      c.Find(absl::StrCat(R"({"p": ")", texts_[target_], R"("})"), by_index);
  ASSERT_TRUE(indexed.ok()) << indexed.status();
  absl::StatusOr<std::vector<Value>> hits = (*indexed)->ToVector();
  ASSERT_FALSE(hits.ok()) << "found " << hits->size() << " of 1";
  ExpectCorruption(hits.status());

  // ttldb export: an error (the program exits 1), not a shorter file.
  std::ostringstream out;
  absl::StatusOr<int64_t> exported =
      ExportDocuments(db.get(), "r", ExportOptions(), &out);
  ASSERT_FALSE(exported.ok()) << "exported " << *exported;
  ExpectCorruption(exported.status());
}

// ---- Item 5: a failed insert into a new collection -----------------------

std::vector<std::string> Names(Database* db) {
  auto names = db->ListCollectionNames();
  EXPECT_TRUE(names.ok()) << names.status();
  return names.ok() ? *names : std::vector<std::string>();
}

TEST(FailedInsert, CreatesNoCollection) {
  TempDir dir;
  const std::vector<std::string> kExpected = {"ok"};
  {
    auto db = OpenOrDie(dir.path());
    ASSERT_TRUE(db->collection("ok").InsertOne(R"({"_id": 1})").ok());

    // A NUL in a field name (MongoDB: "BSON field name contains a null").
    std::string nul_doc = "{\"a\\u0000b\": 1}";
    EXPECT_FALSE(db->collection("nul").InsertOne(nul_doc).ok());

    // Over 16 MiB stored.
    Value big =
        Value::MakeObject({{"_id", Value::Int32(1)},
                           {"s", Value::String(std::string(17 << 20, 'x'))}});
    absl::StatusOr<Value> r = db->collection("big").InsertOne(big);
    EXPECT_FALSE(r.ok());

    // InsertMany whose first document is bad.
    std::vector<DocArg> docs = {nul_doc, R"({"_id": 2})"};
    EXPECT_FALSE(db->collection("many").InsertMany(docs).ok());

    // An upsert whose inserted document is bad.
    UpdateOptions upsert;
    upsert.upsert = true;
    EXPECT_FALSE(
        db->collection("ups")
            .UpdateOne(R"({"_id": 7})", R"({"$set": {"a\u0000b": 1}})", upsert)
            .ok());

    EXPECT_EQ(Names(db.get()), kExpected);
    for (const char* name : {"nul", "big", "many", "ups"}) {
      absl::StatusOr<int64_t> n = db->collection(name).CountDocuments("{}");
      ASSERT_TRUE(n.ok()) << n.status();
      EXPECT_EQ(*n, 0) << name;
    }
    // A later good insert creates the collection, with a fresh id: it sees
    // nothing of the failed attempts.
    ASSERT_TRUE(db->collection("nul").InsertOne(R"({"_id": 9})").ok());
    absl::StatusOr<int64_t> n = db->collection("nul").CountDocuments("{}");
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(*n, 1);
    ASSERT_TRUE(db->Close().ok());
  }
  auto db = OpenOrDie(dir.path());
  const std::vector<std::string> kAfter = {"nul", "ok"};
  std::vector<std::string> names = Names(db.get());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, kAfter);
  absl::StatusOr<Value> v = db->collection("nul").Validate();
  ASSERT_TRUE(v.ok()) << v.status();
}

}  // namespace
}  // namespace ttldb
