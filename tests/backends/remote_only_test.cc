// What only the MongoDB backend has: the ttldb extras it refuses (naming
// them), its URI and connection errors, and the mapping of Touch with
// touch_min_interval. Against `ttldb serve` (backend_fixture.h).
#include <string>

#include "absl/strings/match.h"
#include "base/status.h"
#include "document/json.h"
#include "gtest/gtest.h"
#include "tests/backends/backend_fixture.h"

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

INSTANTIATE_TEST_SUITE_P(Remote, RemoteOnlyTest,
                         ::testing::Values(Backend::kRemote), BackendName);

}  // namespace
}  // namespace ttldb
