// Collection::FindByIdJson, the raw read path (storage/document_reader.h
// ReadJson): the stored JSON text without a parse, hiding expired documents
// exactly as FindById does (docs/ttl.md: hide_expired), from the document cache
// and from LevelDB alike.
#include <string>

#include "absl/strings/str_cat.h"
#include "tests/db_fixture.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Both with the document cache and without it (every read from LevelDB).
class RawReadTest : public DbFixture<::testing::TestWithParam<bool>> {
 protected:
  void AdjustOptions(Options* options) override {
    if (!GetParam()) options->doc_cache_bytes = 0;
    options->hide_expired = hide_expired_;
  }
  // FindByIdJson parsed back must be FindById's document, byte for byte in
  // the storage form.
  void ExpectSame(Collection& c, const Value& id) {
    auto doc = c.FindById(id);
    auto json = c.FindByIdJson(id);
    ASSERT_TRUE(doc.ok()) << doc.status();
    ASSERT_TRUE(json.ok()) << json.status();
    auto parsed = ParseDocument(*json);
    ASSERT_TRUE(parsed.ok()) << parsed.status() << " " << *json;
    EXPECT_EQ(ToJson(*parsed, JsonFormat::kStorage),
              ToJson(*doc, JsonFormat::kStorage));
  }
  int64_t NowMillis() { return absl::ToUnixMillis(clock_.WallNow()); }
  std::string Date(int64_t ms) { return absl::StrCat(R"({"$date":)", ms, "}"); }

  bool hide_expired_ = true;
};

TEST_P(RawReadTest, GivesTheStoredDocument) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": {"$numberLong": "5"},
      "d": {"$date": 1000}, "s": "q\"uo}te]", "n": [1, {"x": [2.5]}],
      "e\u00e9\\": null})")
                  .ok());
  ASSERT_TRUE(c.InsertOne(R"({"b": true, "_id": "k"})").ok());
  ExpectSame(c, Value::Int32(1));
  ExpectSame(c, Value::String("k"));
  // Read twice: the second may come from the document cache.
  ExpectSame(c, Value::Int32(1));
  auto json = c.FindByIdJson(Value::String("k"));
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(*json, R"({"_id":"k","b":true})");  // _id first, as stored
}

TEST_P(RawReadTest, NotFoundAsFindById) {
  Collection& c = db_->collection("c");
  EXPECT_TRUE(absl::IsNotFound(c.FindByIdJson(Value::Int32(1)).status()));
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1})").ok());
  EXPECT_TRUE(absl::IsNotFound(c.FindByIdJson(Value::Int32(2)).status()));
  // Another type is another _id (1 and "1").
  EXPECT_TRUE(absl::IsNotFound(c.FindByIdJson(Value::String("1")).status()));
  EXPECT_TRUE(c.FindByIdJson(Value::Int32(1)).ok());
}

// Each shape of document under a TTL index of 60 s: hidden by FindByIdJson
// exactly when FindById hides it, before and after the clock moves past
// the expiry.
TEST_P(RawReadTest, HidesExpiredDocumentsAsFindById) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})").ok());
  // A partial TTL index and one on a nested path: the raw path then parses
  // the whole document (the scan alone cannot judge them).
  Collection& p = db_->collection("p");
  ASSERT_TRUE(p.CreateIndex(R"({"t": 1})",
                            R"({"expireAfterSeconds": 60,
                                "partialFilterExpression": {"kind": "a"}})")
                  .ok());
  Collection& n = db_->collection("n");
  ASSERT_TRUE(
      n.CreateIndex(R"({"s.t": 1})", R"({"expireAfterSeconds": 60})").ok());
  const int64_t now = NowMillis();
  const std::string docs[] = {
      absl::StrCat(R"({"_id": 0, "t": )", Date(now - 120'000), "}"),
      absl::StrCat(R"({"_id": 1, "t": )", Date(now - 30'000), "}"),
      absl::StrCat(R"({"_id": 2, "t": [)", Date(now + 60'000), ",",
                   Date(now - 120'000), "]}"),  // the earliest date counts
      R"({"_id": 3, "t": "not a date"})",
      R"({"_id": 4})",
      absl::StrCat(R"({"_id": 5, "x\"t": 1, "t": )", Date(now - 120'000),
                   "}"),  // an escaped key before the field
      absl::StrCat(R"({"_id": 6, "tt": )", Date(now - 120'000), R"(, "t": )",
                   Date(now + 1'000), "}"),
      absl::StrCat(R"({"_id": 7, "kind": "a", "t": )", Date(now - 120'000),
                   "}"),
      absl::StrCat(R"({"_id": 8, "kind": "b", "t": )", Date(now - 120'000),
                   "}"),
      absl::StrCat(R"({"_id": 9, "s": {"t": )", Date(now - 120'000), "}}"),
      absl::StrCat(R"({"_id": 10, "s": {"t": )", Date(now - 30'000), "}}"),
  };
  // Inserted while the clock is far back, so no insert evicts them.
  for (const std::string& d : docs) {
    for (Collection* coll : {&c, &p, &n}) {
      ASSERT_TRUE(coll->InsertOne(d).ok()) << d;
    }
  }
  for (int step = 0; step < 2; ++step) {
    for (Collection* coll : {&c, &p, &n}) {
      for (int id = 0; id <= 10; ++id) {
        const Value v = Value::Int32(id);
        auto doc = coll->FindById(v);
        auto json = coll->FindByIdJson(v);
        ASSERT_EQ(doc.ok(), json.ok())
            << coll->name() << " _id " << id << " step " << step << ": "
            << doc.status() << " / " << json.status();
        if (!doc.ok()) {
          EXPECT_TRUE(absl::IsNotFound(doc.status()));
          EXPECT_TRUE(absl::IsNotFound(json.status()));
        } else {
          ExpectSame(*coll, v);
        }
      }
    }
    clock_.Advance(absl::Seconds(45));  // _id 1, 6 and 10 expire too
  }
  // Spot checks of what the comparison above agreed on.
  EXPECT_FALSE(c.FindByIdJson(Value::Int32(0)).ok());
  EXPECT_FALSE(c.FindByIdJson(Value::Int32(2)).ok());
  EXPECT_TRUE(c.FindByIdJson(Value::Int32(3)).ok());
  EXPECT_FALSE(c.FindByIdJson(Value::Int32(5)).ok());
  EXPECT_FALSE(c.FindByIdJson(Value::Int32(6)).ok());
  EXPECT_FALSE(p.FindByIdJson(Value::Int32(7)).ok());
  EXPECT_TRUE(p.FindByIdJson(Value::Int32(8)).ok());
  EXPECT_FALSE(n.FindByIdJson(Value::Int32(10)).ok());
}

TEST_P(RawReadTest, HideExpiredOffGivesExpiredDocuments) {
  hide_expired_ = false;
  Open();
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": 0, "t": )",
                                       Date(NowMillis() - 120'000), "}"))
                  .ok());
  ExpectSame(c, Value::Int32(0));
}

INSTANTIATE_TEST_SUITE_P(Cache, RawReadTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? "Cached" : "Uncached";
                         });

}  // namespace
}  // namespace ttldb
