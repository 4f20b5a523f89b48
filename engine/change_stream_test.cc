// Change streams end to end through the public API (ttldb/change_stream.h):
// the change log on a real LevelDB in a temporary directory, an injected
// clock, TTL passes run on demand (never sleeping for expiry). Expected
// event shapes: MongoDB's src/mongo/db/pipeline/
// change_stream_event_transform.cpp and jstests/change_streams/
// (change_stream.js for insert/update/replace/delete, lookup_pre_image.js
// for fullDocumentBeforeChange, resume_from_high_water_mark_token.js).
#include "ttldb/change_stream.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "storage/change_log.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class ChangeStreamTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(); }
  void Open() {
    db_.reset();
    Options options = options_;
    options.clock = &clock_;
    options.ttl_monitor_enabled = false;  // passes run on demand
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }
  std::unique_ptr<ChangeStream> Watch(const std::string& coll,
                                      ChangeStreamOptions o = {}) {
    auto s = db_->collection(coll).Watch(o);
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? std::move(*s) : nullptr;
  }
  // The next event, which must come at once (it is committed already).
  Value NextNow(ChangeStream& s) {
    auto e = s.Next(absl::ZeroDuration());
    EXPECT_TRUE(e.ok()) << e.status();
    if (!e.ok() || !e->has_value()) {
      ADD_FAILURE() << "no event";
      return Value::Null();
    }
    return **e;
  }
  static std::string Op(const Value& e) {
    const Value* op = e.Get("operationType");
    return op != nullptr && op->is_string() ? op->string_value() : "?";
  }
  static std::string J(const Value* v) {
    return v == nullptr ? "<missing>" : ToJson(*v);
  }

  TempDir dir_;
  FakeClock clock_{kTestStart};
  Options options_ = [] {
    Options o;
    o.change_log = true;  // off by default in the library
    return o;
  }();
  std::unique_ptr<Database> db_;
};

TEST_F(ChangeStreamTest, EventsInCommitOrderInMongoDbsShape) {
  auto s = Watch("c");
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": 1, "b": {"x": 1}, "y": 0})").ok());
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})",
                          R"({"$set": {"a": 2, "b.x": 3}, "$unset": {"y": 1}})")
                  .ok());
  ASSERT_TRUE(c.ReplaceOne(R"({"_id": 1})", R"({"z": 1})").ok());
  ASSERT_TRUE(c.DeleteOne(R"({"_id": 1})").ok());
  // Another collection's changes are not this stream's.
  ASSERT_TRUE(db_->collection("other").InsertOne(R"({"_id": 9})").ok());

  Value ins = NextNow(*s);
  EXPECT_EQ(Op(ins), "insert");
  EXPECT_EQ(J(ins.Get("fullDocument")), R"({"_id":1,"a":1,"b":{"x":1},"y":0})");
  EXPECT_EQ(J(ins.Get("ns")), R"({"db":"test","coll":"c"})");
  EXPECT_EQ(J(ins.Get("documentKey")), R"({"_id":1})");
  ASSERT_NE(ins.Get("clusterTime"), nullptr);
  EXPECT_EQ(ins.Get("clusterTime")->type(), ValueType::kTimestamp);
  EXPECT_EQ(ins.Get("clusterTime")->timestamp_value().t,
            absl::ToUnixSeconds(kTestStart));
  ASSERT_NE(ins.Get("wallTime"), nullptr);
  EXPECT_EQ(ins.Get("wallTime")->date_millis(), absl::ToUnixMillis(kTestStart));
  // The field order of change_stream_event_transform.cpp.
  std::vector<std::string> names;
  for (const Field& f : ins.object_fields()) names.push_back(f.first);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "_id", "operationType", "clusterTime", "wallTime",
                       "fullDocument", "ns", "documentKey"}));

  Value upd = NextNow(*s);
  EXPECT_EQ(Op(upd), "update");
  EXPECT_EQ(upd.Get("fullDocument"), nullptr);  // fullDocument: "default"
  EXPECT_EQ(J(upd.Get("updateDescription")),
            R"({"updatedFields":{"a":2,"b.x":3},"removedFields":["y"],)"
            R"("truncatedArrays":[]})");
  Value rep = NextNow(*s);
  EXPECT_EQ(Op(rep), "replace");
  EXPECT_EQ(J(rep.Get("fullDocument")), R"({"_id":1,"z":1})");
  Value del = NextNow(*s);
  EXPECT_EQ(Op(del), "delete");
  EXPECT_EQ(J(del.Get("documentKey")), R"({"_id":1})");
  EXPECT_EQ(del.Get("expired"), nullptr);  // a user's delete
  auto none = s->Next(absl::ZeroDuration());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  // Tokens grow with the events.
  EXPECT_LT(ins.Get("_id")->Get("_data")->string_value(),
            del.Get("_id")->Get("_data")->string_value());
  EXPECT_GE(ToJson(s->ResumeToken()), ToJson(*del.Get("_id")));
}

