// aggregate with $changeStream and its getMore through the command layer:
// the cursor reply's postBatchResumeToken (cursor_response.idl), the
// awaitData wait of getMore (maxTimeMS) ending as soon as a write commits,
// and the create / collMod option changeStreamPreAndPostImages
// (jstests/change_streams/lookup_pre_image.js, write_pit_preimage.js).
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "commands/command_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace commands {
namespace {

class ChangeStreamCursorTest : public CommandTest {
 protected:
  // Opens a stream on test.c; returns the cursor id.
  int64_t Open(const std::string& spec = "{}") {
    Value r = Run("test", absl::StrCat(R"({"aggregate": "c", "pipeline": )"
                                       R"([{"$changeStream": )",
                                       spec, R"(}], "cursor": {}})"));
    const Value* cursor = r.Get("cursor");
    EXPECT_NE(cursor, nullptr) << ToJson(r);
    if (cursor == nullptr) return 0;
    EXPECT_NE(cursor->Get("postBatchResumeToken"), nullptr);
    return cursor->Get("id")->int64_value();
  }
  Value GetMore(int64_t id, int max_time_ms, Connection* conn = nullptr) {
    return Run("test",
               absl::StrCat(R"({"getMore": {"$numberLong": ")", id,
                            R"("}, "collection": "c", "maxTimeMS": )",
                            max_time_ms, "}"),
               conn);
  }
  static const Value::Array& Batch(const Value& reply) {
    static const Value::Array empty;
    const Value* c = reply.Get("cursor");
    if (c == nullptr || c->Get("nextBatch") == nullptr) return empty;
    return c->Get("nextBatch")->array_items();
  }
};

TEST_F(ChangeStreamCursorTest, GetMoreReturnsEventsAndTheirResumeToken) {
  const int64_t id = Open();
  ASSERT_NE(id, 0);
  ASSERT_TRUE(absl::StrContains(
      RunJson("test",
              R"({"insert": "c", "documents": [{"_id": 1}, {"_id": 2}]})"),
      R"("n":2)"));
  Value r = GetMore(id, 0);
  ASSERT_EQ(Batch(r).size(), 2u) << ToJson(r);
  EXPECT_EQ(ToJson(*Batch(r)[1].Get("_id")),
            ToJson(*r.Get("cursor")->Get("postBatchResumeToken")));
  EXPECT_EQ(r.Get("cursor")->Get("id")->int64_value(), id);  // tailable
  // Nothing new: an empty batch after maxTimeMS, the cursor stays.
  Value empty = GetMore(id, 50);
  EXPECT_TRUE(Batch(empty).empty()) << ToJson(empty);
  EXPECT_EQ(empty.Get("cursor")->Get("id")->int64_value(), id);
  // A stream resumed after the first event gets the second.
  const std::string token = ToJson(*Batch(r)[0].Get("_id"));
  Value resumed =
      Run("test",
          absl::StrCat(R"({"aggregate": "c", "pipeline": [{"$changeStream": )"
                       R"({"resumeAfter": )",
                       token, R"(}}], "cursor": {}})"));
  const Value::Array& first =
      resumed.Get("cursor")->Get("firstBatch")->array_items();
  ASSERT_EQ(first.size(), 1u) << ToJson(resumed);
  EXPECT_EQ(ToJson(*first[0].Get("documentKey")), R"({"_id":2})");
  // killCursors ends it.
  EXPECT_TRUE(absl::StrContains(
      RunJson("test", absl::StrCat(R"({"killCursors": "c", "cursors": [)"
                                   R"({"$numberLong": ")",
                                   id, R"("}]})")),
      "cursorsKilled"));
  EXPECT_TRUE(absl::StrContains(ToJson(GetMore(id, 0)), R"("code":43)"));
}

TEST_F(ChangeStreamCursorTest, AwaitDataGetMoreReturnsAsSoonAsAWriteCommits) {
  const int64_t id = Open();
  std::unique_ptr<Connection> writer_conn = runner_->NewConnection();
  std::thread writer([&] {
    absl::SleepFor(absl::Milliseconds(200));
    Run("test", R"({"insert": "c", "documents": [{"_id": 7}]})",
        writer_conn.get());
  });
  const absl::Time t0 = absl::Now();
  Value r = GetMore(id, 30000);
  const absl::Duration waited = absl::Now() - t0;
  writer.join();
  ASSERT_EQ(Batch(r).size(), 1u) << ToJson(r);
  EXPECT_EQ(ToJson(*Batch(r)[0].Get("documentKey")), R"({"_id":7})");
  EXPECT_LT(waited, absl::Seconds(10));
}

// killCursors from another connection ends a getMore that waits for events
// at once (mongod interrupts it: 237 CursorKilled), not after its maxTimeMS
// (the Node driver's stream.close() sends killCursors while its getMore
// waits).
TEST_F(ChangeStreamCursorTest, KillCursorsEndsAWaitingGetMore) {
  const int64_t id = Open();
  std::unique_ptr<Connection> killer = runner_->NewConnection();
  std::string killed;
  std::thread kill([&] {
    absl::SleepFor(absl::Milliseconds(200));
    killed = RunJson("test",
                     absl::StrCat(R"({"killCursors": "c", "cursors": [)"
                                  R"({"$numberLong": ")",
                                  id, R"("}]})"),
                     killer.get());
  });
  const absl::Time t0 = absl::Now();
  Value r = GetMore(id, 60000);
  const absl::Duration waited = absl::Now() - t0;
  kill.join();
  EXPECT_TRUE(absl::StrContains(killed, "cursorsKilled")) << killed;
  EXPECT_TRUE(absl::StrContains(ToJson(r), R"("code":237)")) << ToJson(r);
  EXPECT_LT(waited, absl::Seconds(20));  // not the 60 s maxTimeMS
  // The cursor is gone.
  EXPECT_TRUE(absl::StrContains(ToJson(GetMore(id, 0)), R"("code":43)"));
}

TEST_F(ChangeStreamCursorTest, PreAndPostImagesOption) {
  EXPECT_EQ(RunJson("test", R"({"create": "c", "changeStreamPreAndPostImages":)"
                            R"( {"enabled": true}})"),
            R"({"ok":1.0})");
  EXPECT_TRUE(absl::StrContains(
      RunJson("test", R"({"listCollections": 1})"),
      R"("options":{"changeStreamPreAndPostImages":{"enabled":true}})"));
  const int64_t id = Open(R"({"fullDocumentBeforeChange": "required",)"
                          R"( "fullDocument": "required"})");
  Run("test", R"({"insert": "c", "documents": [{"_id": 1, "v": 1}]})");
  Run("test", R"({"update": "c", "updates": [{"q": {"_id": 1},)"
              R"( "u": {"$set": {"v": 2}}}]})");
  Value r = GetMore(id, 0);
  ASSERT_EQ(Batch(r).size(), 2u) << ToJson(r);
  const Value& upd = Batch(r)[1];
  EXPECT_EQ(ToJson(*upd.Get("fullDocument")), R"({"_id":1,"v":2})");
  EXPECT_EQ(ToJson(*upd.Get("fullDocumentBeforeChange")), R"({"_id":1,"v":1})");
  // collMod turns it off: later events have no pre-image.
  EXPECT_EQ(
      RunJson("test", R"({"collMod": "c", "changeStreamPreAndPostImages":)"
                      R"( {"enabled": false}})"),
      R"({"ok":1.0})");
  EXPECT_TRUE(absl::StrContains(RunJson("test", R"({"listCollections": 1})"),
                                R"("options":{})"));
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
