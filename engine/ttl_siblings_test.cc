// The TTL sweep that deletes documents from the TTL index scan alone: each
// TTL entry lists its document's keys in the other indexes
// (storage/entry_value.h). These tests drive the public API, count the
// documents the monitor had to read (a sync point on that path), and check
// with Validate that no index entry is left behind or missing.
#include <atomic>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/sync_point.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "proto/catalog.pb.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

const absl::Time kStart = kTestStart;

class TtlSiblingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SyncPoint::Set("DbImpl::DeleteExpired:ReadDocument", [this] { ++reads_; });
    Open();
  }
  void TearDown() override {
    db_.reset();
    SyncPoint::ClearAll();
  }
  void Open(bool listener = false) {
    db_.reset();
    Options options;
    options.clock = &clock_;
    options.ttl_monitor_enabled = false;
    if (listener) {
      options.expiry_listener = [this](absl::string_view, const Value&) {
        ++listened_;
      };
    }
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }
  Collection& Sessions() { return db_->collection("sessions"); }
  void CreateTtlIndex() {
    ASSERT_TRUE(Sessions()
                    .CreateIndex(R"({"accessTime": 1})",
                                 R"({"expireAfterSeconds": 60})")
                    .ok());
  }
  void Insert(int id, absl::Time t, absl::string_view extra) {
    auto r = Sessions().InsertOne(absl::StrCat(
        R"({"_id": )", id, R"(, "accessTime": )", DateJson(t), extra, "}"));
    ASSERT_TRUE(r.ok()) << r.status();
  }
  void ExpectValid() {
    auto v = Sessions().Validate();
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_TRUE(v->Get("valid")->bool_value()) << ToJson(*v);
  }
  int64_t CountIn(const std::string& filter, const std::string& hint) {
    FindOptions o;
    o.hint = hint;
    auto cursor = Sessions().Find(filter, o);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    int64_t n = 0;
    while (true) {
      auto d = (*cursor)->Next();
      EXPECT_TRUE(d.ok()) << d.status();
      if (!d.ok() || !d->has_value()) break;
      ++n;
    }
    return n;
  }

  TempDir dir_;
  FakeClock clock_{kStart};
  std::unique_ptr<Database> db_;
  std::atomic<int> reads_{0};
  int listened_ = 0;
};

TEST_F(TtlSiblingsTest, DeletesEveryEntryWithoutReadingDocuments) {
  Collection& c = Sessions();
  CreateTtlIndex();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"tags": 1})").ok());  // multikey
  ASSERT_TRUE(c.CreateIndex(R"({"org": 1})", R"({"sparse": true})").ok());
  for (int i = 0; i < 300; ++i) {
    // Even ids expire; odd ones are an hour newer.
    Insert(i, i % 2 == 0 ? kStart : kStart + absl::Hours(1),
           absl::StrCat(R"(, "user": "u)", i, R"(", "tags": ["a", "t)", i % 7,
                        R"("])", i % 3 == 0 ? R"(, "org": 5)" : ""));
  }
  // Change other indexed fields of some expired documents after insert: their
  // TTL entries must follow.
  ASSERT_EQ(c.UpdateMany(R"({"_id": {"$lt": 40}})",
                         R"({"$set": {"user": "moved"}, "$push": {"tags": "z"},
                             "$unset": {"org": 1}})")
                ->modified_count,
            40);
  clock_.Advance(absl::Minutes(5));
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(s.deleted_documents, 150);
  // Per document: the TTL entry, user, tags (2 or 3 keys), org (some).
  EXPECT_GT(s.deleted_keys, 150 * 4);
  EXPECT_EQ(reads_.load(), 0);
  ExpectValid();
  EXPECT_EQ(CountIn(R"({"user": "moved"})", "user_1"), 20);
  EXPECT_EQ(CountIn(R"({"tags": "z"})", "tags_1"), 20);
  EXPECT_EQ(CountIn(R"({"tags": "a"})", "tags_1"), 150);
  // Odd multiples of 3 from 45 on: 50 odd multiples of 3, 7 of them unset.
  EXPECT_EQ(CountIn(R"({"org": 5})", "org_1"), 43);
  EXPECT_EQ(*c.CountDocuments(), 150);
}