// A document may repeat a name; $set changes the first such field, and the
// event names only the field that changed (the k-th "t" of the old document
// pairs with the k-th of the new), as the touch text path reports it
// (fuzz/corpus/touch_text/duplicate found the two disagreeing).
TEST_F(ChangeStreamTest, RepeatedNamesPairByOccurrence) {
  auto s = Watch("c");
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "t": "a", "t": 5, "u": 1})").ok());
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})", R"({"$set": {"t": "b"}})").ok());
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})", R"({"$unset": {"u": 1}})").ok());
  EXPECT_EQ(Op(NextNow(*s)), "insert");
  EXPECT_EQ(J(NextNow(*s).Get("updateDescription")),
            R"({"updatedFields":{"t":"b"},"removedFields":[],)"
            R"("truncatedArrays":[]})");
  EXPECT_EQ(J(NextNow(*s).Get("updateDescription")),
            R"({"updatedFields":{},"removedFields":["u"],)"
            R"("truncatedArrays":[]})");
}

// Every acknowledged write has its event after a reopen (the event is in
// the write's own batch), and a stream resumed from a token saved before
// the reopen sees exactly the events after it: none lost, none twice.
TEST_F(ChangeStreamTest, ResumeAfterReopenWithoutLossOrDuplicates) {
  Value start = Watch("c")->ResumeToken();
  Collection* c = &db_->collection("c");
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(c->InsertOne(absl::StrCat(R"({"_id": )", i, "}")).ok());
    if (i % 3 == 0) {
      ASSERT_TRUE(c->UpdateOne(absl::StrCat(R"({"_id": )", i, "}"),
                               R"({"$set": {"u": 1}})")
                      .ok());
    }
  }
  // Read the first 150 events, keep the token, reopen.
  Value middle;
  {
    ChangeStreamOptions o;
    o.resume_after = start;
    auto s = Watch("c", o);
    for (int i = 0; i < 150; ++i) NextNow(*s);
    middle = s->ResumeToken();
  }
  Open();
  c = &db_->collection("c");
  for (int i = 300; i < 310; ++i) {
    ASSERT_TRUE(c->InsertOne(absl::StrCat(R"({"_id": )", i, "}")).ok());
  }
  // From the start: all 300 inserts, 100 updates, 10 inserts, in order.
  {
    ChangeStreamOptions o;
    o.resume_after = start;
    auto s = Watch("c", o);
    int inserts = 0, updates = 0;
    int64_t next_insert = 0;
    while (true) {
      auto e = s->Next(absl::ZeroDuration());
      ASSERT_TRUE(e.ok()) << e.status();
      if (!e->has_value()) break;
      const int64_t id = (*e)->Get("documentKey")->Get("_id")->AsDouble();
      if (Op(**e) == "insert") {
        EXPECT_EQ(id, next_insert++);
        ++inserts;
      } else {
        EXPECT_EQ(Op(**e), "update");
        EXPECT_EQ(id % 3, 0);
        ++updates;
      }
    }
    EXPECT_EQ(inserts, 310);
    EXPECT_EQ(updates, 100);
  }
  // From the middle: the other 260, the first of them right after the
  // 150th.
  ChangeStreamOptions o;
  o.resume_after = middle;
  auto s = Watch("c", o);
  int n = 0;
  while (true) {
    auto e = s->Next(absl::ZeroDuration());
    ASSERT_TRUE(e.ok()) << e.status();
    if (!e->has_value()) break;
    ++n;
  }
  EXPECT_EQ(n, 410 - 150);
}

