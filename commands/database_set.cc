#include "commands/database_set.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/status.h"
#include "base/sync_point.h"

namespace ttldb {
namespace commands {
namespace {

namespace fs = std::filesystem;

// 64: MongoDB's DatabaseName::kMaxDatabaseNameLength (names are shorter).
constexpr size_t kMaxDatabaseNameLength = 64;

// A dropped database's directory is renamed to "<name><kDroppedSuffix><n>"
// before its files are deleted: the '.' makes it no database name (List
// skips it, Get cannot reach it), and Open deletes what a crash left.
constexpr absl::string_view kDroppedSuffix = ".dropped-";

// fsync of directory `dir`: makes a rename in it durable.
absl::Status SyncDirectory(const fs::path& dir) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || fsync(fd) != 0) {
    const int err = errno;
    if (fd >= 0) close(fd);
    return absl::InternalError(absl::StrCat(
        "cannot sync directory ", dir.string(), ": ", std::strerror(err)));
  }
  close(fd);
  return absl::OkStatus();
}

// Deletes a dropped database's directory file by file, the directory
// last. A crash in between leaves a directory that is still no database
// (its name says dropped) and is deleted at the next Open.
absl::Status Reclaim(const fs::path& trash) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(trash, ec)) {
    files.push_back(entry.path());
  }
  for (const fs::path& f : files) {
    fs::remove_all(f, ec);
    if (ec) break;
    TTLDB_SYNC_POINT("DatabaseSet::Drop:Step");
  }
  if (!ec) fs::remove(trash, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot delete ", trash.string(), ": ", ec.message()));
  }
  return absl::OkStatus();
}

// Whether `s` is a failure for lack of space (ENOSPC).
bool IsNoSpace(const absl::Status& s) {
  return absl::StrContains(s.message(), std::strerror(ENOSPC));
}

absl::Status Shutdown() {
  return MongoError(absl::StatusCode::kUnavailable, kShutdownInProgress,
                    "The server is in quiesce mode and will shut down");
}

}  // namespace

absl::Status ValidateDatabaseName(absl::string_view name) {
  bool ok = !name.empty() && name.size() < kMaxDatabaseNameLength;
  for (char c : name) {
    if (c == '\0' || c == '/' || c == '\\' || c == '.' || c == ' ' ||
        c == '"' || c == '$') {
      ok = false;
    }
  }
  if (ok) return absl::OkStatus();
  return MongoError(absl::StatusCode::kInvalidArgument, kInvalidNamespace,
                    absl::StrCat("Invalid database name: '", name, "'"));
}

DatabaseSet::DatabaseSet(std::string root, Options options, int max_databases,
                         DatabaseOpener open_database)
    : root_(std::move(root)),
      max_databases_(max_databases),
      open_database_(std::move(open_database)),
      options_(std::move(options)) {}

DatabaseSet::~DatabaseSet() { Close().IgnoreError(); }

absl::StatusOr<std::unique_ptr<DatabaseSet>> DatabaseSet::Open(
    absl::string_view root, const Options& options, int max_databases,
    DatabaseOpener open_database) {
  std::error_code ec;
  fs::create_directories(fs::path(std::string(root)), ec);
  if (ec || !fs::is_directory(fs::path(std::string(root)))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot use ", root,
        " as the data directory: ", ec ? ec.message() : "not a directory"));
  }
  // What drops interrupted by a crash left: already no database.
  std::vector<fs::path> trash;
  for (const auto& entry :
       fs::directory_iterator(fs::path(std::string(root)), ec)) {
    if (absl::StrContains(entry.path().filename().string(), kDroppedSuffix)) {
      trash.push_back(entry.path());
    }
  }
  // A remainder that cannot be deleted now is no database either: tried
  // again at the next start.
  for (const fs::path& t : trash) Reclaim(t).IgnoreError();
  return std::unique_ptr<DatabaseSet>(new DatabaseSet(
      std::string(root), options, max_databases, std::move(open_database)));
}

std::unique_ptr<DatabaseSet> DatabaseSet::Single(Database* db,
                                                 absl::string_view name) {
  // The run-time parameters start as the database has them.
  Options o;
  o.ttl_monitor_enabled = db->ttl_monitor_enabled();
  o.ttl_monitor_sleep = db->ttl_monitor_sleep();
  o.ttl_batch_docs_max = db->ttl_batch_docs_max();
  o.ttl_batch_time_max = db->ttl_batch_time_max();
  o.ttl_batch_deletes = db->ttl_batch_deletes();
  o.ttl_sub_pass_target = db->ttl_sub_pass_target();
  std::unique_ptr<DatabaseSet> set(
      new DatabaseSet("", std::move(o), 1, DatabaseOpener()));
  set->single_ = db;
  set->single_name_ = std::string(name);
  return set;
}

