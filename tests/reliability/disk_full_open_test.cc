// Issue 28 item 8 (review reliability-3 L6): a server restarted while the
// disk is full could not even read the affected database ("cannot open
// database ...: No space left on device", code 1, for every command).
// Now the database opens read-only when the writable open fails for lack
// of space: reads work, writes fail with 14031 OutOfDiskSpace saying why,
// and once space is back the next write opens it writable again, without
// a restart. The full disk is FaultEnv's kDiskFull (every append, flush
// and sync fails with "No space left on device"), as in fault_test.cc.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "commands/command_runner.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "tests/reliability/fault_env.h"
#include "tests/test_util.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class DiskFullOpenTest : public ::testing::Test {
 protected:
  void Open() {
    commands::RunnerOptions options;
    options.database_options.ttl_monitor_enabled = false;
    options.open_database = [this](absl::string_view path,
                                   const Options& database_options) {
      TestingOptions testing;
      testing.env = &env_;
      return DatabaseInternal::Open(path, database_options, testing);
    };
    auto r = commands::CommandRunner::Open(tmp_.path(), options);
    ASSERT_TRUE(r.ok()) << r.status();
    runner_ = *std::move(r);
    conn_ = runner_->NewConnection();
  }
  void Close() {
    conn_.reset();
    if (runner_ != nullptr) EXPECT_TRUE(runner_->Close().ok());
    runner_.reset();
  }
  ~DiskFullOpenTest() override { Close(); }

  Value Run(const std::string& db, const std::string& json) {
    auto cmd = ParseDocument(json);
    EXPECT_TRUE(cmd.ok()) << json;
    return runner_->Run(conn_.get(), db, *cmd);
  }
  std::string RunJson(const std::string& db, const std::string& json) {
    return ToJson(Run(db, json));
  }

  TempDir tmp_;
  FaultEnv env_;
  std::unique_ptr<commands::CommandRunner> runner_;
  std::unique_ptr<commands::Connection> conn_;
};

TEST_F(DiskFullOpenTest, OpensReadOnlyThenWritableOnceSpaceIsBack) {
  Open();
  ASSERT_EQ(RunJson("d", R"({"insert": "c", "documents": [{"_id": 1}]})"),
            R"({"n":1,"ok":1.0})");
  Close();

  env_.Inject(FaultKind::kDiskFull);
  Open();
  // Reads work.
  EXPECT_EQ(RunJson("d", R"({"find": "c"})"),
            R"({"cursor":{"firstBatch":[{"_id":1}],"id":0,"ns":"d.c"},)"
            R"("ok":1.0})");
  EXPECT_EQ(RunJson("admin", R"({"listDatabases": 1, "nameOnly": true})"),
            R"({"databases":[{"name":"d"}],"ok":1.0})");
  // Writes say why they fail, and change nothing.
  Value refused = Run("d", R"({"insert": "c", "documents": [{"_id": 2}]})");
  EXPECT_EQ(refused.Get("code")->AsDouble(), 14031) << ToJson(refused);
  EXPECT_EQ(refused.Get("codeName")->string_value(), "OutOfDiskSpace");
  const std::string msg = refused.Get("errmsg")->string_value();
  EXPECT_NE(msg.find("database 'd' is open read-only"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("No space left on device"), std::string::npos) << msg;
  EXPECT_EQ(RunJson("d", R"({"count": "c"})"), R"({"n":1,"ok":1.0})");

  // Space is back: the next write succeeds, without a restart.
  env_.ClearAll();
  EXPECT_EQ(RunJson("d", R"({"insert": "c", "documents": [{"_id": 2}]})"),
            R"({"n":1,"ok":1.0})");
  EXPECT_EQ(RunJson("d", R"({"count": "c"})"), R"({"n":2,"ok":1.0})");
  Close();
  Open();
  EXPECT_EQ(RunJson("d", R"({"count": "c"})"), R"({"n":2,"ok":1.0})");
}

}  // namespace
}  // namespace ttldb
