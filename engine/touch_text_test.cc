// Collection::Touch and UpdateOne({_id}, {$set: {f: <date>}}) patch the
// date in the stored JSON text when that gives exactly the general path's
// result (engine/touch_text.h). Every case here runs on two databases, one
// with the text path and one with it switched off (the general path:
// parse, Value::Set, serialize), and compares the results (matched,
// modified, errors) and every LevelDB key and value byte for byte: the
// documents, the index entries (with the TTL entries' sibling lists), the
// catalog. Each case also says whether the text path must have run.
// The $set semantics both follow (field order kept, a new field appended,
// the first of duplicate names set, an identical value no modification):
// MongoDB's src/mongo/db/update/set_node.cpp, modifier_node.cpp,
// jstests/core/write/update/update_set_unset.js.
#include "engine/touch_text.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "document/compare.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

constexpr int64_t kHour = 3600 * 1000;

struct Db {
  TempDir dir;
  Options options;
  std::unique_ptr<Database> db;
  Collection* coll = nullptr;
  Db(FakeClock* clock,
     const std::vector<std::pair<std::string, std::string>>& indexes,
     size_t cache_bytes) {
    options.ttl_monitor_enabled = false;
    options.clock = clock;
    options.doc_cache_bytes = cache_bytes;
    // The stores are compared key by key: the change log's update events
    // are built from the documents each path reads (all fields, or only
    // those the keys need), which differ for documents with a field name
    // twice; engine/change_stream_test.cc checks the events.
    options.change_log = false;
    db = std::move(Database::Open(dir.path(), options).value());
    coll = &db->collection("c");
    for (const auto& [keys, opts] : indexes) {
      EXPECT_TRUE(coll->CreateIndex(keys, opts).ok()) << keys;
    }
  }
  // Every key and value in LevelDB, escaped.
  std::string Dump() {
    std::string out;
    std::unique_ptr<leveldb::Iterator> it(
        DatabaseInternal::engine(*db)->db()->NewIterator(
            leveldb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      absl::StrAppend(&out, absl::CEscape(it->key().ToString()), " => ",
                      absl::CEscape(it->value().ToString()), "\n");
    }
    return out;
  }
  void Reopen() {
    ASSERT_TRUE(db->Close().ok());
    db.reset();
    db = std::move(Database::Open(dir.path(), options).value());
    coll = &db->collection("c");
  }
};

std::string Describe(const absl::StatusOr<UpdateResult>& r) {
  if (!r.ok()) {
    // The payloads by name (ToString lists them in no fixed order).
    std::string out = absl::StrCat(absl::StatusCodeToString(r.status().code()),
                                   ": ", r.status().message());
    for (const char* url : {"ttldb.mongo_code", "ttldb.duplicate_key_info"}) {
      if (auto p = r.status().GetPayload(url)) {
        absl::StrAppend(&out, " [", url, "=", std::string(*p), "]");
      }
    }
    return out;
  }
  return absl::StrCat("matched ", r->matched_count, " modified ",
                      r->modified_count, r->upserted_id ? " upserted" : "");
}

// One operation on a database.
using Op = std::function<absl::StatusOr<UpdateResult>(Collection&)>;

class TouchTextTest : public ::testing::Test {
 protected:
  void TearDown() override { SetStoredTextSetEnabledForTesting(true); }

  // Inserts `docs` into both databases, runs `ops` on each (the text path
  // on `fast`, off on `slow`), and compares results and bytes. `text_sets`:
  // how many documents the text path must have written.
  void Compare(const std::vector<std::string>& docs, const std::vector<Op>& ops,
               int64_t text_sets,
               const std::vector<std::pair<std::string, std::string>>& indexes =
                   {{R"({"t": 1})", R"({"expireAfterSeconds": 3600})"}},
               size_t cache_bytes = 0) {
    Db fast(&clock_, indexes, cache_bytes), slow(&clock_, indexes, cache_bytes);
    for (const std::string& d : docs) {
      ASSERT_TRUE(fast.coll->InsertOne(d).ok()) << d;
      ASSERT_TRUE(slow.coll->InsertOne(d).ok()) << d;
    }
    if (cache_bytes > 0) {  // a cold cache
      fast.Reopen();
      slow.Reopen();
    }
    ASSERT_EQ(fast.Dump(), slow.Dump());
    const uint64_t before = StoredTextSetsForTesting();
    for (size_t i = 0; i < ops.size(); ++i) {
      SCOPED_TRACE(absl::StrCat("op ", i));
      SetStoredTextSetEnabledForTesting(true);
      const std::string a = Describe(ops[i](*fast.coll));
      SetStoredTextSetEnabledForTesting(false);
      const std::string b = Describe(ops[i](*slow.coll));
      SetStoredTextSetEnabledForTesting(true);
      EXPECT_EQ(a, b);
      EXPECT_EQ(fast.Dump(), slow.Dump());
      clock_.Advance(absl::Milliseconds(7));
    }
    EXPECT_EQ(StoredTextSetsForTesting() - before,
              static_cast<uint64_t>(text_sets));
    auto valid = fast.coll->Validate();
    ASSERT_TRUE(valid.ok()) << valid.status();
    EXPECT_TRUE(valid->Get("valid")->bool_value()) << ToJson(*valid);
    // And reads agree (through the cache, if any, and past it).
    for (const std::string& d : docs) {
      const Value id = *ParseDocument(d).value().Get("_id");
      auto x = fast.coll->FindById(id);
      auto y = slow.coll->FindById(id);
      ASSERT_EQ(x.ok(), y.ok());
      if (x.ok()) {
        EXPECT_TRUE(IdenticalValues(*x, *y)) << ToJson(*x);
      }
    }
  }