absl::StatusOr<std::shared_ptr<Database>> DatabaseSet::Get(
    absl::string_view name, bool create) {
  RETURN_IF_ERROR(ValidateDatabaseName(name));
  if (single_ != nullptr) {
    // Not owned: a shared_ptr that deletes nothing.
    return std::shared_ptr<Database>(single_, [](Database*) {});
  }
  absl::MutexLock lock(&mu_);
  const std::string key(name);
  while (dropping_.count(key) > 0 && !closed_) dropped_.Wait(&mu_);
  if (closed_) return Shutdown();
  auto it = open_.find(key);
  if (it != open_.end()) {
    if (create && read_only_.count(key) > 0) return ReopenWritable(key);
    return it->second;
  }

  const fs::path dir = fs::path(root_) / key;
  std::error_code ec;
  const bool exists = fs::is_directory(dir, ec);
  if (!exists) {
    if (!create) return std::shared_ptr<Database>();
    // MongoDB refuses a second database whose name differs only in case.
    const std::string lower = absl::AsciiStrToLower(key);
    int existing = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(root_), ec)) {
      const std::string other = entry.path().filename().string();
      if (!entry.is_directory()) continue;
      if (ValidateDatabaseName(other).ok()) ++existing;
      if (other != key && absl::AsciiStrToLower(other) == lower) {
        return MongoError(
            absl::StatusCode::kAlreadyExists, kDatabaseDifferCase,
            absl::StrCat("db already exists with different case already "
                         "have: [",
                         other, "] trying to create [", key, "]"));
      }
    }
    if (existing >= max_databases_) {
      return MongoError(
          absl::StatusCode::kResourceExhausted, kTooManyFilesOpen,
          absl::StrCat("cannot create database '", key, "': ", existing,
                       " databases exist, the most this server allows "
                       "(--max-databases ",
                       max_databases_,
                       "); drop one (dropDatabase) or restart with a higher "
                       "--max-databases"));
    }
  }
  Options o = options_;
  o.create_if_missing = true;
  o.error_if_exists = false;
  o.db_name = key;
  absl::StatusOr<std::unique_ptr<Database>> db =
      open_database_(dir.string(), o);
  if (!db.ok() && exists && IsNoSpace(db.status())) {
    // A full disk: LevelDB cannot write its log and MANIFEST, but the
    // data can still be read (Options::read_only writes nothing).
    o.read_only = true;
    absl::StatusOr<std::unique_ptr<Database>> ro =
        open_database_(dir.string(), o);
    if (ro.ok()) {
      read_only_[key] = std::string(db.status().message());
      db = std::move(ro);
    }
  }
  if (!db.ok()) return db.status();
  std::shared_ptr<Database> shared(*std::move(db));
  open_[key] = shared;
  // A write that just found no space: refused without trying again.
  if (create && read_only_.count(key) > 0) return OutOfSpace(key);
  return shared;
}

// A database opened read-only for lack of space, asked for by a write:
// opens it writable again when nothing else holds it (so it can be
// closed) and the disk has room; else the write is refused with 14031
// OutOfDiskSpace, saying why. Space freed makes the next write succeed,
// without a restart.
absl::StatusOr<std::shared_ptr<Database>> DatabaseSet::ReopenWritable(
    const std::string& key) {
  std::shared_ptr<Database>& slot = open_[key];
  if (slot.use_count() == 1) {
    const fs::path dir = fs::path(root_) / key;
    Options o = options_;
    o.create_if_missing = false;
    o.error_if_exists = false;
    o.db_name = key;
    slot->Close().IgnoreError();
    slot.reset();
    absl::StatusOr<std::unique_ptr<Database>> db =
        open_database_(dir.string(), o);
    if (db.ok()) {
      read_only_.erase(key);
      slot = std::shared_ptr<Database>(*std::move(db));
      return slot;
    }
    read_only_[key] = std::string(db.status().message());
    o.read_only = true;
    absl::StatusOr<std::unique_ptr<Database>> ro =
        open_database_(dir.string(), o);
    if (!ro.ok()) {
      open_.erase(key);
      read_only_.erase(key);
      return ro.status();
    }
    slot = std::shared_ptr<Database>(*std::move(ro));
  }
  return OutOfSpace(key);
}

absl::Status DatabaseSet::OutOfSpace(const std::string& key) {
  return MongoError(
      absl::StatusCode::kResourceExhausted, kOutOfDiskSpace,
      absl::StrCat("database '", key,
                   "' is open read-only: opening it for writing failed for "
                   "lack of disk space (",
                   read_only_[key],
                   "); reads work, and writes will again once space is "
                   "freed"));
}

absl::StatusOr<std::vector<std::string>> DatabaseSet::List() {
  if (single_ != nullptr) return std::vector<std::string>{single_name_};
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(root_), ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && ValidateDatabaseName(name).ok()) {
      names.push_back(name);
    }
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot list ", root_, ": ", ec.message()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

