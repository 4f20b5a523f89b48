// The databases of a server: one ttldb Database per MongoDB database name,
// each in its own directory under a root (root/<name>, see docs/server.md),
// opened on first use and kept open until Close or Drop.
//
// A name is a MongoDB database name (NamespaceString::validDBName on
// Linux): 1..63 bytes without '/', '\\', '.', ' ', '"', '$' or NUL, so it
// is always a plain directory name. Names that differ only in case are the
// same database to MongoDB's eyes: creating "Test" when "test" exists fails
// with 13297 DatabaseDifferCase.
//
// Thread-safe. A Database handed out stays usable while its shared_ptr is
// held; Drop waits for those holders to let go before closing and
// deleting it.
#ifndef TTLDB_COMMANDS_DATABASE_SET_H_
#define TTLDB_COMMANDS_DATABASE_SET_H_

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "commands/command_runner.h"
#include "ttldb/database.h"
#include "ttldb/options.h"

namespace ttldb {
namespace commands {

// OK, or 73 InvalidNamespace "Invalid database name: '<name>'".
absl::Status ValidateDatabaseName(absl::string_view name);

class DatabaseSet {
 public:
  // `root` must exist or be creatable. `options` apply to every database
  // opened (create_if_missing is managed here). At most `max_databases`
  // may exist: each open database holds threads (TTL monitor, compactions)
  // and file descriptors, so without a bound any client allowed to insert
  // could exhaust the process's ("Too many open files" at about 5,000).
  // `open_database` opens each (RunnerOptions::open_database).
  static absl::StatusOr<std::unique_ptr<DatabaseSet>> Open(
      absl::string_view root, const Options& options, int max_databases,
      DatabaseOpener open_database);
  // A set over one already open database that answers to every name (the
  // in-process shell: one directory, one database). Not owned: it must
  // outlive the set. Drop and Close leave it open.
  static std::unique_ptr<DatabaseSet> Single(Database* db,
                                             absl::string_view name);
  ~DatabaseSet();

  // The database `name`, or nullptr if it does not exist and `create` is
  // false (a read of a database that does not exist sees it empty).
  // Creating one when max_databases exist fails with 264 TooManyFilesOpen
  // (existing databases always open).
  //
  // A database that cannot be opened for writing for lack of disk space
  // (ENOSPC) is opened read-only: reads work, and a Get with `create` (a
  // write) tries to open it for writing again, failing with 14031
  // OutOfDiskSpace, which says so, while the disk is still full.
  absl::StatusOr<std::shared_ptr<Database>> Get(absl::string_view name,
                                                bool create);

  // The names of the databases on disk, sorted.
  absl::StatusOr<std::vector<std::string>> List();
  // Bytes of the files of database `name` (0 if it does not exist).
  int64_t SizeOnDisk(absl::string_view name);

  // Closes and deletes database `name` (its directory). Returns whether it
  // existed. Crash-atomic: after a crash at any point the database is
  // either whole or gone (see DropDirectory).
  absl::StatusOr<bool> Drop(absl::string_view name);

  // Calls `fn` on every open database.
  void ForEachOpen(
      const std::function<void(const std::string& name, Database* db)>& fn);
  // Changes the options new databases open with (setParameter).
  void UpdateOptions(const std::function<void(Options*)>& update);
  Options options();

  bool single() const { return single_ != nullptr; }

  // Closes every database. Idempotent; Get fails with 91 afterwards.
  absl::Status Close();

 private:
  DatabaseSet(std::string root, Options options, int max_databases,
              DatabaseOpener open_database);
  absl::Status DropDirectory(const std::filesystem::path& dir);
  absl::StatusOr<std::shared_ptr<Database>> ReopenWritable(
      const std::string& key) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status OutOfSpace(const std::string& key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string root_;
  const int max_databases_;
  const DatabaseOpener open_database_;  // empty for Single()
  Database* single_ = nullptr;          // Single(): the one database, not owned
  std::string single_name_;

  absl::Mutex mu_;
  absl::CondVar dropped_;  // signalled when a drop ends
  Options options_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::shared_ptr<Database>> open_ ABSL_GUARDED_BY(mu_);
  std::set<std::string> dropping_ ABSL_GUARDED_BY(mu_);
  // Databases open read-only for lack of space, with the error of the
  // writable open.
  std::map<std::string, std::string> read_only_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_DATABASE_SET_H_