  static Op Touch(int id, std::string field = "t") {
    return [=](Collection& c) {
      return c.Touch(absl::StrCat(R"({"_id": )", id, "}"), field);
    };
  }
  static Op TouchFilter(std::string filter, std::string field = "t") {
    return [=](Collection& c) { return c.Touch(filter, field); };
  }
  static Op SetDate(int id, int64_t ms, std::string field = "t",
                    bool upsert = false) {
    return [=](Collection& c) {
      UpdateOptions o;
      o.upsert = upsert;
      return c.UpdateOne(
          absl::StrCat(R"({"_id": )", id, "}"),
          absl::StrCat(R"({"$set": {")", field,
                       R"(": {"$date": {"$numberLong": ")", ms, R"("}}}})"),
          o);
    };
  }

  FakeClock clock_{kTestStart};
  const int64_t now_ = absl::ToUnixMillis(kTestStart);
  std::string Date(int64_t ms) {
    return absl::StrCat(R"({"$date": {"$numberLong": ")", ms, R"("}})");
  }
};

TEST_F(TouchTextTest, DateBeforeAndAfterOtherFields) {
  Compare(
      {absl::StrCat(R"({"_id": 1, "t": )", Date(now_ - 5),
                    R"(, "u": 1, "s": "x"})"),
       absl::StrCat(R"({"_id": 2, "u": [1, {"a": "}"}], "s": "q\"}", "t": )",
                    Date(now_ - 5), "}"),
       absl::StrCat(R"({"t": )", Date(now_), R"(, "_id": 3})")},
      {Touch(1), Touch(2), Touch(3), Touch(1), Touch(4)}, 4);
}

TEST_F(TouchTextTest, FieldMissingIsAppended) {
  Compare({R"({"_id": 1, "u": 1})", R"({"_id": 2})"},
          {Touch(1), Touch(2), Touch(1, "fresh")}, 3);
}

TEST_F(TouchTextTest, FieldNotADate) {
  Compare({R"({"_id": 1, "t": 7, "u": 1})", R"({"_id": 2, "t": "s"})",
           R"({"_id": 3, "t": {"a": [1, 2]}, "z": 1})",
           R"({"_id": 4, "t": [1, 2], "z": 1})", R"({"_id": 5, "t": null})"},
          {Touch(1), Touch(2), Touch(3), Touch(4), Touch(5)}, 5);
}

TEST_F(TouchTextTest, NestedSameNamedFields) {
  Compare({absl::StrCat(R"({"_id": 1, "n": {"t": 5, "x": {"t": 6}}, "t": )",
                        Date(now_ - 9), "}"),
           absl::StrCat(R"({"_id": 2, "n": {"t": )", Date(now_ - 9), "}}"),
           R"({"_id": 3, "a": [{"t": 1}], "b": "\"t\":"})"},
          {Touch(1), Touch(2), Touch(3), Touch(1, "n.t")}, 3);
}

TEST_F(TouchTextTest, EscapedKeys) {
  // An escaped key before the field: the scan is unsure (general path);
  // after it, the field is found first (text path).
  Compare({absl::StrCat(R"({"_id": 1, "a\"b": 1, "t": )", Date(now_ - 9), "}"),
           absl::StrCat(R"({"_id": 2, "t": )", Date(now_ - 9),
                        R"(, "q\n\u00e9": "\\"})"),
           R"({"_id": 3, "\u0074": 5})"},
          {Touch(1), Touch(2), Touch(3)}, 2);
}

TEST_F(TouchTextTest, DuplicateKeysSetTheFirst) {
  Compare({absl::StrCat(R"({"_id": 1, "t": "s", "u": 1, "t": )", Date(now_ - 9),
                        "}"),
           absl::StrCat(R"({"_id": 2, "t": )", Date(now_ - 9),
                        R"(, "t": "second"})")},
          {Touch(1), Touch(2)}, 2, {});
}