TEST_F(ChangeStreamTest, StartAtOperationTimeAndDatabaseStream) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1})").ok());
  clock_.Advance(absl::Seconds(10));
  ASSERT_TRUE(db_->collection("d").InsertOne(R"({"_id": 2})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 3})").ok());
  ChangeStreamOptions o;
  o.start_at_operation_time = Timestamp{
      static_cast<uint32_t>(absl::ToUnixSeconds(clock_.WallNow())), 0};
  auto s = db_->Watch(o);
  ASSERT_TRUE(s.ok()) << s.status();
  Value first = NextNow(**s);
  EXPECT_EQ(J(first.Get("ns")), R"({"db":"test","coll":"d"})");
  Value second = NextNow(**s);
  EXPECT_EQ(J(second.Get("documentKey")), R"({"_id":3})");
}

TEST_F(ChangeStreamTest, PipelineAndUpdateLookup) {
  ChangeStreamOptions o;
  o.full_document = "updateLookup";
  o.pipeline = *ParseValue(
      R"([{"$match": {"operationType": "update"}},
          {"$project": {"fullDocument": 1, "operationType": 1}}])");
  auto s = Watch("c", o);
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "n": 0})").ok());
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})", R"({"$inc": {"n": 1}})").ok());
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})", R"({"$inc": {"n": 1}})").ok());
  Value e = NextNow(*s);
  EXPECT_EQ(Op(e), "update");
  // updateLookup reads the document as it is now (both updates done).
  EXPECT_EQ(J(e.Get("fullDocument")), R"({"_id":1,"n":2})");
  EXPECT_EQ(e.Get("ns"), nullptr);  // projected away
  // A pipeline that drops _id makes the stream unresumable: 280.
  ChangeStreamOptions bad;
  bad.pipeline = *ParseValue(R"([{"$project": {"_id": 0}}])");
  auto b = Watch("c", bad);
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2})").ok());
  auto r = b->Next(absl::ZeroDuration());
  EXPECT_EQ(ErrorCode(r.status()), 280) << r.status();
  // Stages that are not per event are refused.
  ChangeStreamOptions group;
  group.pipeline = *ParseValue(R"([{"$group": {"_id": null}}])");
  EXPECT_EQ(ErrorCode(db_->collection("c").Watch(group).status()),
            kIllegalOperation);
}

