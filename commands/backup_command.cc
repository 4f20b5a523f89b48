// createBackup: an online backup of a running server (docs/operations.md).
//
//   {createBackup: 1, backupDir: "/abs/path"}   (admin database only)
//
// The name and shape are Percona Server for MongoDB's hot-backup command;
// MongoDB itself has none (its backups are filesystem snapshots or
// mongodump). Each database is copied from one LevelDB snapshot by
// Database::Backup while writers go on: a server root `R` (R/<db>
// directories) becomes `backupDir/<db>`, which `ttldb serve --db backupDir`
// serves; the in-process shell's single database becomes `backupDir`
// itself, which `ttldb --db backupDir` opens. backupDir is on the server's
// machine, must be absolute, and must not exist or be empty (nothing is
// written otherwise).
#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "ttldb/database.h"

namespace ttldb {
namespace commands {
namespace {

namespace fs = std::filesystem;

absl::StatusOr<Value> CreateBackup(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"backupDir"}));
  const Value* dir = Arg(ctx, "backupDir");
  if (dir == nullptr) return IdlMissingField("createBackup.backupDir");
  if (!dir->is_string()) {
    return IdlWrongType("createBackup.backupDir", *dir, "string");
  }
  const std::string dest = dir->string_value();
  if (!absl::StartsWith(dest, "/")) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidOptions,
        absl::StrCat("backupDir must be an absolute path: '", dest, "'"));
  }
  std::error_code ec;
  if (!ctx.server->root.empty()) {
    // A backup inside the served root would be served as a database, and
    // the next backup would copy it into itself: refused (the paths are
    // compared resolved, so "R/../R/snap" and symbolic links count too).
    const fs::path root = fs::weakly_canonical(ctx.server->root, ec);
    const fs::path to = fs::weakly_canonical(dest, ec);
    const auto [r, t] =
        std::mismatch(root.begin(), root.end(), to.begin(), to.end());
    if (!ec && r == root.end()) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kInvalidOptions,
          absl::StrCat("backupDir must be outside the server's data "
                       "directory '",
                       ctx.server->root, "': '", dest, "'"));
    }
  }
  if (fs::exists(dest, ec) && !fs::is_empty(dest, ec)) {
    return MongoError(absl::StatusCode::kAlreadyExists, kInvalidOptions,
                      absl::StrCat("backupDir is not empty: '", dest, "'"));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> names,
                   ctx.server->databases->List());
  int64_t keys = 0, bytes = 0;
  Value::Array copied;
  for (const std::string& name : names) {
    ASSIGN_OR_RETURN(std::shared_ptr<Database> db,
                     ctx.server->databases->Get(name, /*create=*/false));
    if (db == nullptr) continue;
    const std::string to = ctx.server->databases->single()
                               ? dest
                               : (fs::path(dest) / name).string();
    ASSIGN_OR_RETURN(BackupStats stats, db->Backup(to));
    keys += stats.keys;
    bytes += stats.bytes;
    copied.push_back(Value::String(name));
  }
  return OkReply({{"databases", Value::MakeArray(std::move(copied))},
                  {"keys", Value::Int64(keys)},
                  {"bytes", Value::Int64(bytes)}});
}

}  // namespace

void AddBackupCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"createBackup", CreateBackup, /*admin_only=*/true});
}

}  // namespace commands
}  // namespace ttldb
