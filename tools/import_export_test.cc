#include "tools/import_export.h"

#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// 2100-01-01T00:00:00Z: far enough ahead that the real clock the engine
// reads with never hides these documents.
const absl::Time kNow = absl::FromUnixSeconds(4102444800);

std::string DateLine(int id, absl::Time at) {
  return absl::StrCat(R"({"_id":)", id, R"(,"t":{"$date":{"$numberLong":")",
                      absl::ToUnixMillis(at), "\"}}}\n");
}

class ImportExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/import_export_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    Options o;
    o.ttl_monitor_enabled = false;
    auto db = Database::Open(dir_, o);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    ASSERT_TRUE(db_->DropCollection("c").ok());
  }

  ImportOptions Opts() {
    ImportOptions o;
    o.now = kNow;
    return o;
  }

  std::string dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(ImportExportTest, SkewToleranceBoundary) {
  // E = 60 s, tolerance 120 s: a date at now - 180 s expired exactly 120 s
  // ago (imported); one millisecond earlier is beyond it (skipped).
  ASSERT_TRUE(db_->collection("c")
                  .CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})")
                  .ok());
  std::stringstream in;
  in << DateLine(1, kNow - absl::Seconds(180))
     << DateLine(2, kNow - absl::Seconds(180) - absl::Milliseconds(1))
     << DateLine(3, kNow) << R"({"_id":4})"
     << "\n";
  ImportResult r;
  ASSERT_TRUE(ImportDocuments(db_.get(), "c", &in, Opts(), &r).ok());
  EXPECT_EQ(r.imported, 3);
  EXPECT_EQ(r.skipped, 1);
  EXPECT_EQ(r.Summary(),
            "imported 3 documents, skipped 1 already expired by more than "
            "120 s (TTL index t_1)");
  EXPECT_FALSE(db_->collection("c").FindById(Value::Int32(2)).ok());
}

TEST_F(ImportExportTest, PartialFilterAndRejectExpired) {
  ASSERT_TRUE(db_->collection("c")
                  .CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 0,
                      "partialFilterExpression": {"k": 1}})")
                  .ok());
  std::stringstream in(
      R"({"_id":1,"k":1,"t":{"$date":"2001-01-01T00:00:00Z"}}
{"_id":2,"k":2,"t":{"$date":"2001-01-01T00:00:00Z"}}
)");
  ImportResult r;
  ASSERT_TRUE(ImportDocuments(db_.get(), "c", &in, Opts(), &r).ok());
  EXPECT_EQ(r.imported, 1);
  EXPECT_EQ(r.skipped_by_index["t_1"], 1);

  ASSERT_TRUE(db_->DropCollection("c").ok());
  ASSERT_TRUE(
      db_->collection("c")
          .CreateIndex(R"({"t": 1})",
                       R"({"expireAfterSeconds": 0, "rejectExpired": true})")
          .ok());
  // With rejectExpired, expired within the tolerance is skipped too.
  std::stringstream in2(DateLine(1, kNow - absl::Seconds(1)) +
                        DateLine(2, kNow + absl::Seconds(1)));
  ASSERT_TRUE(ImportDocuments(db_.get(), "c", &in2, Opts(), &r).ok());
  EXPECT_EQ(r.imported, 1);
  EXPECT_EQ(r.skipped, 1);
}

TEST_F(ImportExportTest, StopsAtFirstBadLineKeepingEarlierDocuments) {
  std::stringstream in("{\"_id\":1}\n\n{\"_id\":2}\n{\"_id\":\n{\"_id\":4}\n");
  ImportOptions o = Opts();
  o.batch_size = 1;
  ImportResult r;
  absl::Status s = ImportDocuments(db_.get(), "c", &in, o, &r);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().substr(0, 8), "line 4: ");
  EXPECT_EQ(r.imported, 2);
  EXPECT_EQ(*db_->collection("c").CountDocuments(), 2);
}

TEST_F(ImportExportTest, JsonArrayInputAndDuplicateKeyLine) {
  std::stringstream in(R"(  [{"_id":1},{"_id":2},{"_id":1},{"_id":3}])");
  ImportResult r;
  absl::Status s = ImportDocuments(db_.get(), "c", &in, Opts(), &r);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().substr(0, 12), "document 3: ");
  EXPECT_EQ(r.imported, 2);
}

TEST_F(ImportExportTest, ExportKeepsLongAndRoundTrips) {
  Collection& c = db_->collection("c");
  Value doc = Value::MakeObject({{"_id", Value::Int32(1)},
                                 {"l", Value::Int64(5)},
                                 {"i", Value::Int32(5)},
                                 {"d", Value::Double(5)}});
  ASSERT_TRUE(c.InsertOne(doc).ok());
  std::stringstream out;
  ASSERT_EQ(*ExportDocuments(db_.get(), "c", {}, &out), 1);
  EXPECT_EQ(out.str(), R"({"_id":1,"l":{"$numberLong":"5"},"i":5,"d":5.0})"
                       "\n");
  ImportOptions o = Opts();
  o.drop = true;
  ImportResult r;
  std::stringstream in(out.str());
  ASSERT_TRUE(ImportDocuments(db_.get(), "c", &in, o, &r).ok());
  absl::StatusOr<Value> back = c.FindById(Value::Int32(1));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ToJson(*back, JsonFormat::kCanonical),
            ToJson(doc, JsonFormat::kCanonical));
}

}  // namespace
}  // namespace ttldb
