// The database profiler and the slow query log (src/mongo/db/profile_
// settings.h, introspect.cpp, curop.cpp CurOp::completeAndLogOperation).
//
// Each database has a profiling level: 0 off, 1 the operations at least
// slowms long (or, with a filter, those it matches), 2 every operation.
// slowms and sampleRate are the server's (the profile command on any
// database changes them for all), and decide the slow query log too:
// every sampled operation of at least slowms ms is logged as "Slow query"
// (COMMAND, id 51803) whatever the level.
//
// Profiled operations go to <db>.system.profile, a 1 MiB capped collection
// created when profiling starts or at the first entry, as mongod's
// (profile_collection.cpp createProfileCollection); a system.profile that
// exists and is not capped is 48 NamespaceExists "<db>.system.profile
// exists but isn't capped", and nothing is profiled into it. Its entries
// carry an ObjectId _id (ttldb's natural order), which MongoDB's do not.
//
// Settings live in memory and start at level 0, slowms 100, sampleRate 1,
// as mongod's (they are not persisted either).
//
// Thread safety: every method may be called from any thread.
#ifndef TTLDB_COMMANDS_PROFILER_H_
#define TTLDB_COMMANDS_PROFILER_H_

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "ttldb/value.h"

namespace ttldb {
class Database;
struct OpCounters;
namespace commands {

struct ServerState;
struct Operation;

// 100 ms: mongod's slowms default (server_options.h).
inline constexpr int64_t kDefaultSlowMs = 100;
// "system.profile": the collection the profiler writes.
inline constexpr char kProfileCollection[] = "system.profile";

struct ProfileSettings {
  int level = 0;
  int64_t slow_ms = kDefaultSlowMs;
  double sample_rate = 1.0;
  Value filter;  // null: none
};

class Profiler {
 public:
  // 1 MiB: the size of the capped system.profile mongod creates.
  static constexpr int64_t kMaxBytes = 1024 * 1024;

  // Creates `db`'s capped system.profile if it does not exist; OK if it
  // exists and is capped, else 48 NamespaceExists (see above).
  static absl::Status EnsureProfileCollection(Database* db,
                                              absl::string_view db_name);

  // `db`'s settings (its level and filter, the server's slowms and
  // sampleRate).
  ProfileSettings Get(absl::string_view db) const;
  // Changes `db`'s settings to `s` (slow_ms and sample_rate for every
  // database) and returns the previous ones.
  ProfileSettings Set(absl::string_view db, const ProfileSettings& s);

  // dropDatabase: `db`'s level and filter go back to the defaults (level
  // 0), as mongod forgets a dropped database's profile settings.
  void Forget(absl::string_view db);

  // After each command: logs it if slow, writes it to <db>.system.profile
  // if profiled. `reply` is the command's reply; `elapsed` its duration.
  void Record(ServerState* server, const Operation& op, const Value& reply,
              absl::Duration elapsed, const OpCounters& counters);

 private:
  static void WriteEntry(Database* db, const std::string& db_name,
                         const Value& entry);

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, int> levels_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, Value> filters_ ABSL_GUARDED_BY(mu_);
  int64_t slow_ms_ ABSL_GUARDED_BY(mu_) = kDefaultSlowMs;
  double sample_rate_ ABSL_GUARDED_BY(mu_) = 1.0;
  // Whether any database has a level or filter: the fast path skips the
  // lock when not and the operation is not slow.
  std::atomic<bool> any_profiled_{false};
  std::atomic<int64_t> slow_ms_fast_{kDefaultSlowMs};
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_PROFILER_H_