TEST_F(TtlSiblingsTest, IndexCreatedLaterIsListedByTheBuild) {
  Collection& c = Sessions();
  CreateTtlIndex();
  for (int i = 0; i < 50; ++i) {
    Insert(i, kStart, absl::StrCat(R"(, "user": "u)", i, R"(")"));
  }
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})").ok());
  clock_.Advance(absl::Minutes(5));
  EXPECT_EQ(
      DatabaseInternal::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
      50);
  EXPECT_EQ(reads_.load(), 0);
  ExpectValid();
  EXPECT_EQ(CountIn(R"({"user": {"$exists": true}})", "user_1"), 0);
}

TEST_F(TtlSiblingsTest, NewTtlIndexListsTheExistingIndexes) {
  Collection& c = Sessions();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})").ok());
  for (int i = 0; i < 50; ++i) {
    Insert(i, kStart, absl::StrCat(R"(, "user": "u)", i, R"(")"));
  }
  CreateTtlIndex();
  clock_.Advance(absl::Minutes(5));
  EXPECT_EQ(
      DatabaseInternal::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
      50);
  EXPECT_EQ(reads_.load(), 0);
  ExpectValid();
}

TEST_F(TtlSiblingsTest, DroppedIndexIsSkipped) {
  Collection& c = Sessions();
  CreateTtlIndex();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"group": 1})").ok());
  for (int i = 0; i < 20; ++i) {
    Insert(i, kStart, absl::StrCat(R"(, "user": "u)", i, R"(", "group": 1)"));
  }
  ASSERT_TRUE(c.DropIndex("user_1").ok());
  clock_.Advance(absl::Minutes(5));
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(s.deleted_documents, 20);
  EXPECT_EQ(s.deleted_keys, 40);  // TTL + group; user's entries are gone
  EXPECT_EQ(reads_.load(), 0);
  ExpectValid();
}

TEST_F(TtlSiblingsTest, EntriesWithoutListsAreReadAndStillFullyDeleted) {
  Collection& c = Sessions();
  // A plain index turned into a TTL index by collMod keeps its plain
  // entries; huge multikey arrays exceed the list's size cap.
  ASSERT_TRUE(c.CreateIndex(R"({"accessTime": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"tags": 1})").ok());
  std::string many;
  for (int t = 0; t < 400; ++t) absl::StrAppend(&many, t ? "," : "", t);
  for (int i = 0; i < 10; ++i) {
    Insert(i, kStart, absl::StrCat(R"(, "tags": [1, 2])"));
  }
  ASSERT_TRUE(c.CollMod(R"({"index": {"keyPattern": {"accessTime": 1},
                                      "expireAfterSeconds": 60}})")
                  .ok());
  for (int i = 10; i < 15; ++i) {
    Insert(i, kStart, absl::StrCat(R"(, "tags": [)", many, "]"));
  }
  for (int i = 15; i < 20; ++i) {
    Insert(i, kStart, R"(, "tags": [3])");
  }
  clock_.Advance(absl::Minutes(5));
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(s.deleted_documents, 20);
  EXPECT_EQ(s.deleted_keys, 10 * 3 + 5 * 401 + 5 * 2);
  EXPECT_EQ(reads_.load(), 15);  // 10 plain + 5 over the cap
  ExpectValid();
  EXPECT_EQ(CountIn("{}", "tags_1"), 0);
}

TEST_F(TtlSiblingsTest, AnExpiryListenerReadsEveryDocument) {
  Open(/*listener=*/true);
  Collection& c = Sessions();
  CreateTtlIndex();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})").ok());
  for (int i = 0; i < 30; ++i) Insert(i, kStart, R"(, "user": "x")");
  clock_.Advance(absl::Minutes(5));
  EXPECT_EQ(
      DatabaseInternal::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
      30);
  EXPECT_EQ(reads_.load(), 30);
  EXPECT_EQ(listened_, 30);
  ExpectValid();
}