// A TTL deletion is a delete event that says so (expired: true), and with
// changeStreamPreAndPostImages it carries the expired document, so a
// watcher can remove what the document pointed at.
TEST_F(ChangeStreamTest, TtlExpiryIsADeleteEventWithMarkerAndPreImage) {
  ValidationOptions images;
  images.change_stream_pre_and_post_images = true;
  ASSERT_TRUE(db_->CreateCollection("files", images).ok());
  Collection& files = db_->collection("files");
  ASSERT_TRUE(
      files.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  Collection& plain = db_->collection("plain");
  ASSERT_TRUE(
      plain.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ChangeStreamOptions o;
  o.full_document_before_change = "whenAvailable";
  auto s = Watch("files", o);
  auto p = Watch("plain", o);
  const std::string doc =
      absl::StrCat(R"({"_id": "f1", "path": "/var/cache/f1.bin", "at": )",
                   DateJson(clock_.WallNow()), "}");
  ASSERT_TRUE(files.InsertOne(doc).ok());
  ASSERT_TRUE(plain.InsertOne(doc).ok());
  EXPECT_EQ(Op(NextNow(*s)), "insert");
  EXPECT_EQ(Op(NextNow(*p)), "insert");

  clock_.Advance(absl::Minutes(2));
  TtlPassStats pass = DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(pass.deleted_documents, 2);

  Value del = NextNow(*s);
  EXPECT_EQ(Op(del), "delete");
  EXPECT_EQ(J(del.Get("expired")), "true");
  EXPECT_EQ(J(del.Get("documentKey")), R"({"_id":"f1"})");
  ASSERT_NE(del.Get("fullDocumentBeforeChange"), nullptr);
  EXPECT_EQ(J(del.Get("fullDocumentBeforeChange")->Get("path")),
            R"("/var/cache/f1.bin")");
  // Without pre-images (the siblings fast path, no document read): the
  // marker and the key, the pre-image null.
  Value pdel = NextNow(*p);
  EXPECT_EQ(Op(pdel), "delete");
  EXPECT_EQ(J(pdel.Get("expired")), "true");
  EXPECT_EQ(J(pdel.Get("documentKey")), R"({"_id":"f1"})");
  EXPECT_EQ(J(pdel.Get("fullDocumentBeforeChange")), "null");

  // "required" without a pre-image: 47 NoMatchingDocument.
  ChangeStreamOptions required;
  required.full_document_before_change = "required";
  ChangeStreamOptions start;
  auto r = Watch("plain", required);
  ASSERT_TRUE(plain.InsertOne(R"({"_id": 5})").ok());
  ASSERT_TRUE(plain.DeleteOne(R"({"_id": 5})").ok());
  EXPECT_EQ(Op(NextNow(*r)), "insert");
  EXPECT_EQ(ErrorCode(r->Next(absl::ZeroDuration()).status()),
            kNoMatchingDocument);
}

// A write that collides with a hidden expired document removes it in its
// own batch: that removal is a TTL deletion too.
TEST_F(ChangeStreamTest, HiddenExpiredDocumentEvictedByAWriteIsExpired) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": 1, "at": )",
                                       DateJson(clock_.WallNow()), "}"))
                  .ok());
  auto s = Watch("c");
  clock_.Advance(absl::Minutes(2));
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1})").ok());
  Value del = NextNow(*s);
  EXPECT_EQ(Op(del), "delete");
  EXPECT_EQ(J(del.Get("expired")), "true");
  EXPECT_EQ(Op(NextNow(*s)), "insert");
}

TEST_F(ChangeStreamTest, RetentionTrimsAndAnOlderTokenIsHistoryLost) {
  options_.change_log_retention = absl::Hours(1);
  Open();
  Collection& c = db_->collection("c");
  Value before = Watch("c")->ResumeToken();
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1})").ok());
  auto s = Watch("c", [&] {
    ChangeStreamOptions o;
    o.resume_after = before;
    return o;
  }());
  clock_.Advance(absl::Hours(2));
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2})").ok());
  DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());  // trims
  ChangeStreamOptions o;
  o.resume_after = before;
  EXPECT_EQ(ErrorCode(db_->collection("c").Watch(o).status()),
            kChangeStreamHistoryLost);
  // A stream that had not read the trimmed event fails too.
  EXPECT_EQ(ErrorCode(s->Next(absl::ZeroDuration()).status()),
            kChangeStreamHistoryLost);
  // The newer event is kept, across a reopen too.
  Open();
  o.resume_after.reset();
  o.start_at_operation_time = Timestamp{
      static_cast<uint32_t>(absl::ToUnixSeconds(clock_.WallNow())), 0};
  auto fresh = Watch("c", o);
  EXPECT_EQ(J(NextNow(*fresh).Get("documentKey")), R"({"_id":2})");

  // By size: a bound of 1 byte keeps nothing after a pass.
  options_.change_log_max_bytes = 1;
  Open();
  DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());
  EXPECT_EQ(ErrorCode(db_->collection("c").Watch(o).status()),
            kChangeStreamHistoryLost);
}

