// A CommandRunner over a temporary root with a fake clock, and helpers to
// run commands written as Extended JSON and compare replies as JSON.
#ifndef TTLDB_COMMANDS_COMMAND_TEST_UTIL_H_
#define TTLDB_COMMANDS_COMMAND_TEST_UTIL_H_

#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "commands/command_runner.h"
#include "gtest/gtest.h"
#include "ttldb/clock.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {

// Wall time stands still (TTL cutoffs do not move); steady time moves 1 ms
// per read. CallAt runs a function at a given read: an event (a SIGTERM)
// at a known point of a running command, without threads or sleeping.
class TickingClock : public Clock {
 public:
  absl::Time WallNow() override { return absl::FromUnixSeconds(1'800'000'000); }
  absl::Time SteadyNow() override {
    int64_t n = steady_ms_.fetch_add(1) + 1;
    if (n == call_at_ && call_) call_();
    return absl::FromUnixMillis(n);
  }
  int64_t reads() const { return steady_ms_.load(); }
  void CallAt(int64_t read, std::function<void()> f) {
    call_at_ = read;
    call_ = std::move(f);
  }

 private:
  std::atomic<int64_t> steady_ms_{0};
  int64_t call_at_ = -1;
  std::function<void()> call_;
};

class CommandTest : public ::testing::Test {
 protected:
  CommandTest() {
    const char* base = getenv("TEST_TMPDIR");
    std::string tmpl =
        absl::StrCat(base != nullptr ? base : "/tmp", "/ttldb-cmd-XXXXXX");
    char* made = mkdtemp(tmpl.data());
    root_ = made != nullptr ? made : tmpl;
    options_.database_options.clock = &clock_;
    options_.database_options.ttl_monitor_enabled = false;
    options_.host_port = "testhost:27017";
  }
  ~CommandTest() override {
    conn_.reset();
    if (runner_ != nullptr) runner_->Close().IgnoreError();
    runner_.reset();
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  void SetUp() override { Open(); }

  void Open() {
    auto r = CommandRunner::Open(root_, options_);
    ASSERT_TRUE(r.ok()) << r.status();
    runner_ = *std::move(r);
    conn_ = runner_->NewConnection();
  }

  // Runs `json` (an Extended JSON command) against `db`.
  Value Run(const std::string& db, const std::string& json,
            Connection* conn = nullptr) {
    auto cmd = ParseDocument(json);
    EXPECT_TRUE(cmd.ok()) << cmd.status() << " in " << json;
    if (!cmd.ok()) return Value();
    return runner_->Run(conn != nullptr ? conn : conn_.get(), db, *cmd);
  }
  // The reply as storage JSON (int64 as $numberLong, doubles with ".0").
  std::string RunJson(const std::string& db, const std::string& json,
                      Connection* conn = nullptr) {
    return ToJson(Run(db, json, conn), JsonFormat::kStorage);
  }

  FakeClock clock_;
  std::string root_;
  RunnerOptions options_;
  std::unique_ptr<CommandRunner> runner_;
  std::unique_ptr<Connection> conn_;
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_COMMAND_TEST_UTIL_H_
