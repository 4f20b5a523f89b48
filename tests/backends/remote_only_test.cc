// What only the MongoDB backend has: the ttldb extras it refuses (naming
// them), its URI and connection errors, and the mapping of Touch with
// touch_min_interval. Against `ttldb serve` (backend_fixture.h).
#include <string>

#include "absl/strings/match.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/backends/backend_fixture.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class RemoteOnlyTest : public BackendTest {};

TEST_P(RemoteOnlyTest, ExtrasWithoutACounterpartAreRefusedByName) {
  Options listening;
  listening.expiry_listener = [](absl::string_view, const Value&) {};
  auto db = Database::Open(Uri(), listening);
  ASSERT_FALSE(db.ok());
  EXPECT_TRUE(absl::IsUnimplemented(db.status())) << db.status();
  EXPECT_EQ(ErrorCode(db.status()), kCommandNotSupported);
  EXPECT_TRUE(absl::StrContains(db.status().message(), "expiry_listener"));

  Options in_memory;
  in_memory.in_memory = true;
  EXPECT_EQ(ErrorCode(Database::Open(Uri(), in_memory).status()),
            kCommandNotSupported);

  absl::Status s = coll()
                       .CreateIndex(R"({"at": 1})",
                                    R"({"expireAfterSeconds": 60,
                                          "maxLifetimeSeconds": 600})")
                       .status();
  EXPECT_TRUE(absl::IsUnimplemented(s)) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "maxLifetimeSeconds")) << s;
  ASSERT_TRUE(
      coll().CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  s = coll()
          .CollMod(R"({"index": {"name": "at_1", "rejectExpired": true}})")
          .status();
  EXPECT_TRUE(absl::IsUnimplemented(s)) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "rejectExpired")) << s;
  EXPECT_EQ(ErrorCode(db_->Memory().status()), kCommandNotSupported);
  EXPECT_EQ(ErrorCode(coll().CollectionScans().status()), kCommandNotSupported);
}

TEST_P(RemoteOnlyTest, UriAndConnectionErrors) {
  auto bad = Database::Open("mongodb://[::1", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(bad.status())) << bad.status();
  // A port nothing listens on (this server's, once it is shut down).
  const std::string uri =
      absl::StrCat("mongodb://127.0.0.1:", server_->port(),
                   "/test?serverSelectionTimeoutMS=300&connectTimeoutMS=300");
  server_->Shutdown();
  auto down = Database::Open(uri, {});
  ASSERT_FALSE(down.ok());
  EXPECT_TRUE(absl::IsUnavailable(down.status())) << down.status();
  EXPECT_EQ(ErrorCode(down.status()), kHostUnreachable);
}

// The URI's options are libmongoc's: write and read concerns, retryable
// writes and reads, timeouts, the application name, and the pool's size
// and wait. maxPoolSize bounds the calls in flight and the open cursors
// together: with one connection, a cursor not yet exhausted holds it and
// another call fails after waitQueueTimeoutMS (without it, waits).
TEST_P(RemoteOnlyTest, UriOptionsReachTheDriver) {
  auto db = Database::Open(
      absl::StrCat(Uri(),
                   "&maxPoolSize=1&waitQueueTimeoutMS=300&w=1&wtimeoutMS=2000"
                   "&journal=true&readConcernLevel=local&retryWrites=true"
                   "&retryReads=true&socketTimeoutMS=10000&appname=svc"),
      {});
  ASSERT_TRUE(db.ok()) << db.status();
  Collection& c = (*db)->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  WriteOptions sync;
  sync.sync = true;  // the URI's w with j: true
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1})", sync).ok());
  ASSERT_TRUE(c.InsertMany({R"({"_id": 2})", R"({"_id": 3})"}).ok());
  // A bulk write's filters are made before it takes the connection (the
  // hidden-expired filter lists the indexes on a connection of its own;
  // CreateIndex emptied the cache of them).
  auto bulk = c.BulkWrite(*ParseValue(R"([
      {"updateOne": {"filter": {"_id": 1}, "update": {"$set": {"x": 1}}}},
      {"deleteOne": {"filter": {"_id": 9}}}])"),
                          /*ordered=*/true);
  ASSERT_TRUE(bulk.ok()) << bulk.status();
  EXPECT_EQ(bulk->modified_count, 1);
  EXPECT_EQ(*c.CountDocuments(), 3);

  FindOptions one_by_one;
  one_by_one.batch_size = 1;
  auto cursor = c.Find("{}", one_by_one);
  ASSERT_TRUE(cursor.ok()) << cursor.status();
  absl::Status s = c.CountDocuments().status();
  EXPECT_TRUE(absl::IsDeadlineExceeded(s)) << s;
  EXPECT_EQ(ErrorCode(s), kNetworkTimeout) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "waitQueueTimeoutMS")) << s;
  cursor->reset();  // gives the connection back
  EXPECT_EQ(*c.CountDocuments(), 3);
}