// Under a write load the log never grows past its size bound by more than
// what is written between two retention runs (after each TTL pass).
TEST_F(ChangeStreamTest, TheLogStaysWithinItsBoundUnderAWriteLoad) {
  options_.change_log_max_bytes = 256 << 10;
  Open();
  Collection& c = db_->collection("c");
  const std::string pad(200, 'p');
  auto log_bytes = [&] {
    std::unique_ptr<leveldb::Iterator> it(
        DatabaseInternal::engine(*db_)->db()->NewIterator(
            leveldb::ReadOptions()));
    size_t bytes = 0;
    const std::string prefix = ChangeLogPrefix();
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
         it->Next()) {
      bytes += it->key().size() + it->value().size();
    }
    return bytes;
  };
  size_t written_per_round = 0;
  for (int round = 0; round < 20; ++round) {
    const size_t before = log_bytes();
    for (int i = 0; i < 500; ++i) {
      const int id = round * 500 + i;
      ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", id, R"(, "p": ")",
                                           pad, R"("})"))
                      .ok());
      if (i % 2 == 0) {
        ASSERT_TRUE(c.UpdateOne(absl::StrCat(R"({"_id": )", id, "}"),
                                R"({"$set": {"u": 1}})")
                        .ok());
      }
    }
    written_per_round = std::max(written_per_round, log_bytes() - before);
    DatabaseInternal::RunTtlPass(*db_, clock_.WallNow());  // retention
    EXPECT_LE(log_bytes(), static_cast<size_t>(256 << 10)) << round;
  }
  // The load wrote far more than the bound.
  EXPECT_GT(written_per_round * 20, static_cast<size_t>(4 * (256 << 10)));
  // A stream from the start is history lost; one from now works.
  ChangeStreamOptions o;
  o.start_at_operation_time =
      Timestamp{static_cast<uint32_t>(absl::ToUnixSeconds(kTestStart)), 0};
  auto s = db_->collection("c").Watch(o);
  const absl::Status st =
      s.ok() ? (*s)->Next(absl::ZeroDuration()).status() : s.status();
  EXPECT_EQ(ErrorCode(st), kChangeStreamHistoryLost);
}

