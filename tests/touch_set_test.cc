// Collection::Touch(filter, field) is UpdateOne-many with
// {$set: {field: now}} (ttldb/collection.h). For a top-level field it no
// longer parses that update: it sets the field on its copy of the document
// (engine/collection.cc ApplyToDocument). This test runs Touch on one
// database and UpdateMany with the $set on a twin, over documents where the
// field is absent, present (in the middle, first, last), repeated, of
// another type, already equal to now, nested (a dotted field takes the
// general path), and checks the results and stored documents are the same.
// MongoDB's $set semantics (field order kept, a new field appended, an
// identical value is no modification): src/mongo/db/update/set_node.cpp,
// modifier_node.cpp (the no-op check), jstests/core/write/update/
// update_set_unset.js.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

struct Twin {
  TempDir dir;
  std::unique_ptr<Database> db;
  Collection* coll = nullptr;
  Twin(FakeClock* clock, bool ttl_index) {
    Options options;
    options.ttl_monitor_enabled = false;
    options.clock = clock;
    db = std::move(Database::Open(dir.path(), options).value());
    coll = &db->collection("c");
    if (ttl_index) {
      EXPECT_TRUE(
          coll->CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 3600})")
              .ok());
      EXPECT_TRUE(coll->CreateIndex(R"({"u": 1})").ok());
    }
  }
  std::vector<std::string> All() {
    std::vector<std::string> out;
    auto docs = (*coll->Find("{}"))->ToVector();
    EXPECT_TRUE(docs.ok());
    for (const Value& d : *docs) {
      out.push_back(ToJson(d, JsonFormat::kCanonical));
    }
    return out;
  }
};

TEST(TouchSetTest, TouchIsTheSetOfNow) {
  FakeClock clock(kTestStart);
  const int64_t now = absl::ToUnixMillis(kTestStart);
  const std::string date_now =
      absl::StrCat(R"({"$date": {"$numberLong": ")", now, R"("}})");
  const std::vector<std::string> docs = {
      R"({"_id": 1, "u": 1})",
      R"({"_id": 2, "t": {"$date": {"$numberLong": "5"}}, "u": 2})",
      R"({"_id": 3, "u": 3, "t": 7, "z": [1, 2]})",
      R"({"_id": 4, "t": "s", "t": "second", "u": 4})",
      absl::StrCat(R"({"_id": 5, "t": )", date_now, R"(, "u": 5})"),
      R"({"_id": 6, "u": 6, "t": [1, {"$date": {"$numberLong": "9"}}]})",
      R"({"_id": 7, "n": {"t": 1}, "u": 7})",
      R"({"_id": 8, "n": 5, "u": 8})",
  };
  for (bool ttl_index : {false, true}) {
    for (const std::string field : {"t", "n.t", "fresh"}) {
      SCOPED_TRACE(absl::StrCat(field, ttl_index ? " with indexes" : ""));
      Twin touch(&clock, ttl_index), set(&clock, ttl_index);
      for (const std::string& d : docs) {
        ASSERT_TRUE(touch.coll->InsertOne(d).ok()) << d;
        ASSERT_TRUE(set.coll->InsertOne(d).ok()) << d;
      }
      for (int id = 1; id <= 9; ++id) {
        const std::string filter = absl::StrCat(R"({"_id": )", id, "}");
        auto a = touch.coll->Touch(filter, field);
        auto b = set.coll->UpdateMany(
            filter,
            absl::StrCat(R"({"$set": {")", field, R"(": )", date_now, "}}"));
        ASSERT_EQ(a.ok(), b.ok()) << id << " " << a.status() << b.status();
        if (!a.ok()) {
          EXPECT_EQ(a.status().message(), b.status().message());
          continue;
        }
        EXPECT_EQ(a->matched_count, b->matched_count) << id;
        EXPECT_EQ(a->modified_count, b->modified_count) << id;
      }
      EXPECT_EQ(touch.All(), set.All());
      if (ttl_index) {
        // Every index entry and TTL sibling list as the $set leaves them.
        auto va = touch.coll->Validate();
        auto vb = set.coll->Validate();
        ASSERT_TRUE(va.ok()) << va.status();
        ASSERT_TRUE(vb.ok()) << vb.status();
        EXPECT_EQ(ToJson(*va), ToJson(*vb));
      }
    }
  }
  // Already equal to now (document 5, field t): matched, not modified.
  Twin one(&clock, false);
  ASSERT_TRUE(one.coll->InsertOne(docs[4]).ok());
  auto r = one.coll->Touch(R"({"_id": 5})", "t");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->matched_count, 1);
  EXPECT_EQ(r->modified_count, 0);
  // A new top-level field is appended; an existing one keeps its place.
  ASSERT_TRUE(
      one.coll->InsertOne(R"({"_id": 9, "a": 1, "t": 2, "b": 3})").ok());
  ASSERT_TRUE(one.coll->Touch(R"({"_id": 9})", "t").ok());
  ASSERT_TRUE(one.coll->Touch(R"({"_id": 9})", "c").ok());
  EXPECT_EQ(
      ToJson(one.coll->FindById(Value::Int32(9)).value()),
      absl::StrCat(R"({"_id":9,"a":1,"t":{"$date":")", FormatIsoDate(now),
                   R"("},"b":3,"c":{"$date":")", FormatIsoDate(now), R"("}})"));
}

}  // namespace
}  // namespace ttldb
