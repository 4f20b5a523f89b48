// One test suite, two backends: a fixture whose Database is either the
// embedded engine on a temporary directory or the MongoDB backend
// (//remote) connected to a `ttldb serve` server started by the test: the
// same commands::CommandRunner and server::Server that `ttldb serve` runs
// (tools/serve.cc), in-process on 127.0.0.1 and a port the kernel picks
// (--port 0), over a temporary root. Both run on the same FakeClock with the
// TTL monitor off, so a TTL pass is a deterministic call (TtlPass) on either
// side, never a sleep: on the remote side it runs on the database the
// server opened (CommandRunner::ForEachOpenDatabase). The server runs with
// hide_expired off, as MongoDB behaves. Test-only.
//
// What the two backends do differently, each justified in
// docs/migrating.md section 6 ("Remaining differences"); the shared tests
// compare only what both do alike, and the rest is tested where it lives:
// - Explain, ExplainAggregate, Stats, Validate, IndexStats: the
//   deployment's own documents; api_test compares their common fields
//   (plan stages and index, counts, index names).
// - IndexBuildProgress: the remote backend calls it once, (n, n), after
//   the build; ttldb after each 2,000-document chunk. api_test's
//   collection is one chunk.
// - A write colliding with a hidden expired document: both remove it and
//   succeed (hidden_writes_test), but on the remote backend UpdateMany
//   still fails with 11000 (remote_only_test), and the removal is a plain
//   delete, not a TTL deletion (ttldb's metrics and listener:
//   tests/hidden_writes_test.cc).
// - The extras without a MongoDB counterpart (expiry_listener, in_memory,
//   read_only, ttl_max_deletes_per_second, maxLifetimeSeconds,
//   rejectExpired, Memory, Backup, CollectionScans) are refused by name;
//   network errors and the pool's wait exist only remotely
//   (remote_only_test).
#ifndef TTLDB_TESTS_BACKENDS_BACKEND_FIXTURE_H_
#define TTLDB_TESTS_BACKENDS_BACKEND_FIXTURE_H_

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "commands/command_runner.h"
#include "gtest/gtest.h"
#include "server/server.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/testing/ttldb_testing.h"

namespace ttldb {

enum class Backend { kEmbedded, kRemote };

inline std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kEmbedded ? "Embedded" : "Remote";
}

class BackendTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    Options options;
    options.clock = &clock_;
    options.ttl_monitor_enabled = false;
    AdjustOptions(&options);
    if (GetParam() == Backend::kEmbedded) {
      auto db = Database::Open(absl::StrCat(root_.path(), "/test"), options);
      ASSERT_TRUE(db.ok()) << db.status();
      db_ = std::move(*db);
      return;
    }
    commands::RunnerOptions ro;
    ro.database_options = options;
    // The server shows expired documents until its pass deletes them, as
    // MongoDB does (Options::hide_expired false is MongoDB's exact
    // behaviour), so the remote side's hiding is the backend's own
    // (remote/hidden_filter.h), as it will be on a MongoDB deployment.
    ro.database_options.hide_expired = false;
    // And with a change log, as `ttldb serve` runs (ServedDatabaseOptions)
    // and as a replica set has its oplog: change streams work whatever the
    // service's own Options say.
    ro.database_options.change_log = true;
    auto runner = commands::CommandRunner::Open(root_.path(), ro);
    ASSERT_TRUE(runner.ok()) << runner.status();
    runner_ = std::move(*runner);
    server::ServerOptions so;
    so.bind_ip = "127.0.0.1";
    so.port = 0;
    auto srv = server::Server::Start(runner_.get(), so);
    ASSERT_TRUE(srv.ok()) << srv.status();
    server_ = std::move(*srv);
    // The client side gets the service's options (clock included: it
    // computes the hidden-expired cutoffs), not the server's.
    Options client = options;
    auto db = Database::Open(Uri(), client);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }

  void TearDown() override {
    db_.reset();
    if (server_ != nullptr) server_->Shutdown();
    server_.reset();
    if (runner_ != nullptr) ASSERT_TRUE(runner_->Close().ok());
  }

  // The service's connection string.
  std::string Uri() const {
    return absl::StrCat("mongodb://127.0.0.1:", server_->port(),
                        "/test?serverSelectionTimeoutMS=5000");
  }

  virtual void AdjustOptions(Options* options) {}

  // One complete TTL pass at the clock's time, wherever the data is.
  void TtlPass() {
    if (GetParam() == Backend::kEmbedded) {
      ttldb_testing::RunTtlPass(*db_, clock_.WallNow());
      return;
    }
    runner_->ForEachOpenDatabase([&](const std::string&, Database* db) {
      ttldb_testing::RunTtlPass(*db, clock_.WallNow());
    });
  }

  // Whether Validate() finds `c` consistent (on the remote side, the
  // deployment's validate command).
  bool Valid(Collection& c) {
    auto v = c.Validate();
    EXPECT_TRUE(v.ok()) << v.status();
    if (!v.ok()) return false;
    const Value* valid = v->Get("valid");
    EXPECT_TRUE(valid != nullptr && valid->type() == ValueType::kBool &&
                valid->bool_value());
    return valid != nullptr && valid->type() == ValueType::kBool &&
           valid->bool_value();
  }

  Collection& coll(absl::string_view name = "c") {
    return db_->collection(name);
  }

  TempDir root_;
  FakeClock clock_{kTestStart};
  std::unique_ptr<commands::CommandRunner> runner_;
  std::unique_ptr<server::Server> server_;
  std::unique_ptr<Database> db_;
};

}  // namespace ttldb

#endif  // TTLDB_TESTS_BACKENDS_BACKEND_FIXTURE_H_