// showExpandedEvents (jstests/change_streams/show_expanded_events.js): the
// DDL events create (with nsType), createIndexes and dropIndexes with their
// operationDescription, rename's operationDescription, and
// updateDescription.disambiguatedPaths for a numeric field name below the
// top (change_stream_document_diff_parser.cpp). A stream without the option
// sees none of it.
TEST_F(ChangeStreamTest, ExpandedEventsShowDdlAndDisambiguatedPaths) {
  ChangeStreamOptions expanded_options;
  expanded_options.show_expanded_events = true;
  auto expanded = db_->Watch(expanded_options);
  ASSERT_TRUE(expanded.ok()) << expanded.status();
  auto plain = db_->Watch({});
  ASSERT_TRUE(plain.ok());
  ASSERT_TRUE(db_->CreateCollection("a").ok());
  Collection& a = db_->collection("a");
  ASSERT_TRUE(a.CreateIndex(R"({"x": 1})", "{}").ok());
  ASSERT_TRUE(db_->collection("b").InsertOne(R"({"_id": 1})").ok());
  ASSERT_TRUE(a.DropIndex("x_1").ok());
  ASSERT_TRUE(
      a.InsertOne(R"({"_id": 1, "m": {"0": 1}, "arr": [1, 2], "d.e": 1})")
          .ok());
  ASSERT_TRUE(
      a.UpdateOne(R"({"_id": 1})", R"({"$set": {"m.0": 2, "arr.1": 5}})").ok());
  ASSERT_TRUE(db_->RenameCollection("b", "c", /*drop_target=*/false).ok());

  const std::string id_index = R"({"v":2,"key":{"_id":1},"name":"_id_"})";
  Value create = NextNow(**expanded);
  EXPECT_EQ(Op(create), "create");
  EXPECT_EQ(J(create.Get("ns")), R"({"db":"test","coll":"a"})");
  EXPECT_EQ(J(create.Get("operationDescription")),
            absl::StrCat(R"({"idIndex":)", id_index, "}"));
  EXPECT_EQ(J(create.Get("nsType")), R"("collection")");
  EXPECT_EQ(create.Get("documentKey"), nullptr);
  Value ci = NextNow(**expanded);
  EXPECT_EQ(Op(ci), "createIndexes");
  EXPECT_EQ(J(ci.Get("operationDescription")),
            R"({"indexes":[{"v":2,"key":{"x":1},"name":"x_1"}]})");
  EXPECT_EQ(Op(NextNow(**expanded)), "create");  // b, implicitly
  EXPECT_EQ(Op(NextNow(**expanded)), "insert");
  Value di = NextNow(**expanded);
  EXPECT_EQ(Op(di), "dropIndexes");
  EXPECT_EQ(J(di.Get("operationDescription")),
            R"({"indexes":[{"v":2,"key":{"x":1},"name":"x_1"}]})");
  EXPECT_EQ(Op(NextNow(**expanded)), "insert");
  Value upd = NextNow(**expanded);
  EXPECT_EQ(J(upd.Get("updateDescription")),
            R"({"updatedFields":{"m.0":2,"arr.1":5},"removedFields":[],)"
            R"("truncatedArrays":[],"disambiguatedPaths":{"m.0":["m","0"]}})");
  Value rename = NextNow(**expanded);
  EXPECT_EQ(Op(rename), "rename");
  EXPECT_EQ(J(rename.Get("operationDescription")),
            R"({"to":{"db":"test","coll":"c"}})");

  // Without the option: the inserts, the update (no disambiguatedPaths)
  // and the rename (no operationDescription) only.
  EXPECT_EQ(Op(NextNow(**plain)), "insert");
  EXPECT_EQ(Op(NextNow(**plain)), "insert");
  EXPECT_EQ(J(NextNow(**plain).Get("updateDescription")),
            R"({"updatedFields":{"m.0":2,"arr.1":5},"removedFields":[],)"
            R"("truncatedArrays":[]})");
  Value plain_rename = NextNow(**plain);
  EXPECT_EQ(Op(plain_rename), "rename");
  EXPECT_EQ(plain_rename.Get("operationDescription"), nullptr);
  auto none = (*plain)->Next(absl::ZeroDuration());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

// A path is ambiguous below a numeric or dotted field name, not because of
// an array index alone; removed fields and truncated arrays are listed too.
TEST_F(ChangeStreamTest, DisambiguatedPathsFollowMongoDbsRules) {
  ChangeStreamOptions o;
  o.show_expanded_events = true;
  auto s = Watch("c", o);
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "0": {"1": 1}, "a": [[1, 2], 3],)"
                          R"( "o": {"5": {"x": 1, "y": 1}}})")
                  .ok());
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})",
                          R"({"$set": {"0.1": 2, "a.0": [9], "o.5.x": 2},)"
                          R"( "$unset": {"o.5.y": 1}})")
                  .ok());
  EXPECT_EQ(Op(NextNow(*s)), "create");
  EXPECT_EQ(Op(NextNow(*s)), "insert");
  EXPECT_EQ(J(NextNow(*s).Get("updateDescription")),
            R"({"updatedFields":{"0.1":2,"a.0.0":9,"o.5.x":2},)"
            R"("removedFields":["o.5.y"],)"
            R"("truncatedArrays":[{"field":"a.0","newSize":1}],)"
            R"("disambiguatedPaths":{"0.1":["0","1"],"o.5.x":["o","5","x"],)"
            R"("o.5.y":["o","5","y"]}})");
}