int64_t DatabaseSet::SizeOnDisk(absl::string_view name) {
  fs::path dir;
  if (single_ != nullptr) {
    // The shell's database: its engine knows no path; report its files
    // through the Stats of nothing. 0 keeps `show dbs` honest about not
    // knowing.
    return 0;
  }
  dir = fs::path(root_) / std::string(name);
  int64_t total = 0;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    std::error_code size_ec;
    if (entry.is_regular_file(size_ec)) {
      const auto size = entry.file_size(size_ec);
      if (!size_ec) total += static_cast<int64_t>(size);
    }
  }
  return total;
}

absl::StatusOr<bool> DatabaseSet::Drop(absl::string_view name) {
  RETURN_IF_ERROR(ValidateDatabaseName(name));
  if (single_ != nullptr) {
    // One database for every name: dropping it drops its collections.
    ASSIGN_OR_RETURN(std::vector<std::string> colls,
                     single_->ListCollectionNames());
    for (const std::string& c : colls) {
      RETURN_IF_ERROR(single_->DropCollection(c).status());
    }
    // And its views (drop_database.cpp drops them with the collections).
    ASSIGN_OR_RETURN(std::vector<ViewDefinition> views, single_->ListViews());
    for (const ViewDefinition& v : views) {
      RETURN_IF_ERROR(single_->DropCollection(v.name).status());
    }
    return !colls.empty() || !views.empty();
  }
  const std::string key(name);
  std::shared_ptr<Database> db;
  {
    absl::MutexLock lock(&mu_);
    while (dropping_.count(key) > 0 && !closed_) dropped_.Wait(&mu_);
    if (closed_) return Shutdown();
    dropping_.insert(key);
    read_only_.erase(key);
    auto it = open_.find(key);
    if (it != open_.end()) {
      db = std::move(it->second);
      open_.erase(it);
    }
  }
  absl::Status status;
  if (db != nullptr) {
    // Commands and cursors still holding it finish first (the caller has
    // killed its cursors; a getMore in progress ends its batch).
    while (db.use_count() > 1) absl::SleepFor(absl::Milliseconds(1));
    status = db->Close();
    db.reset();
  }
  const fs::path dir = fs::path(root_) / key;
  std::error_code ec;
  const bool existed = fs::is_directory(dir, ec);
  if (status.ok() && existed) status = DropDirectory(dir);
  {
    absl::MutexLock lock(&mu_);
    dropping_.erase(key);
    dropped_.SignalAll();
  }
  if (!status.ok()) return status;
  return existed;
}

// The database is gone in one durable step, the rename of its directory
// to a dropped name (and the fsync of the root that holds it); its files
// are deleted after. A crash before the rename leaves it whole, after it
// gone (MongoDB drops a database through its durable catalog: each
// collection is present or gone, never unreadable).
absl::Status DatabaseSet::DropDirectory(const fs::path& dir) {
  TTLDB_SYNC_POINT("DatabaseSet::Drop:Step");
  static std::atomic<uint64_t> seq{0};
  const fs::path trash =
      fs::path(root_) / absl::StrCat(dir.filename().string(), kDroppedSuffix,
                                     absl::ToUnixMicros(absl::Now()), "-",
                                     seq.fetch_add(1));
  std::error_code ec;
  fs::rename(dir, trash, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot drop ", dir.string(), ": ", ec.message()));
  }
  TTLDB_SYNC_POINT("DatabaseSet::Drop:Step");
  RETURN_IF_ERROR(SyncDirectory(fs::path(root_)));
  TTLDB_SYNC_POINT("DatabaseSet::Drop:Step");
  return Reclaim(trash);
}

void DatabaseSet::ForEachOpen(
    const std::function<void(const std::string& name, Database* db)>& fn) {
  if (single_ != nullptr) {
    fn(single_name_, single_);
    return;
  }
  std::vector<std::pair<std::string, std::shared_ptr<Database>>> dbs;
  {
    absl::MutexLock lock(&mu_);
    dbs.assign(open_.begin(), open_.end());
  }
  for (auto& [name, db] : dbs) fn(name, db.get());
}

void DatabaseSet::UpdateOptions(const std::function<void(Options*)>& update) {
  absl::MutexLock lock(&mu_);
  update(&options_);
}

Options DatabaseSet::options() {
  absl::MutexLock lock(&mu_);
  return options_;
}

absl::Status DatabaseSet::Close() {
  std::map<std::string, std::shared_ptr<Database>> dbs;
  {
    absl::MutexLock lock(&mu_);
    if (closed_) return absl::OkStatus();
    closed_ = true;
    dbs.swap(open_);
    dropped_.SignalAll();
  }
  absl::Status first;
  for (auto& [name, db] : dbs) {
    absl::Status s = db->Close();
    if (first.ok() && !s.ok()) first = s;
  }
  return first;
}

}  // namespace commands
}  // namespace ttldb
