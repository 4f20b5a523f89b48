// Collection::Watch and Database::Watch on both backends
// (backend_fixture.h): the events of inserts, updates, deletes and TTL
// deletions in commit order, a pipeline over them, and resuming after a
// token. On the remote backend, libmongoc's change stream on the
// deployment's $changeStream (remote/mongo_change_stream.h).
#include "ttldb/change_stream.h"

#include <optional>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/backends/backend_fixture.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// 10 s: far more than an event already committed takes to arrive.
constexpr absl::Duration kWait = absl::Seconds(10);

class ChangeStreamTest : public BackendTest {
 protected:
  // The embedded engine's change log is off by default (Options::
  // change_log); the remote side's server has one (backend_fixture.h).
  void AdjustOptions(Options* options) override { options->change_log = true; }
  // The next event, or an empty object when none came within kWait.
  Value NextEvent(ChangeStream& stream) {
    absl::StatusOr<std::optional<Value>> e = stream.Next(kWait);
    EXPECT_TRUE(e.ok()) << e.status();
    if (!e.ok() || !e->has_value()) {
      ADD_FAILURE() << "no event";
      return Value::MakeObject();
    }
    return **e;
  }
  static std::string Get(const Value& event, absl::string_view field) {
    const Value* v = event.Get(field);
    return v != nullptr ? ToJson(*v) : "absent";
  }
};

TEST_P(ChangeStreamTest, EventsInCommitOrderAndResume) {
  ASSERT_TRUE(db_->CreateCollection("c").ok());
  auto stream = coll().Watch();
  ASSERT_TRUE(stream.ok()) << stream.status();
  ASSERT_TRUE(coll().InsertOne(R"({"_id": 1, "a": 1})").ok());
  ASSERT_TRUE(coll().UpdateOne(R"({"_id": 1})", R"({"$set": {"a": 2}})").ok());
  ASSERT_TRUE(coll().DeleteOne(R"({"_id": 1})").ok());

  Value insert = NextEvent(**stream);
  EXPECT_EQ(Get(insert, "operationType"), R"("insert")");
  EXPECT_EQ(Get(insert, "fullDocument"), R"({"_id":1,"a":1})");
  EXPECT_EQ(Get(insert, "documentKey"), R"({"_id":1})");
  EXPECT_EQ(Get(insert, "ns"), R"({"db":"test","coll":"c"})");
  Value update = NextEvent(**stream);
  EXPECT_EQ(Get(update, "operationType"), R"("update")");
  const Value* desc = update.Get("updateDescription");
  ASSERT_NE(desc, nullptr) << ToJson(update);
  EXPECT_EQ(Get(*desc, "updatedFields"), R"({"a":2})");
  Value del = NextEvent(**stream);
  EXPECT_EQ(Get(del, "operationType"), R"("delete")");
  EXPECT_EQ(Get(del, "documentKey"), R"({"_id":1})");
  auto none = (*stream)->Next(absl::Milliseconds(50));
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value());
  EXPECT_FALSE((*stream)->Invalidated());

  // After the insert's token: the update comes next.
  ChangeStreamOptions after_insert;
  after_insert.resume_after = *insert.Get("_id");
  auto resumed = coll().Watch(after_insert);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_EQ(Get(NextEvent(**resumed), "operationType"), R"("update")");
  // After everything the first stream saw: nothing.
  ChangeStreamOptions after_all;
  after_all.resume_after = (*stream)->ResumeToken();
  auto caught_up = coll().Watch(after_all);
  ASSERT_TRUE(caught_up.ok()) << caught_up.status();
  none = (*caught_up)->Next(absl::Milliseconds(50));
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value());
}

