// Capped collections through the public API: Database::CreateCollection
// with ValidationOptions::capped_size / capped_max, the oldest documents
// deleted (with their index entries) in the insert's own write, the
// bounds' errors, collMod's cappedSize/cappedMax, Options() and Stats(),
// the refused TTL index, a reopen (the totals are counted again), and the
// change log's delete events of the capped deletes. Expected answers:
// MongoDB 8.0's create.idl (size gte 1, lte 1 PB: 51024; max lt 2^31),
// collection_options.cpp adjustCappedMaxDocs (max <= 0: 0x7fffffff),
// index_catalog_impl.cpp ("Cannot create TTL index on a capped
// collection", 67), jstests/core/capped/capped_max1.js (stats max and
// maxSize), capped_resize.js, capped_upsert.js.
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

ValidationOptions Capped(int64_t size, std::optional<int64_t> max = {}) {
  ValidationOptions o;
  o.capped_size = size;
  o.capped_max = max;
  return o;
}

class CappedTest : public DbTest {
 protected:
  // The change log is off by default in the library: one test watches.
  void AdjustOptions(Options* options) override { options->change_log = true; }
  // The _ids in natural order.
  std::string Ids(Collection& c) {
    auto cursor = c.Find("{}");
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    std::string out;
    for (;;) {
      auto doc = (*cursor)->Next();
      EXPECT_TRUE(doc.ok());
      if (!doc.ok() || !doc->has_value()) break;
      absl::StrAppend(&out, out.empty() ? "" : ",",
                      ToJson(*(*doc)->Get("_id")));
    }
    return out;
  }
};

TEST_F(CappedTest, MaxBoundsTheCountAndIndexesFollow) {
  ASSERT_TRUE(db_->CreateCollection("c", Capped(1 << 20, 3)).ok());
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"k": 1})").ok());
  for (int i = 1; i <= 5; ++i) {
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "k": )", i, "}")).ok());
  }
  EXPECT_EQ(Ids(c), "3,4,5");
  // The deleted documents' index entries went with them.
  auto by_k = c.Find(R"({"k": {"$lt": 3}})");
  ASSERT_TRUE(by_k.ok());
  EXPECT_FALSE((*by_k)->Next()->has_value());
  EXPECT_TRUE(Valid(c));
  // The totals are counted again after a reopen.
  Open();
  Collection& again = db_->collection("c");
  ASSERT_TRUE(again.InsertOne(R"({"_id": 6, "k": 6})").ok());
  EXPECT_EQ(Ids(again), "4,5,6");
  EXPECT_TRUE(Valid(again));
}

TEST_F(CappedTest, SizeBoundsTheBytesOfStoredForm) {
  ASSERT_TRUE(db_->CreateCollection("c", Capped(300)).ok());
  Collection& c = db_->collection("c");
  const std::string pad(80, 'x');  // 96 bytes of stored form each
  for (int i = 1; i <= 6; ++i) {
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(, "s": ")", pad, R"("})"))
            .ok());
  }
  EXPECT_EQ(Ids(c), "4,5,6");
  auto stats = c.Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_LE(stats->Get("size")->AsDouble(), 300);
  EXPECT_EQ(ToJson(*stats->Get("capped")), "true");
  EXPECT_EQ(ToJson(*stats->Get("maxSize")), "300");
  EXPECT_EQ(ToJson(*stats->Get("max")), "0");
  auto options = c.Options();
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(ToJson(*options), R"({"capped":true,"size":300})");
}

TEST_F(CappedTest, BoundsErrorsAndCollMod) {
  EXPECT_EQ(ErrorCode(db_->CreateCollection("c", Capped(0))), 51024);
  EXPECT_EQ(ErrorCode(db_->CreateCollection("c", Capped(int64_t{1} << 51))),
            51024);
  EXPECT_EQ(
      ErrorCode(db_->CreateCollection("c", Capped(100, int64_t{1} << 31))),
      51024);
  ValidationOptions max_only;
  max_only.capped_max = 3;
  EXPECT_EQ(ErrorCode(db_->CreateCollection("c", max_only)), kInvalidOptions);
  ASSERT_TRUE(db_->CreateCollection("c", Capped(100000, -5)).ok());
  Collection& c = db_->collection("c");
  EXPECT_EQ(ToJson(*c.Options()), R"({"capped":true,"size":100000,)"
                                  R"("max":2147483647})");
  for (int i = 1; i <= 4; ++i) {
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", i, "}")).ok());
  }
  ASSERT_TRUE(c.CollMod(R"({"cappedMax": 2})").ok());
  EXPECT_EQ(Ids(c), "1,2,3,4");  // until the next insert
  ASSERT_TRUE(c.InsertOne(R"({"_id": 5})").ok());
  EXPECT_EQ(Ids(c), "4,5");
  EXPECT_EQ(ErrorCode(c.CollMod(R"({"cappedSize": 0})").status()), 51024);
  // coll_mod.idl's cappedSize is a safeInt64: a double beyond the int64
  // range saturates (BSONElement::safeNumberLong), then fails the bound.
  absl::Status huge = c.CollMod(R"({"cappedSize": 1e19})").status();
  EXPECT_EQ(ErrorCode(huge), 51024);
  EXPECT_EQ(huge.message(),
            "BSON field 'cappedSize' value must be <= 1125899906842624, actual "
            "value '9223372036854775807'");
  EXPECT_EQ(ErrorCode(c.CollMod(R"({"cappedSize": "1"})").status()),
            kTypeMismatch);
  ASSERT_TRUE(db_->CreateCollection("plain").ok());
  EXPECT_EQ(
      ErrorCode(
          db_->collection("plain").CollMod(R"({"cappedSize": 1000})").status()),
      kInvalidOptions);
  auto ttl = c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})");
  EXPECT_EQ(ErrorCode(ttl.status()), kCannotCreateIndex);
  EXPECT_EQ(ttl.status().message(),
            "Cannot create TTL index on a capped collection");
}

// capped_upsert.js: an upsert is an insert and deletes what is past max;
// the change log has a plain delete event for each capped delete.
TEST_F(CappedTest, UpsertsDeleteTooAndTheChangeLogSaysSo) {
  ASSERT_TRUE(db_->CreateCollection("c", Capped(100000, 1)).ok());
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "text": "a"})").ok());
  auto stream = c.Watch();
  ASSERT_TRUE(stream.ok()) << stream.status();
  UpdateOptions upsert;
  upsert.upsert = true;
  ASSERT_TRUE(c.ReplaceOne(R"({"_id": 123})", R"({"text": "b"})", upsert).ok());
  EXPECT_EQ(Ids(c), "123");
  std::string kinds;
  for (int i = 0; i < 2; ++i) {
    auto event = (*stream)->Next(absl::Seconds(5));
    ASSERT_TRUE(event.ok() && event->has_value());
    absl::StrAppend(&kinds, ToJson(*(*event)->Get("operationType")),
                    (*event)->Get("expired") != nullptr ? "(expired)" : "",
                    ";");
  }
  EXPECT_EQ(kinds, R"("delete";"insert";)");
}

}  // namespace
}  // namespace ttldb
