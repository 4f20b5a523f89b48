// Crash safety: crash_worker runs a mixed workload with synced writes and
// is killed with SIGKILL at random moments; after each kill the database is
// reopened and checked against the worker's side log (crash_log.h): every
// acknowledged write is present (or absent, for deletes), the one operation
// in flight is all-or-nothing, the index set is as acknowledged, and
// Validate() is clean.
//
// 60 kill cycles by default (CI); TTLDB_CRASH_CYCLES=<n> for a long run,
// TTLDB_CRASH_SEED=<n> to vary the schedule (see docs/reliability.md).
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/reliability/crash_log.h"
#include "tests/reliability/db_dump.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

int EnvInt(const char* name, int fallback) {
  const char* v = getenv(name);
  return v != nullptr && *v != '\0' ? atoi(v) : fallback;
}

pid_t StartWorker(const std::string& dir, const std::string& log, int seed) {
  const std::string worker = "tests/reliability/crash_worker";
  const std::string seed_arg = absl::StrCat(seed);
  pid_t pid = fork();
  if (pid == 0) {
    execl(worker.c_str(), worker.c_str(), dir.c_str(), log.c_str(),
          seed_arg.c_str(), static_cast<char*>(nullptr));
    perror("execl crash_worker");
    _exit(127);
  }
  return pid;
}

int64_t FileSize(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? st.st_size : 0;
}

// Waits (real time, at most `timeout_ms`) until the side log grows past
// `size`: the worker has acknowledged something in this life. Keeps the
// kills inside the workload however slow the build (sanitizers) or the
// machine is.
void WaitForLogGrowth(const std::string& log, int64_t size, int timeout_ms) {
  for (int waited = 0; waited < timeout_ms && FileSize(log) <= size;
       waited += 2) {
    usleep(2'000);
  }
}

// Checks the database against the model; returns the number of documents.
void CheckAgainstLog(const std::string& dir, const CrashModel& model,
                     int cycle) {
  Options options;
  options.ttl_monitor_enabled = false;
  auto db = Database::Open(dir, options);
  ASSERT_TRUE(db.ok()) << "cycle " << cycle << ": " << db.status();
  Collection& c = (*db)->collection("c");
  const CrashOp* flight =
      model.in_flight.has_value() ? &*model.in_flight : nullptr;
  for (const auto& [id, doc] : model.docs) {
    auto found = c.FindById(Value::Int64(id));
    const bool in_flight = flight != nullptr && flight->id == id;
    if (doc.deleted) {
      EXPECT_TRUE(absl::IsNotFound(found.status()))
          << "cycle " << cycle << ": deleted document " << id << " is back";
      continue;
    }
    if (!found.ok()) {
      ASSERT_TRUE(absl::IsNotFound(found.status())) << found.status();
      EXPECT_TRUE(doc.expirable || (in_flight && flight->op == 'D'))
          << "cycle " << cycle << ": acknowledged document " << id << " lost";
      continue;
    }
    const int64_t v = static_cast<int64_t>(found->Get("v")->AsDouble());
    const bool flight_value = in_flight && flight->op == 'U' && flight->v == v;
    EXPECT_TRUE(v == doc.v || flight_value)
        << "cycle " << cycle << ": document " << id << " has v " << v
        << ", acknowledged " << doc.v;
    // The secondary field follows v in the same write.
    EXPECT_EQ(static_cast<int64_t>(found->Get("w")->AsDouble()), v % 7)
        << ToJson(*found);
  }
  // An insert in flight is all or nothing.
  if (flight != nullptr && (flight->op == 'I' || flight->op == 'E') &&
      model.docs.count(flight->id) == 0) {
    auto found = c.FindById(Value::Int64(flight->id));
    if (found.ok()) {
      EXPECT_EQ(static_cast<int64_t>(found->Get("v")->AsDouble()), flight->v);
    }
  }
  // Nothing beyond the log: no document with an id never logged.
  auto stray =
      c.CountDocuments(absl::StrCat(R"({"_id": {"$gt": )", model.max_id, "}}"));
  ASSERT_TRUE(stray.ok()) << stray.status();
  EXPECT_EQ(*stray, 0) << "cycle " << cycle;
  // The index set is the acknowledged one, unless an index op was in flight.
  if (flight == nullptr || (flight->op != 'X' && flight->op != 'Y')) {
    auto indexes = c.ListIndexes();
    ASSERT_TRUE(indexes.ok()) << indexes.status();
    bool has_w = false;
    for (const Value& ix : *indexes) {
      has_w = has_w || ix.Get("name")->string_value() == "w_1";
    }
    if (model.acked_ops > 0) {
      EXPECT_EQ(has_w, model.index_w) << "cycle " << cycle;
    }
  }
  absl::Status valid = ValidateAll(**db);
  EXPECT_TRUE(valid.ok()) << "cycle " << cycle << ": " << valid;
  ASSERT_TRUE((*db)->Close().ok());
}

TEST(CrashTest, NoAcknowledgedWriteIsLostAcrossKills) {
  const int cycles = EnvInt("TTLDB_CRASH_CYCLES", 60);
  const int seed = EnvInt("TTLDB_CRASH_SEED", 1);
  TempDir tmp;
  const std::string dir = tmp.path() + "/db";
  const std::string log = tmp.path() + "/acks.log";
  std::mt19937 rng(seed);
  int64_t last_acked = -1;
  int progressed = 0;
  int waited_cycles = 0;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    const int64_t log_size = FileSize(log);
    pid_t pid = StartWorker(dir, log, seed * 100003 + cycle);
    ASSERT_GT(pid, 0);
    if (rng() % 5 == 0) {
      // Early: while the worker opens and recovers the database.
      usleep(rng() % 30'000);
    } else {
      // Inside the workload: after its first acknowledgement, then a random
      // further while.
      ++waited_cycles;
      WaitForLogGrowth(log, log_size, 10'000);
      usleep(rng() % 60'000);
    }
    kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "cycle " << cycle << ": the worker exited by itself with status "
        << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    CrashModel model = ReplayCrashLog(log);
    if (model.acked_ops > last_acked) ++progressed;
    last_acked = model.acked_ops;
    CheckAgainstLog(dir, model, cycle);
    if (HasFatalFailure()) return;
  }
  CrashModel model = ReplayCrashLog(log);
  RecordProperty("acked_ops", model.acked_ops);
  RecordProperty("documents", static_cast<int>(model.docs.size()));
  // Most cycles that waited for the workload got work acknowledged.
  EXPECT_GT(progressed, waited_cycles / 2);
}

}  // namespace
}  // namespace ttldb
