// The real mongosh as ttldb's shell: the open database is served in-process
// over MongoDB's wire protocol (the same server and command layer
// `ttldb serve` runs) on a Unix socket in a fresh private directory (mode
// 0700, no TCP port), and mongosh runs as a child process connected to it.
//
// The child inherits standard input, output and error, so the terminal,
// line editing, history, completion and Ctrl-C are mongosh's: ttldb
// ignores SIGINT and SIGQUIT while the child runs (the terminal sends them
// to both) and forwards SIGTERM and SIGHUP to it. The child's exit status
// becomes the session's (128 + N when a signal N ended it). Afterwards the
// server stops, its commands finish, and the socket and its directory are
// removed; the database stays open for the caller to close.
#ifndef TTLDB_TOOLS_SHELL_MONGOSH_SESSION_H_
#define TTLDB_TOOLS_SHELL_MONGOSH_SESSION_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "commands/command_runner.h"
#include "ttldb/database.h"

namespace ttldb {

struct MongoshSessionOptions {
  // The mongosh to run (tools/shell/find_mongosh.h).
  std::string mongosh;
  // The database mongosh starts in (`db`); every name reaches the one open
  // database (CommandRunner::ForDatabase).
  std::string database_name = "test";
  // mongosh's own options: each --eval, the script files, --quiet, and
  // --json=relaxed (mongosh allows it with --eval only, and says so).
  std::vector<std::string> evals;
  std::vector<std::string> files;
  bool quiet = false;
  bool json = false;
  // The server's command line for getCmdLineOpts.
  std::vector<std::string> argv;
};

// Runs one mongosh session over `db`; returns mongosh's exit status, or an
// error when the server or the child could not be started (nothing has
// run then).
absl::StatusOr<int> RunMongoshSession(Database* db,
                                      const MongoshSessionOptions& options);

// mongosh's connection string for a Unix socket: the path percent-encoded
// as the host (the connection string spec's form), then "/<database>".
std::string UnixSocketUri(const std::string& socket_path,
                          const std::string& database_name);

}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_MONGOSH_SESSION_H_
