// The crash test's victim: runs a mixed workload against a database with
// synced writes until it is killed, logging each operation's intent before
// and its acknowledgement after (see crash_log.h).
//
//   crash_worker <db_dir> <log_path> <seed>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/database_internal.h"
#include "tests/reliability/crash_log.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

// One year: documents the worker keeps alive never expire during a run.
constexpr int64_t kExpireAfterSeconds = 365 * 24 * 3600;

[[noreturn]] void Die(const absl::Status& s, const char* what) {
  fprintf(stderr, "crash_worker: %s: %s\n", what, s.ToString().c_str());
  _exit(2);
}

std::string DocJson(int64_t id, int64_t v, bool expired) {
  return absl::StrCat(R"({"_id": )", id, R"(, "v": )", v, R"(, "at": )",
                      expired ? R"({"$date": "2000-01-01T00:00:00Z"})"
                              : R"({"$date": "2100-01-01T00:00:00Z"})",
                      R"(, "w": )", v % 7, R"(, "pad": ")",
                      std::string(v % 300, 'p'), R"("})");
}

int Run(const char* dir, const char* log_path, unsigned seed) {
  CrashModel model = ReplayCrashLog(log_path);
  int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) {
    perror("open log");
    return 2;
  }
  Options options;
  options.ttl_monitor_enabled = false;  // passes are explicit operations
  auto db = Database::Open(dir, options);
  if (!db.ok()) Die(db.status(), "open");
  Collection& c = (*db)->collection("c");
  WriteOptions sync;
  sync.sync = true;
  if (model.acked_ops == 0 && !model.in_flight.has_value()) {
    auto r = c.CreateIndex(
        R"({"at": 1})",
        absl::StrCat(R"({"expireAfterSeconds": )", kExpireAfterSeconds, "}"));
    if (!r.ok()) Die(r.status(), "create ttl index");
  }
  // Settle the operation the previous run was killed in: read its outcome
  // from the database and log it as an acknowledged fact, so that the model
  // stays exact.
  if (model.in_flight.has_value()) {
    const CrashOp& f = *model.in_flight;
    std::string fact;
    if (f.op == 'X' || f.op == 'Y') {
      auto indexes = c.ListIndexes();
      if (!indexes.ok()) Die(indexes.status(), "listIndexes");
      bool has_w = false;
      for (const Value& ix : *indexes) {
        has_w = has_w || ix.Get("name")->string_value() == "w_1";
      }
      fact = has_w ? "B X 0 0" : "B Y 0 0";
    } else if (f.op != 'P') {
      auto doc = c.FindById(Value::Int64(f.id));
      if (!doc.ok() && !absl::IsNotFound(doc.status())) {
        Die(doc.status(), "settle read");
      }
      if (!doc.ok()) {
        fact = absl::StrCat("B D ", f.id, " 0");
      } else {
        const int64_t v = static_cast<int64_t>(doc->Get("v")->AsDouble());
        fact = absl::StrCat("B ", f.op == 'E' ? "E " : "I ", f.id, " ", v);
      }
    }
    // The fact and its acknowledgement go in one write: a kill between two
    // appends left the fact as an intent that replaced the op it settles
    // (an update in flight then read as an insert of another value).
    if (!fact.empty()) AppendCrashLog(fd, absl::StrCat(fact, "\nA"));
    model = ReplayCrashLog(log_path);
  }
  std::vector<int64_t> live;  // ids the worker may update, touch or delete
  for (const auto& [id, doc] : model.docs) {
    if (!doc.deleted && !doc.expirable) live.push_back(id);
  }
  std::mt19937 rng(seed);
  int64_t next_id = model.max_id + 1;
  bool index_w = model.index_w;
  for (;;) {
    const int dice = rng() % 100;
    CrashOp op;
    if (live.size() < 5 || dice < 35) {
      op = {dice % 3 == 0 ? 'E' : 'I', next_id++, int64_t(rng() % 1000)};
    } else if (dice < 60) {
      op = {'U', live[rng() % live.size()], int64_t(rng() % 1000)};
    } else if (dice < 70) {
      op = {'T', live[rng() % live.size()], 0};
    } else if (dice < 85) {
      op = {'D', live[rng() % live.size()], 0};
    } else if (dice < 90) {
      op = {index_w ? 'Y' : 'X', 0, 0};
    } else {
      op = {'P', 0, 0};
    }
    AppendCrashLog(
        fd, absl::StrCat("B ", std::string(1, op.op), " ", op.id, " ", op.v));
    absl::Status s;
    const std::string filter = absl::StrCat(R"({"_id": )", op.id, "}");
    switch (op.op) {
      case 'I':
      case 'E':
        s = c.InsertOne(DocJson(op.id, op.v, op.op == 'E'), sync).status();
        if (s.ok() && op.op == 'I') live.push_back(op.id);
        break;
      case 'U': {
        auto r = c.UpdateOne(filter,
                             absl::StrCat(R"({"$set": {"v": )", op.v,
                                          R"(, "w": )", op.v % 7, "}}"),
                             {}, sync);
        s = r.ok() && r->matched_count != 1
                ? absl::InternalError("update matched nothing")
                : r.status();
        break;
      }
      case 'T': {
        auto r = c.Touch(filter, "at", sync);
        s = r.ok() && r->matched_count != 1
                ? absl::InternalError("touch matched nothing")
                : r.status();
        break;
      }
      case 'D': {
        auto r = c.DeleteOne(filter, sync);
        s = r.ok() && *r != 1 ? absl::InternalError("delete found nothing")
                              : r.status();
        if (s.ok()) live.erase(std::find(live.begin(), live.end(), op.id));
        break;
      }
      case 'X':
        s = c.CreateIndex(R"({"w": 1})").status();
        if (s.ok()) index_w = true;
        break;
      case 'Y':
        s = c.DropIndex("w_1");
        if (s.ok()) index_w = false;
        break;
      case 'P': {
        TtlPassStats st = DatabaseInternal::RunTtlPass(**db, absl::Now());
        if (st.failed_batches != 0) s = absl::InternalError("TTL pass failed");
        break;
      }
    }
    if (!s.ok()) Die(s, "operation");
    AppendCrashLog(fd, "A");
  }
}

}  // namespace
}  // namespace ttldb

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: crash_worker <db_dir> <log_path> <seed>\n");
    return 2;
  }
  return ttldb::Run(argv[1], argv[2], static_cast<unsigned>(atoi(argv[3])));
}