TEST_F(TtlSiblingsTest, MultikeyTtlFieldIsReadOnce) {
  Collection& c = Sessions();
  CreateTtlIndex();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})").ok());
  // Two dates: two TTL entries, no lists; one document, read once.
  auto r = c.InsertOne(absl::StrCat(
      R"({"_id": 1, "user": "a", "accessTime": [)", DateJson(kStart), ", ",
      DateJson(kStart + absl::Seconds(1)), "]}"));
  ASSERT_TRUE(r.ok()) << r.status();
  Insert(2, kStart, R"(, "user": "b")");
  clock_.Advance(absl::Minutes(5));
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(s.deleted_documents, 2);
  EXPECT_EQ(s.deleted_keys, 3 + 2);
  EXPECT_EQ(reads_.load(), 1);
  ExpectValid();
}

TEST_F(TtlSiblingsTest, UpdateOfAnotherIndexedFieldBetweenPassesIsFollowed) {
  Collection& c = Sessions();
  CreateTtlIndex();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})", R"({"unique": true})").ok());
  Insert(1, kStart, R"(, "user": "a")");
  ASSERT_EQ(c.UpdateOne(R"({"_id": 1})", R"({"$set": {"user": "b"}})")
                ->modified_count,
            1);
  clock_.Advance(absl::Minutes(5));
  EXPECT_EQ(
      DatabaseInternal::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
      1);
  ExpectValid();
  // The unique key "b" is free again: no entry was left behind.
  Insert(2, clock_.WallNow(), R"(, "user": "b")");
  EXPECT_EQ(reads_.load(), 0);
}

TEST_F(TtlSiblingsTest, ListsSurviveReopen) {
  Collection& c = Sessions();
  CreateTtlIndex();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})").ok());
  for (int i = 0; i < 10; ++i) Insert(i, kStart, R"(, "user": "x")");
  Open();
  clock_.Advance(absl::Minutes(5));
  EXPECT_EQ(
      DatabaseInternal::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
      10);
  EXPECT_EQ(reads_.load(), 0);
  ExpectValid();
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

// A database written by format 1 (plain TTL entries, meta version 1) opens,
// has its keys rebuilt in the current form (siblings included), is swept
// correctly, and is marked format 3 with no rekey marker left.
TEST_F(TtlSiblingsTest, FormatOneDatabaseIsReadAndUpgraded) {
  Collection& c = Sessions();
  CreateTtlIndex();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})").ok());
  for (int i = 0; i < 10; ++i) Insert(i, kStart, R"(, "user": "x")");
  db_.reset();
  {
    // Rewrite it as format 1 would have left it.
    leveldb::DB* raw = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir_.path(), &raw).ok());
    std::unique_ptr<leveldb::DB> owned(raw);
    leveldb::WriteBatch batch;
    std::unique_ptr<leveldb::Iterator> it(
        raw->NewIterator(leveldb::ReadOptions()));
    int rewritten = 0;
    for (it->Seek("I"); it->Valid() && it->key().starts_with("I"); it->Next()) {
      absl::string_view v(it->value().data(), it->value().size());
      if (!v.empty() && v[0] == kSiblingsTag) {
        absl::string_view id = EntryValueId(v);
        batch.Put(it->key(), leveldb::Slice(id.data(), id.size()));
        ++rewritten;
      }
    }
    EXPECT_EQ(rewritten, 10);
    proto::DatabaseMeta meta;
    std::string m;
    ASSERT_TRUE(raw->Get(leveldb::ReadOptions(), MetaKey(), &m).ok());
    ASSERT_TRUE(meta.ParseFromString(m));
    EXPECT_EQ(meta.format_version(), 3u);
    meta.set_format_version(1);
    batch.Put(MetaKey(), meta.SerializeAsString());
    it.reset();
    ASSERT_TRUE(raw->Write(leveldb::WriteOptions(), &batch).ok());
  }
  Open();
  clock_.Advance(absl::Minutes(5));
  EXPECT_EQ(
      DatabaseInternal::RunTtlPass(*db_, clock_.WallNow()).deleted_documents,
      10);
  // Opening a format-1 database now rebuilds its keys for format 3
  // (DbImpl::LoadCatalog), which writes the entries with their siblings:
  // the monitor no longer reads the documents.
  EXPECT_EQ(reads_.load(), 0);
  ExpectValid();
  db_.reset();
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir_.path(), &raw).ok());
  std::unique_ptr<leveldb::DB> owned(raw);
  std::string m;
  ASSERT_TRUE(raw->Get(leveldb::ReadOptions(), MetaKey(), &m).ok());
  proto::DatabaseMeta meta;
  ASSERT_TRUE(meta.ParseFromString(m));
  EXPECT_EQ(meta.format_version(), 3u);
  EXPECT_TRUE(
      raw->Get(leveldb::ReadOptions(), RekeyMarkerKey(), &m).IsNotFound());
}

