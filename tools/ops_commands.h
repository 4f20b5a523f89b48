// `ttldb repair` and `ttldb backup`: the operations commands.
//
//   ttldb repair --db DIR [--quiet]
//   ttldb backup --db DIR --out DEST [--quiet]
//   ttldb backup --host HOST[:PORT] --out DEST [--quiet]
//
// repair runs RepairDatabase (ttldb/repair.h) on the closed database in
// DIR and prints its report; the exit status is 0 when every collection
// validates afterwards, 1 otherwise or on error.
//
// backup opens DIR read_only (nothing in DIR is written) and writes a
// consistent copy into DEST (Database::Backup), a new or empty directory.
// A directory a running server holds cannot be opened: `--host` asks the
// server to make the backup itself with the admin command
// {createBackup: 1, backupDir: DEST} (DEST made absolute; on the server's
// machine; docs/operations.md).
#ifndef TTLDB_TOOLS_OPS_COMMANDS_H_
#define TTLDB_TOOLS_OPS_COMMANDS_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace ttldb {

// True for "repair" and "backup".
bool IsOpsCommand(const std::string& name);

// Runs `command` with its arguments (after the command word); prints to
// `out` and `err`. Returns the exit status (2 for a usage error).
int RunOpsCommand(const std::string& command,
                  const std::vector<std::string>& args, std::ostream& out,
                  std::ostream& err);

}  // namespace ttldb

#endif  // TTLDB_TOOLS_OPS_COMMANDS_H_