TEST_P(RemoteOnlyTest, UriDatabaseWinsOverDbName) {
  Options o;
  o.db_name = "other";
  auto db = Database::Open(Uri(), o);  // .../test
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE((*db)->collection("c").InsertOne(R"({"_id": 1})").ok());
  EXPECT_EQ(*coll().CountDocuments(), 1);
}

// The server (like MongoDB) shows expired documents until its pass; the
// backend hides them with its filters unless hide_expired is off.
TEST_P(RemoteOnlyTest, HideExpiredIsTheBackendsFilter) {
  ASSERT_TRUE(
      coll().CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(coll()
                  .InsertOne(absl::StrCat(
                      R"({"_id": 1, "at": )",
                      DateJson(clock_.WallNow() - absl::Seconds(120)), "}"))
                  .ok());
  EXPECT_EQ(*coll().CountDocuments(), 0);
  Options shown;
  shown.hide_expired = false;
  auto db = Database::Open(Uri(), shown);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ(*(*db)->collection("c").CountDocuments(), 1);
  EXPECT_TRUE((*db)->collection("c").FindById(Value::Int32(1)).ok());
  TtlPass();
  EXPECT_EQ(*(*db)->collection("c").CountDocuments(), 0);
}

// The one write whose collision with a hidden document is not mapped
// (docs/migrating.md section 6): an updateMany may have updated documents
// before it failed, and running it again would apply its update twice, so
// it fails with 11000 as on MongoDB. The embedded engine removes the
// holder (tests/hidden_writes_test.cc).
TEST_P(RemoteOnlyTest, UpdateManyCollidingWithAHiddenDocumentIs11000) {
  ASSERT_TRUE(
      coll().CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(coll().CreateIndex(R"({"u": 1})", R"({"unique": true})").ok());
  ASSERT_TRUE(coll()
                  .InsertOne(absl::StrCat(
                      R"({"_id": 1, "u": "ada", "at": )",
                      DateJson(clock_.WallNow() - absl::Seconds(120)), "}"))
                  .ok());
  ASSERT_TRUE(coll().InsertOne(R"({"_id": 2, "u": "bob"})").ok());
  absl::Status s =
      coll().UpdateMany(R"({"_id": 2})", R"({"$set": {"u": "ada"}})").status();
  EXPECT_EQ(ErrorCode(s), kDuplicateKey) << s;
  // UpdateOne of the same document is mapped.
  EXPECT_TRUE(
      coll().UpdateOne(R"({"_id": 2})", R"({"$set": {"u": "ada"}})").ok());
}

// Every public method hands its call to the backend (a remote handle has
// no engine): each answers, none dereferences the missing engine.
TEST_P(RemoteOnlyTest, EveryMethodReachesTheBackend) {
  Collection& c = coll();
  ASSERT_TRUE(
      c.InsertOne(R"({"_id": 1, "at": {"$date": "2027-01-01T00:00:00Z"}})")
          .ok());
  EXPECT_TRUE(c.Explain("{}").ok());
  EXPECT_TRUE(c.Stats().ok());
  EXPECT_TRUE(c.Validate().ok());
  EXPECT_TRUE(c.IndexStats().ok());
  EXPECT_TRUE(c.Options().ok());
  EXPECT_TRUE(c.ExplainAggregate("[]").ok());
  EXPECT_TRUE(c.Watch().ok());
  EXPECT_TRUE(db_->Watch().ok());
  EXPECT_TRUE(c.FindByIdJson(Value::Int32(1)).ok());
  EXPECT_TRUE(c.EstimatedDocumentCount().ok());
  EXPECT_TRUE(db_->Stats().ok());
  EXPECT_TRUE(db_->SyncLog().ok());
  EXPECT_TRUE(db_->CatalogDamage().empty());
  EXPECT_FALSE(db_->Backup(absl::StrCat(root_.path(), "/copy")).ok());
  EXPECT_FALSE(db_->Memory().ok());
  EXPECT_TRUE(db_->ServerStatus().is_object());
  (void)db_->GetTtlMetrics();
  EXPECT_TRUE(db_->SetTtlMonitorSleep(absl::Seconds(30)).ok());
  EXPECT_EQ(db_->ttl_monitor_sleep(), absl::Seconds(30));
  (void)db_->SetTtlMonitorEnabled(true);
  (void)db_->SetTtlBatchDocsMax(10);
  (void)db_->SetTtlBatchTimeMax(absl::Seconds(1));
  (void)db_->SetTtlBatchDeletes(true);
  (void)db_->SetTtlSubPassTarget(absl::Seconds(1));
  (void)db_->ttl_monitor_enabled();
  (void)db_->ttl_batch_docs_max();
  (void)db_->ttl_batch_time_max();
  (void)db_->ttl_batch_deletes();
  (void)db_->ttl_sub_pass_target();
}

INSTANTIATE_TEST_SUITE_P(Remote, RemoteOnlyTest,
                         ::testing::Values(Backend::kRemote), BackendName);

}  // namespace
}  // namespace ttldb