// An index build whose new list would exceed the size cap must not leave
// the entry's older list in place: a later write that changes another
// indexed field (both lists over the cap, so "unchanged") would not rewrite
// it, and once the big index is dropped the stale list covers every index,
// so the monitor deleted the old key and left the current one behind (here
// a unique key that then refused a new document).
TEST_F(TtlSiblingsTest, BuildOverTheCapLeavesNoStaleList) {
  Collection& c = Sessions();
  CreateTtlIndex();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})", R"({"unique": true})").ok());
  std::string many;
  for (int t = 0; t < 400; ++t) absl::StrAppend(&many, t ? "," : "", t);
  Insert(1, kStart, absl::StrCat(R"(, "user": "a", "tags": [)", many, "]"));
  ASSERT_TRUE(c.CreateIndex(R"({"tags": 1})").ok());  // list over the cap
  ASSERT_EQ(c.UpdateOne(R"({"_id": 1})", R"({"$set": {"user": "b"}})")
                ->modified_count,
            1);
  ExpectValid();
  ASSERT_TRUE(c.DropIndex("tags_1").ok());
  clock_.Advance(absl::Minutes(5));
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(s.deleted_documents, 1);
  ExpectValid();
  EXPECT_EQ(CountIn("{}", "user_1"), 0);
  Insert(2, clock_.WallNow(), R"(, "user": "b")");
}