TEST_P(ChangeStreamTest, PipelineAndDatabaseStream) {
  ChangeStreamOptions deletes;
  deletes.pipeline =
      *ParseValue(R"([{"$match": {"operationType": "delete"}}])");
  auto only_deletes = coll().Watch(deletes);
  ASSERT_TRUE(only_deletes.ok()) << only_deletes.status();
  auto everything = db_->Watch();
  ASSERT_TRUE(everything.ok()) << everything.status();
  ASSERT_TRUE(coll().InsertOne(R"({"_id": 1})").ok());
  ASSERT_TRUE(db_->collection("other").InsertOne(R"({"_id": 2})").ok());
  ASSERT_TRUE(coll().DeleteOne(R"({"_id": 1})").ok());
  EXPECT_EQ(Get(NextEvent(**only_deletes), "documentKey"), R"({"_id":1})");
  EXPECT_EQ(Get(NextEvent(**everything), "ns"), R"({"db":"test","coll":"c"})");
  EXPECT_EQ(Get(NextEvent(**everything), "ns"),
            R"({"db":"test","coll":"other"})");
  EXPECT_EQ(Get(NextEvent(**everything), "operationType"), R"("delete")");
}

// A TTL deletion is a delete event. (ttldb's events add expired: true;
// MongoDB's do not mark them: docs/migrating.md section 6. Against
// `ttldb serve` the server's are ttldb's.)
TEST_P(ChangeStreamTest, ATtlDeletionIsADeleteEvent) {
  ASSERT_TRUE(
      coll().CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(coll()
                  .InsertOne(absl::StrCat(
                      R"({"_id": 1, "at": )",
                      DateJson(clock_.WallNow() - absl::Seconds(120)), "}"))
                  .ok());
  auto stream = coll().Watch();
  ASSERT_TRUE(stream.ok()) << stream.status();
  TtlPass();
  Value del = NextEvent(**stream);
  EXPECT_EQ(Get(del, "operationType"), R"("delete")");
  EXPECT_EQ(Get(del, "documentKey"), R"({"_id":1})");
}

TEST_P(ChangeStreamTest, BadOptionsFailAtWatch) {
  ChangeStreamOptions bad;
  bad.pipeline = *ParseValue(R"([{"$group": {"_id": null}}])");
  auto s = coll().Watch(bad);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(s.status())) << s.status();
}

// Database::Close wakes a Next that waits: it fails with
// FailedPrecondition (on the remote backend within one getMore's wait).
TEST_P(ChangeStreamTest, CloseEndsAWaitingNext) {
  auto stream = coll().Watch();
  ASSERT_TRUE(stream.ok()) << stream.status();
  std::thread closer([this] {
    absl::SleepFor(absl::Milliseconds(100));
    EXPECT_TRUE(db_->Close().ok());
  });
  const absl::Time start = absl::Now();
  auto e = (*stream)->Next(absl::Seconds(30));
  closer.join();
  EXPECT_TRUE(absl::IsFailedPrecondition(e.status())) << e.status();
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
}

// Interrupt (thread-safe) ends a waiting Next with no event (on the
// remote backend after its getMore, within 200 ms).
TEST_P(ChangeStreamTest, InterruptEndsAWaitingNext) {
  auto stream = coll().Watch();
  ASSERT_TRUE(stream.ok()) << stream.status();
  ChangeStream* s = stream->get();
  std::thread interrupter([s] {
    absl::SleepFor(absl::Milliseconds(100));
    s->Interrupt();
  });
  const absl::Time start = absl::Now();
  auto e = s->Next(absl::Seconds(30));
  interrupter.join();
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_FALSE(e->has_value());
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  EXPECT_TRUE(s->Interrupted());
  // What is committed still comes.
  ASSERT_TRUE(coll().InsertOne(R"({"_id": 1})").ok());
  std::optional<Value> event;
  for (int i = 0; i < 50 && !event.has_value(); ++i) {
    auto n = s->Next(absl::Milliseconds(100));
    ASSERT_TRUE(n.ok()) << n.status();
    event = *n;
  }
  ASSERT_TRUE(event.has_value());
  EXPECT_EQ(Get(*event, "operationType"), R"("insert")");
}

INSTANTIATE_TEST_SUITE_P(Backends, ChangeStreamTest,
                         ::testing::Values(Backend::kEmbedded,
                                           Backend::kRemote),
                         BackendName);

}  // namespace
}  // namespace ttldb