TEST_F(ChangeStreamTest, NextWaitsAndReturnsAsSoonAsAWriteCommits) {
  auto s = Watch("c");
  std::atomic<bool> inserted{false};
  std::thread writer([&] {
    absl::SleepFor(absl::Milliseconds(200));
    inserted = true;
    ASSERT_TRUE(db_->collection("c").InsertOne(R"({"_id": 1})").ok());
  });
  const absl::Time t0 = absl::Now();
  auto e = s->Next(absl::Seconds(30));
  const absl::Duration waited = absl::Now() - t0;
  writer.join();
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_TRUE(e->has_value());
  EXPECT_TRUE(inserted.load());
  EXPECT_LT(waited, absl::Seconds(10));  // woken, not timed out
  // No event: Next returns after its timeout with nothing.
  auto none = s->Next(absl::Milliseconds(50));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST_F(ChangeStreamTest, CloseWakesAWaitingNext) {
  auto s = Watch("c");
  std::thread closer([&] {
    absl::SleepFor(absl::Milliseconds(100));
    ASSERT_TRUE(db_->Close().ok());
  });
  const absl::Time t0 = absl::Now();
  auto e = s->Next(absl::Seconds(30));
  closer.join();
  EXPECT_LT(absl::Now() - t0, absl::Seconds(10));
  EXPECT_FALSE(e.ok());
}

// jstests/change_streams/change_stream_invalidation.js: a collection's
// stream ends with drop (or rename) then invalidate; startAfter the
// invalidate token goes on, resumeAfter it is 260.
TEST_F(ChangeStreamTest, DropAndRenameInvalidateTheCollectionsStream) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1})").ok());
  auto s = Watch("c");
  auto whole = db_->Watch();
  ASSERT_TRUE(whole.ok());
  ASSERT_TRUE(db_->DropCollection("c").ok());
  Value drop = NextNow(*s);
  EXPECT_EQ(Op(drop), "drop");
  EXPECT_EQ(J(drop.Get("ns")), R"({"db":"test","coll":"c"})");
  Value inv = NextNow(*s);
  EXPECT_EQ(Op(inv), "invalidate");
  EXPECT_TRUE(s->Invalidated());
  auto after = s->Next(absl::ZeroDuration());
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(after->has_value());
  // A new collection of the same name: startAfter the invalidate sees it.
  ASSERT_TRUE(db_->collection("c").InsertOne(R"({"_id": 2})").ok());
  ChangeStreamOptions o;
  o.start_after = *inv.Get("_id");
  auto next = Watch("c", o);
  EXPECT_EQ(J(NextNow(*next).Get("documentKey")), R"({"_id":2})");
  ChangeStreamOptions bad;
  bad.resume_after = *inv.Get("_id");
  EXPECT_EQ(ErrorCode(db_->collection("c").Watch(bad).status()),
            kInvalidResumeToken);
  // A rename: its event names the target; the database stream goes on.
  ASSERT_TRUE(db_->RenameCollection("c", "d").ok());
  Value rename = NextNow(*next);
  EXPECT_EQ(Op(rename), "rename");
  EXPECT_EQ(J(rename.Get("to")), R"({"db":"test","coll":"d"})");
  EXPECT_EQ(Op(NextNow(*next)), "invalidate");
  EXPECT_EQ(Op(NextNow(**whole)), "drop");
  EXPECT_EQ(Op(NextNow(**whole)), "insert");
  EXPECT_EQ(Op(NextNow(**whole)), "rename");
  EXPECT_FALSE((*whole)->Invalidated());
}

// Opening a database without its log deletes the log: the events of that
// open are not written, so no token from before may resume across them.
TEST_F(ChangeStreamTest, AnOpenWithoutTheLogMakesOlderTokensHistoryLost) {
  Value token = Watch("c")->ResumeToken();
  ASSERT_TRUE(db_->collection("c").InsertOne(R"({"_id": 1})").ok());
  ChangeStreamOptions o;
  o.resume_after = token;
  ASSERT_TRUE(db_->collection("c").Watch(o).ok());
  // The token of the last event logged before the open without the log.
  ChangeStreamOptions last;
  last.resume_after = *NextNow(*Watch("c", o)).Get("_id");
  options_.change_log = false;
  Open();
  ASSERT_TRUE(db_->collection("c").InsertOne(R"({"_id": 2})").ok());
  options_.change_log = true;
  Open();
  EXPECT_EQ(ErrorCode(db_->collection("c").Watch(o).status()),
            kChangeStreamHistoryLost);
  EXPECT_EQ(ErrorCode(db_->collection("c").Watch(last).status()),
            kChangeStreamHistoryLost);
  // A new stream sees the writes from here on.
  auto s = Watch("c");
  ASSERT_TRUE(db_->collection("c").InsertOne(R"({"_id": 3})").ok());
  EXPECT_EQ(J(NextNow(*s).Get("documentKey")), R"({"_id":3})");
}

TEST_F(ChangeStreamTest, WithoutTheLogWatchingIs40573) {
  // The library's default: no log (a database nobody watches pays nothing).
  options_ = Options();
  Open();
  EXPECT_EQ(ErrorCode(db_->collection("c").Watch().status()), 40573);
  ChangeStreamOptions o;
  o.full_document = "bogus";
  options_.change_log = true;
  Open();
  EXPECT_EQ(ErrorCode(db_->collection("c").Watch(o).status()), kBadValue);
}

}  // namespace
}  // namespace ttldb