// Random writes of every kind on a collection with two TTL indexes (one
// partial, one descending), a unique sparse index, a multikey index, a
// partial index, indexes created and dropped midway (one whose keys exceed
// the list cap) and a plain index turned into a TTL index by collMod. After
// every step the collection validates (every TTL list exact); after every
// pass exactly the expired documents are gone (hide_expired counts them).
TEST_F(TtlSiblingsTest, RandomWritesKeepListsExact) {
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    TempDir dir;
    FakeClock clock{kStart};
    Options options;
    options.clock = &clock;
    options.ttl_monitor_enabled = false;
    options.touch_min_interval = absl::ZeroDuration();
    auto opened = Database::Open(dir.path(), options);
    ASSERT_TRUE(opened.ok()) << opened.status();
    std::unique_ptr<Database> db = std::move(*opened);
    Collection& c = db->collection("s");
    ASSERT_TRUE(c.CreateIndex(R"({"accessTime": 1})",
                              R"({"expireAfterSeconds": 60,
                                  "partialFilterExpression": {"kind": "s"}})")
                    .ok());
    ASSERT_TRUE(
        c.CreateIndex(R"({"b": -1})", R"({"expireAfterSeconds": 120})").ok());
    ASSERT_TRUE(
        c.CreateIndex(R"({"user": 1})", R"({"unique": true, "sparse": true})")
            .ok());
    ASSERT_TRUE(c.CreateIndex(R"({"nick": 1})", R"({"sparse": true})").ok());
    ASSERT_TRUE(c.CreateIndex(R"({"tags": 1})").ok());
    ASSERT_TRUE(
        c.CreateIndex(R"({"org": 1})",
                      R"({"partialFilterExpression": {"org": {"$gt": 2}}})")
            .ok());
    ASSERT_TRUE(c.CreateIndex(R"({"cdate": 1})").ok());
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % n); };
    std::string big;
    for (int t = 0; t < 300; ++t) absl::StrAppend(&big, t ? "," : "", t);
    auto date = [&] {
      return DateJson(clock.WallNow() + absl::Minutes(pick(40) - 4));
    };
    auto field_value = [&](int f) -> std::string {
      switch (f) {
        case 0:  // accessTime
          return pick(5) == 0 ? absl::StrCat("[", date(), ",", date(), "]")
                              : date();
        case 1:
          return date();  // b
        case 2:
          return pick(2) ? R"("s")" : R"("t")";  // kind
        case 3:
          return absl::StrCat(R"("u)", pick(8), R"(")");  // user
        case 4:
          return absl::StrCat(R"("n)", pick(4), R"(")");  // nick
        case 5: {                                         // tags
          std::string t = "[";
          for (int k = pick(4); k > 0; --k) {
            absl::StrAppend(&t, t.size() > 1 ? "," : "", R"("t)", pick(5),
                            R"(")");
          }
          return t + "]";
        }
        case 6:
          return absl::StrCat(pick(5));  // org
        case 7:
          return pick(4) == 0 ? absl::StrCat("[", big, "]")
                              : absl::StrCat(pick(3));  // big
        case 8:
          return absl::StrCat(pick(3));  // extra
        default:
          return date();  // cdate
      }
    };
    const char* kFields[] = {"accessTime", "b",   "kind", "user",  "nick",
                             "tags",       "org", "big",  "extra", "cdate"};
    auto random_doc = [&](int id) {
      std::string d = absl::StrCat(R"({"_id": )", id);
      for (int f = 0; f < 10; ++f) {
        if (pick(4) == 0) continue;
        absl::StrAppend(&d, R"(, ")", kFields[f], R"(": )", field_value(f));
      }
      return d + "}";
    };
    auto tolerated = [](const absl::Status& s) {
      return s.ok() || absl::IsAlreadyExists(s) || absl::IsInvalidArgument(s);
    };
    bool converted = false;
    std::string log;
    for (int step = 0; step < 300; ++step) {
      const int id = pick(20);
      const std::string by_id = absl::StrCat(R"({"_id": )", id, "}");
      absl::Status st;
      std::string what;
      int op = pick(14);
      if (op == 12) {
        if (!converted) {
          converted = true;
          st = c.CollMod(R"({"index": {"keyPattern": {"cdate": 1},
                                       "expireAfterSeconds": 30}})")
                   .status();
          what = "collMod cdate";
          op = -1;
        } else {
          op = 3;
        }
      }
      switch (op) {
        case -1:
          break;
        case 0:
        case 1:
          what = random_doc(id);
          st = c.InsertOne(what).status();
          what = "insert " + what;
          break;
        case 2: {
          UpdateOptions uo;
          uo.upsert = pick(2) == 0;
          what = random_doc(id);
          st = c.ReplaceOne(by_id, what, uo).status();
          what = "replace " + what;
          break;
        }
        case 3:
        case 4:
        case 5: {
          const int f = pick(10);
          switch (pick(5)) {
            case 0:
              what = absl::StrCat(R"({"$unset": {")", kFields[f], R"(": 1}})");
              break;
            case 1:
              what = pick(2) ? R"({"$rename": {"user": "nick"}})"
                             : R"({"$rename": {"nick": "user"}})";
              break;
            case 2:
              what =
                  absl::StrCat(R"({"$push": {"tags": "t)", pick(5), R"("}})");
              break;
            case 3:
              what = R"({"$pop": {"tags": 1}})";
              break;
            default:
              what = absl::StrCat(R"({"$set": {")", kFields[f], R"(": )",
                                  field_value(f), "}}");
          }
          UpdateOptions uo;
          uo.upsert = pick(4) == 0;
          st = c.UpdateOne(by_id, what, uo).status();
          what = absl::StrCat("update ", id, " ", what);
          break;
        }
        case 6:
          st = c.Touch(by_id, pick(2) ? "accessTime" : "b").status();
          what = absl::StrCat("touch ", id);
          break;
        case 7:
          st = c.DeleteOne(by_id).status();
          what = absl::StrCat("delete ", id);
          break;
        case 8:
        case 9: {
          const char* name = pick(2) ? "extra" : "big";
          if (pick(3) != 0) {
            st =
                c.CreateIndex(absl::StrCat(R"({")", name, R"(": 1})")).status();
            what = absl::StrCat("create ", name);
          } else {
            st = c.DropIndex(absl::StrCat(name, "_1"));
            if (absl::IsNotFound(st)) st = absl::OkStatus();
            what = absl::StrCat("drop ", name);
          }
          break;
        }
        default: {
          clock.Advance(absl::Minutes(pick(4)));
          auto visible = c.CountDocuments();
          ASSERT_TRUE(visible.ok()) << visible.status();
          DatabaseInternal::RunTtlPass(*db, clock.WallNow());
          auto v = c.Validate();
          ASSERT_TRUE(v.ok()) << v.status();
          EXPECT_EQ(v->Get("nrecords")->int64_value(), *visible)
              << log << "pass";
          what = "pass";
          break;
        }
      }
      absl::StrAppend(&log, what, " -> ", st.ToString(), "\n");
      ASSERT_TRUE(tolerated(st)) << log;
      auto v = c.Validate();
      ASSERT_TRUE(v.ok()) << v.status();
      ASSERT_TRUE(v->Get("valid")->bool_value()) << log << ToJson(*v);
    }
  }
}

