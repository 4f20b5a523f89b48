// What every command of one CommandRunner shares: the databases, the
// cursors, the clock, the process's identity and counters. Internal to
// commands/.
#ifndef TTLDB_COMMANDS_SERVER_STATE_H_
#define TTLDB_COMMANDS_SERVER_STATE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/time/time.h"
#include "base/mutex.h"
#include "commands/command_runner.h"
#include "commands/cursor_store.h"
#include "commands/database_set.h"
#include "commands/op_stats.h"
#include "commands/operation_registry.h"
#include "commands/profiler.h"
#include "commands/server_log.h"
#include "commands/user_store.h"
#include "ttldb/clock.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

struct ServerState {
  // Constant after construction.
  RunnerOptions options;
  std::unique_ptr<DatabaseSet> databases;
  std::unique_ptr<CursorStore> cursors;
  // The users (<root>/system.users); null for a single-database runner.
  std::unique_ptr<UserStore> users;
  Clock* clock = nullptr;  // never null
  absl::Time start_wall;
  absl::Time start_steady;
  // hello's topologyVersion.processId: new for each runner.
  ObjectId process_id;
  std::string root;  // the data directory ("" for a single database)

  // The commands running now (currentOp, killOp).
  OperationRegistry operations;
  // Profiling levels, slowms (profile) and the log (getLog).
  Profiler profiler;
  std::unique_ptr<ServerLog> log;  // never null
  // "host:port" as serverStatus, hostInfo, explain and $collStats name
  // this server; set again once the listening port is known
  // (CommandRunner::SetHostPort).
  std::string Host() const {
    MutexLock lock(&host_mu);
    return host;
  }
  mutable Mutex host_mu;
  std::string host ABSL_GUARDED_BY(host_mu);

  // opcounters, opLatencies, latencyStats, activeClients.
  OpStats op_stats;

  // allowDiskUseByDefault (RunnerOptions; setParameter changes it).
  std::atomic<bool> allow_disk_use_by_default{true};

  // Counters (serverStatus.connections).
  std::atomic<int64_t> connections_current{0};
  std::atomic<int64_t> connections_total{0};
  std::atomic<int64_t> next_connection_id{1};
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_SERVER_STATE_H_
