// The command layer: MongoDB's database commands ({find: "c", filter: ...},
// {insert: "c", documents: [...]}, {hello: 1}, ...) over ttldb databases.
// The wire-protocol server (server/) and the shell (tools/) both run every
// command through it, so a command cannot behave differently in the two.
//
//   ASSIGN_OR_RETURN(auto runner, CommandRunner::Open("/var/lib/ttldb", {}));
//   auto conn = runner->NewConnection();
//   Value reply = runner->Run(conn.get(), "test", cmd);  // {ok: 1, ...}
//
// Databases: `root` is a directory holding one subdirectory per database
// (root/<name>, a ttldb Database opened on first use and kept open), as
// docs/server.md describes.
//
// Replies have MongoDB's shapes. A failed command replies {ok: 0, errmsg,
// code, codeName} (Run never returns a Status: every failure is a reply);
// write commands report per-document failures in writeErrors as MongoDB
// does.
//
// Thread safety: Run may be called from many threads at once, each with its
// own Connection. A Connection is used by one thread at a time.
#ifndef TTLDB_COMMANDS_COMMAND_RUNNER_H_
#define TTLDB_COMMANDS_COMMAND_RUNNER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "commands/connection.h"
#include "ttldb/database.h"
#include "ttldb/options.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

class Connection;  // one client's state: its cursors, later its user

// The options of a database a server opens: the library's, with the change
// log on (Options::change_log), since the drivers' watch() expects a server
// to answer it (docs/change_streams.md).
inline Options ServedDatabaseOptions() {
  Options o;
  o.change_log = true;
  return o;
}

// Opens the database in directory `path`, as Database::Open does.
using DatabaseOpener = std::function<absl::StatusOr<std::unique_ptr<Database>>(
    absl::string_view path, const Options& options)>;

struct RunnerOptions {
  // Options for every database opened under the root.
  Options database_options = ServedDatabaseOptions();
  // Opens each database under the root. A test opens them over its own
  // LevelDB Env with DatabaseInternal::Open (a full disk:
  // tests/reliability/disk_full_open_test.cc).
  DatabaseOpener open_database = Database::Open;
  // Cursors idle this long are closed (MongoDB's cursorTimeoutMillis).
  int64_t cursor_timeout_millis = 10 * 60 * 1000;
  // Open cursors one connection may hold; beyond it find/aggregate fail.
  int max_cursors_per_connection = 1000;
  // Open cursors on the whole server: with the per-connection bound alone,
  // 1,000 connections could hold a million. Beyond it find/aggregate fail.
  int64_t max_cursors = 100000;
  // Databases that may exist under the root (DatabaseSet::Open); creating
  // one more fails with 264 TooManyFilesOpen. 1,000: about 3,000 threads
  // and 4,000 file descriptors when all are open; raise the descriptor
  // limit (ulimit -n) to match (docs/server.md).
  int max_databases = 1000;
  // MongoDB's allowDiskUseByDefault (query_knobs.idl, true since 6.0): a
  // find or aggregate that does not say allowDiskUse spills its sort or
  // $group past the memory bound rather than failing with 292. Also
  // setParameter / getParameter at run time.
  bool allow_disk_use_by_default = true;
  // "host:port" as serverStatus.host, hostInfo and whatsmyuri report this
  // server ("" : the machine's hostname and 27017).
  std::string host_port;
  // The command line, for getCmdLineOpts ({argv: [...], parsed: {...}}).
  std::vector<std::string> argv;
  // Access control (mongod's --auth / security.authorization): every
  // command but the handshake and authentication ones needs an
  // authenticated user whose roles grant it (commands/authorization.h);
  // else 13 Unauthorized. Users live in <root>/system.users whether or not
  // this is on (a runner over a single database has none).
  bool auth = false;
  // Receives each line of the server's log (MongoDB's structured JSON
  // lines, such as the "Slow query" ones), on the thread that writes it;
  // empty: the lines are only kept for getLog. Must be thread-safe.
  std::function<void(absl::string_view line)> log_sink;
};

class CommandRunner {
 public:
  static absl::StatusOr<std::unique_ptr<CommandRunner>> Open(
      absl::string_view root, const RunnerOptions& options);
  // A runner over one open database that answers to every database name
  // (the in-process shell, whose --db is one database directory): `use x`
  // changes only the name replies show; dropDatabase drops its
  // collections. `db` is not owned and must outlive the runner; Close
  // leaves it open.
  static std::unique_ptr<CommandRunner> ForDatabase(
      Database* db, absl::string_view name, const RunnerOptions& options);
  virtual ~CommandRunner() = default;

  // A new client connection. Destroying it kills its cursors.
  virtual std::unique_ptr<Connection> NewConnection() = 0;

  // Runs `command` (its first field names the command; "$db" and other
  // generic arguments such as lsid/$clusterTime/writeConcern may be
  // present) against database `db`.
  virtual Value Run(Connection* connection, absl::string_view db,
                    const Value& command) = 0;

  // Begins shutdown without waiting: Run fails with ShutdownInProgress (91)
  // from now on, and running commands stop at their next interrupt point
  // (between documents; base/op_deadline.h) with 11600
  // InterruptedAtShutdown, as mongod's shutdown kills running operations.
  // The server calls it before it waits for its connections; Close calls
  // it too.
  virtual void BeginShutdown() {}

  // Closes every database cleanly (interrupts running commands and waits
  // for them). Run fails with ShutdownInProgress (91) afterwards.
  virtual absl::Status Close() = 0;

  // The "host:port" replies name this server by (serverStatus.host,
  // hostInfo, $collStats, $indexStats) from now on: the server calls it
  // once it knows the port it listens on (--port 0 picks one).
  virtual void SetHostPort(absl::string_view host_port) { (void)host_port; }

  // Calls `fn` on every database open now, by name (tests run TTL passes
  // on them with ttldb/testing/ttldb_testing.h's RunTtlPass). `fn` must not run
  // commands on this runner.
  virtual void ForEachOpenDatabase(
      const std::function<void(const std::string& name, Database* db)>& fn) {
    (void)fn;
  }
};

// Every command name the runner answers (aliases such as "ismaster"
// included), sorted: the registry docs/compatibility.md is checked against.
std::vector<std::string> RegisteredCommandNames();

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_COMMAND_RUNNER_H_
