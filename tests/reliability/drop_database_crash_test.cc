// Issue 28 item 7 (review reliability-3 N10): dropDatabase is crash-atomic.
// drop_database_worker drops database "victim" and kills itself with
// SIGKILL at each of the drop's steps in turn (before the rename of its
// directory, after it, after the sync of the root, after each file
// deleted). After every kill the server reopens: "victim" is either whole
// (every document, validate clean) or gone (not listed, no directory
// left), "other" is untouched, and listDatabases works.
//
// Before the fix (DatabaseSet::Drop called remove_all on the live
// directory) 11 of 45 kills left a database every command, and
// listDatabases for the whole server, failed on.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "commands/command_runner.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

namespace fs = std::filesystem;

constexpr int kCollections = 3;
constexpr int kDocsPerCollection = 1500;

commands::RunnerOptions SmallBuffers() {
  commands::RunnerOptions options;
  options.database_options.ttl_monitor_enabled = false;
  // Small memtables: the victim spreads over many table files, so that
  // the drop has many steps to be killed in.
  options.database_options.write_buffer_bytes = 64 << 10;
  return options;
}

Value RunCommand(commands::CommandRunner* runner, commands::Connection* conn,
                 const std::string& db, const std::string& json) {
  auto cmd = ParseDocument(json);
  EXPECT_TRUE(cmd.ok()) << json;
  return runner->Run(conn, db, *cmd);
}

bool Ok(const Value& reply) {
  const Value* ok = reply.Get("ok");
  return ok != nullptr && ok->AsDouble() == 1;
}

void Fill(const std::string& root) {
  auto runner = commands::CommandRunner::Open(root, SmallBuffers());
  ASSERT_TRUE(runner.ok()) << runner.status();
  auto conn = (*runner)->NewConnection();
  for (int c = 0; c < kCollections; ++c) {
    for (int batch = 0; batch < kDocsPerCollection / 500; ++batch) {
      std::string docs;
      for (int i = 0; i < 500; ++i) {
        absl::StrAppend(&docs, docs.empty() ? "" : ",", R"({"_id": )",
                        batch * 500 + i, R"(, "pad": ")", std::string(100, 'x'),
                        "\"}");
      }
      Value r = RunCommand(runner->get(), conn.get(), "victim",
                           absl::StrCat(R"({"insert": "c)", c,
                                        R"(", "documents": [)", docs, "]}"));
      ASSERT_TRUE(Ok(r)) << ToJson(r);
    }
  }
  ASSERT_TRUE(Ok(RunCommand(runner->get(), conn.get(), "other",
                            R"({"insert": "k", "documents": [{"_id": 1}]})")));
  ASSERT_TRUE((*runner)->Close().ok());
}

// Runs the worker; true when it was killed at `step`, false when the drop
// ended before it.
bool DropKilledAt(const std::string& root, int step) {
  const std::string worker = "tests/reliability/drop_database_worker";
  const std::string step_arg = absl::StrCat(step);
  pid_t pid = fork();
  if (pid == 0) {
    execl(worker.c_str(), worker.c_str(), root.c_str(), step_arg.c_str(),
          static_cast<char*>(nullptr));
    perror("execl drop_database_worker");
    _exit(127);
  }
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, 0), pid);
  if (WIFSIGNALED(status)) {
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
    return true;
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "step " << step;
  return false;
}

int64_t Count(commands::CommandRunner* runner, commands::Connection* conn,
              const std::string& db, const std::string& coll) {
  Value r =
      RunCommand(runner, conn, db, absl::StrCat(R"({"count": ")", coll, "\"}"));
  EXPECT_TRUE(Ok(r)) << ToJson(r);
  return Ok(r) ? static_cast<int64_t>(r.Get("n")->AsDouble()) : -1;
}

TEST(DropDatabaseCrashTest, WholeOrGoneAfterAKillAtEveryStep) {
  TempDir tmp;
  int killed = 0, kept = 0, gone = 0;
  for (int step = 0;; ++step) {
    const std::string root = absl::StrCat(tmp.path(), "/", step);
    Fill(root);
    if (HasFatalFailure()) return;
    const bool was_killed = DropKilledAt(root, step);
    killed += was_killed;

    auto runner = commands::CommandRunner::Open(root, SmallBuffers());
    ASSERT_TRUE(runner.ok()) << "step " << step << ": " << runner.status();
    auto conn = (*runner)->NewConnection();
    Value list = RunCommand(runner->get(), conn.get(), "admin",
                            R"({"listDatabases": 1, "nameOnly": true})");
    ASSERT_TRUE(Ok(list)) << "step " << step << ": " << ToJson(list);
    bool listed_victim = false, listed_other = false;
    for (const Value& d : list.Get("databases")->array_items()) {
      listed_victim |= d.Get("name")->string_value() == "victim";
      listed_other |= d.Get("name")->string_value() == "other";
    }
    EXPECT_TRUE(listed_other) << "step " << step;
    EXPECT_EQ(Count(runner->get(), conn.get(), "other", "k"), 1);
    if (listed_victim) {
      ++kept;
      for (int c = 0; c < kCollections; ++c) {
        const std::string coll = absl::StrCat("c", c);
        EXPECT_EQ(Count(runner->get(), conn.get(), "victim", coll),
                  kDocsPerCollection)
            << "step " << step;
        Value v = RunCommand(runner->get(), conn.get(), "victim",
                             absl::StrCat(R"({"validate": ")", coll, "\"}"));
        EXPECT_TRUE(Ok(v) && v.Get("valid")->bool_value())
            << "step " << step << ": " << ToJson(v);
      }
    } else {
      ++gone;
      EXPECT_EQ(Count(runner->get(), conn.get(), "victim", "c0"), 0);
    }
    ASSERT_TRUE((*runner)->Close().ok());
    // Nothing of the victim is left on disk once it is gone: no directory,
    // no dropped remainder (Open deleted it).
    int entries = 0;
    for (const auto& e : fs::directory_iterator(root)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("victim", 0) == 0) ++entries;
    }
    EXPECT_EQ(entries, listed_victim ? 1 : 0) << "step " << step;
    if (!was_killed) break;
  }
  // Killed before the rename: kept; at every later step: gone. A victim of
  // this size has more than a few files.
  EXPECT_EQ(kept, 1);
  EXPECT_GT(killed, 6);
  EXPECT_EQ(gone,
            killed);  // the kills after the rename, plus the finished drop
}

}  // namespace
}  // namespace ttldb
