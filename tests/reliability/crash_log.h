// The side log of the crash test: the worker (crash_worker.cc) appends an
// intent line before each operation and an ack line after it succeeds,
// fsyncing each; the driver (crash_test.cc) replays it into the model of
// what the database must hold. At most one operation (the last intent
// without an ack) was in flight when the worker was killed.
//
// Grammar, one record per line:
//   B <op> <id> <v>   intent; op is I (insert, never expires), E (insert,
//                     already expired), U (set v), T (touch), D (delete),
//                     X (create index w_1), Y (drop index w_1), P (TTL pass)
//   A                 the preceding intent was acknowledged
#ifndef TTLDB_TESTS_RELIABILITY_CRASH_LOG_H_
#define TTLDB_TESTS_RELIABILITY_CRASH_LOG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace ttldb {

struct CrashOp {
  char op = 0;
  int64_t id = 0;
  int64_t v = 0;
};

struct CrashDoc {
  int64_t v = 0;
  bool expirable = false;  // may be gone (TTL) or hidden at any time
  bool deleted = false;
};

struct CrashModel {
  std::map<int64_t, CrashDoc> docs;
  bool index_w = false;  // index w_1 exists
  int64_t max_id = 0;
  int64_t acked_ops = 0;
  std::optional<CrashOp> in_flight;  // intent without ack

  void Apply(const CrashOp& op);
};

// Replays the log at `path` (missing: empty model).
CrashModel ReplayCrashLog(const std::string& path);

// Appends one line to the log and fsyncs it. Aborts the process on error.
void AppendCrashLog(int fd, const std::string& line);

}  // namespace ttldb

#endif  // TTLDB_TESTS_RELIABILITY_CRASH_LOG_H_