TEST_F(TouchTextTest, HiddenDocumentsAreNotMatched) {
  // Expired by the TTL index (an hour): reads hide it, so do writes.
  Compare({absl::StrCat(R"({"_id": 1, "t": )", Date(now_ - 2 * kHour), "}"),
           absl::StrCat(R"({"_id": 2, "t": )", Date(now_ - 1000), "}")},
          {Touch(1), SetDate(1, now_), Touch(2),
           SetDate(1, now_, "t", /*upsert=*/true)},
          1);
}

TEST_F(TouchTextTest, CompoundAndMoreIndexes) {
  // Keys come from WriteDocumentLocked on the fields the indexes read, so a
  // compound index on the field, one on a nested path and the TTL entries'
  // sibling lists are the general path's.
  Compare({absl::StrCat(R"({"_id": 1, "u": 3, "t": )", Date(now_ - 9),
                        R"(, "g": {"h": [1, 2]}})"),
           R"({"_id": 2, "u": 4})"},
          {Touch(1), Touch(2), Touch(1)}, 3,
          {{R"({"t": 1})", R"({"expireAfterSeconds": 3600})"},
           {R"({"u": 1, "t": -1})", "{}"},
           {R"({"g.h": 1})", "{}"},
           {R"({"t": -1})", "{}"}});
}

TEST_F(TouchTextTest, PartialIndexFallsBack) {
  Compare(
      {absl::StrCat(R"({"_id": 1, "u": 3, "t": )", Date(now_ - 9), "}")},
      {Touch(1)}, 0,
      {{R"({"t": 1})", R"({"expireAfterSeconds": 3600})"},
       {R"({"u": 1})", R"({"partialFilterExpression": {"u": {"$gt": 1}}})"}});
}

TEST_F(TouchTextTest, UniqueIndexCollides) {
  // Both documents touched at the same "now": the second collides (11000).
  Compare({R"({"_id": 1, "u": 1})", R"({"_id": 2, "u": 2})"},
          {SetDate(1, now_ + 1), SetDate(2, now_ + 1), SetDate(2, now_ + 2)}, 2,
          {{R"({"t": 1})", R"({"unique": true, "sparse": true})"}});
}

TEST_F(TouchTextTest, MultiTouch) {
  Compare({absl::StrCat(R"({"_id": 1, "t": )", Date(now_ - 9), "}"),
           R"({"_id": 2, "u": 2})", R"({"_id": 3, "t": 1})"},
          {TouchFilter(R"({"_id": {"$in": [1, 2, 3, 4]}})"),
           TouchFilter(R"({"_id": {"$gte": 2}})"),
           TouchFilter(R"({"u": 2})"),  // reads u: the general path
           TouchFilter("{}")},
          8);
}

TEST_F(TouchTextTest, UpdateOneSetDate) {
  Compare({absl::StrCat(R"({"_id": 1, "t": )", Date(now_ - 9), R"(, "u": 1})"),
           R"({"_id": 2})"},
          {SetDate(1, now_), SetDate(1, now_),  // identical: not modified
           SetDate(2, now_ - 5, "other"), SetDate(3, now_, "t", true),
           SetDate(1, now_ + 3, "n.t"),
           [](Collection& c) {  // not a date: the general path
             return c.UpdateOne(R"({"_id": 1})", R"({"$set": {"t": 5}})");
           }},
          2);
}

TEST_F(TouchTextTest, TouchMinInterval) {
  // Coalesced touches (matched, not modified) read the stored date.
  Db fast(&clock_, {{R"({"t": 1})", R"({"expireAfterSeconds": 3600})"}}, 0);
  ASSERT_TRUE(fast.coll
                  ->InsertOne(absl::StrCat(R"({"_id": 1, "t": )",
                                           Date(now_ - 1000), "}"))
                  .ok());
  fast.options.touch_min_interval = absl::Seconds(10);
  fast.Reopen();
  const uint64_t before = StoredTextSetsForTesting();
  EXPECT_EQ(Describe(fast.coll->Touch(R"({"_id": 1})", "t")),
            "matched 1 modified 0");
  clock_.Advance(absl::Seconds(10));
  EXPECT_EQ(Describe(fast.coll->Touch(R"({"_id": 1})", "t")),
            "matched 1 modified 1");
  EXPECT_EQ(StoredTextSetsForTesting() - before, 1u);
}

TEST_F(TouchTextTest, CachedDocumentsTakeTheGeneralPathAndReadsSeeTheWrite) {
  // With the document cache: cold documents take the text path (nothing is
  // cached by it), a document read first (cached) the general path.
  Compare({absl::StrCat(R"({"_id": 1, "t": )", Date(now_ - 9), "}"),
           R"({"_id": 2, "u": 2})"},
          {Touch(1), Touch(1),
           [](Collection& c) -> absl::StatusOr<UpdateResult> {
             auto d = c.FindById(Value::Int32(2));
             if (!d.ok()) return d.status();
             return UpdateResult{};
           },
           Touch(2)},
          2, {{R"({"t": 1})", R"({"expireAfterSeconds": 3600})"}}, 1 << 20);
}

}  // namespace
}  // namespace ttldb