// A unique index build that fails after committing a chunk leaves TTL
// entries whose lists name the failed index's id: the sweep skips that id
// (never handed out again) and still deletes every current entry.
TEST_F(TtlSiblingsTest, FailedBuildAfterACommittedChunk) {
  Collection& c = Sessions();
  CreateTtlIndex();
  ASSERT_TRUE(c.CreateIndex(R"({"user": 1})").ok());
  constexpr int kDocs = 5200;  // 2 puts each: past the build's 10,000 chunk
  for (int i = 0; i < kDocs; ++i) {
    Insert(i, kStart,
           absl::StrCat(R"(, "user": "u)", i, R"(", "code": )",
                        i == kDocs - 1 ? 0 : i));
  }
  auto failed = c.CreateIndex(R"({"code": 1})", R"({"unique": true})");
  ASSERT_TRUE(absl::IsAlreadyExists(failed.status())) << failed.status();
  ExpectValid();
  clock_.Advance(absl::Minutes(5));
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(s.deleted_documents, kDocs);
  EXPECT_EQ(reads_.load(), 0);
  ExpectValid();
  EXPECT_EQ(CountIn("{}", "user_1"), 0);
}

// A writer that waits for the writers' lock while the pass deletes waits for
// a few entries, not for the rest of a chunk of 256: the chunk ends at the
// next entry once it has done kMinEntriesPerChunk (4), and the writer goes
// before the next chunk (issue 29 item 5; engine/ttl_sweep.cc).
TEST_F(TtlSiblingsTest, ChunkEndsEarlyForAWaitingWriter) {
  Open(/*listener=*/true);  // every document read: a sync point per entry
  CreateTtlIndex();
  for (int i = 0; i < 600; ++i) Insert(i, kStart, "");
  DbImpl* engine = DatabaseInternal::engine(*db_);
  std::atomic<int> reads_at_chunk_start[8] = {};
  std::atomic<int> chunks{0};
  SyncPoint::Set("DbImpl::DeleteExpired:BeforeChunk", [&] {
    const int c = chunks++;
    if (c < 8) reads_at_chunk_start[c] = reads_.load();
  });
  std::thread writer;
  std::atomic<bool> written{false};
  SyncPoint::Set("DbImpl::DeleteExpired:ReadDocument", [&] {
    if (++reads_ != 10) return;
    // The 10th document of the first chunk: a client inserts now, and
    // waits for the lock the pass holds.
    writer = std::thread([&] {
      Insert(1000, kStart + absl::Hours(1), "");
      written = true;
    });
    const absl::Time give_up = absl::Now() + absl::Seconds(60);
    while (!engine->WritersWaiting() && absl::Now() < give_up) {
      std::this_thread::yield();
    }
    ASSERT_TRUE(engine->WritersWaiting());
  });
  clock_.Advance(absl::Minutes(5));
  TtlPassStats s = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  writer.join();
  EXPECT_TRUE(written.load());
  EXPECT_EQ(s.deleted_documents, 600);
  ASSERT_GE(chunks.load(), 3);
  EXPECT_EQ(reads_at_chunk_start[0].load(), 0);
  // The first chunk ended right after the 10th entry (it read 10, not 256).
  EXPECT_EQ(reads_at_chunk_start[1].load(), 10);
  auto d = Sessions().FindById(Value::Int32(1000));
  EXPECT_TRUE(d.ok()) << d.status();
  ExpectValid();
}

}  // namespace
}  // namespace ttldb
