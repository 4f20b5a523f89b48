// Database::Backup: a consistent copy of an open database.
//
// Every key is read from one LevelDB snapshot (checksums verified) and
// written, in order, into a new LevelDB in the destination, which is
// synced before Backup returns. Each ttldb write (a document with all its
// index entries, a catalog change with the meta record) is one atomic
// WriteBatch, so the snapshot holds each completely or not at all: every
// document in the copy has exactly its index entries, and the catalog
// matches them. Writers are not blocked (the snapshot is read without the
// writers' lock); the copy is as of the moment Backup took the snapshot.
//
// Why not copy the table files: LevelDB has no API to pin the set of live
// table files against compaction or to name them, the log and MANIFEST are
// being appended, and a file copy would carry a corrupted block along
// silently. The key copy costs a full read and write of the data but is
// consistent through the public LevelDB API, verifies every checksum on
// the way (a corrupted source fails the backup loudly), and leaves a
// compacted database.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "storage/leveldb_status.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

// Creates `dir` and its missing parents.
leveldb::Status MakeDirs(leveldb::Env* env, const std::string& dir) {
  for (size_t i = 1; i <= dir.size(); ++i) {
    if (i == dir.size() || dir[i] == '/') {
      const std::string part = dir.substr(0, i);
      if (!env->FileExists(part)) {
        leveldb::Status s = env->CreateDir(part);
        if (!s.ok() && !env->FileExists(part)) return s;
      }
    }
  }
  return leveldb::Status::OK();
}

}  // namespace

absl::StatusOr<BackupStats> DbImpl::Backup(absl::string_view dest_view) {
  RETURN_IF_ERROR(CheckOpen());
  const std::string dest(dest_view);
  if (dest.empty()) return absl::InvalidArgumentError("empty backup path");
  // Files go to the files' Env (env_) even when this database is read_only
  // (its LevelDB runs over the in-memory overlay).
  std::vector<std::string> children;
  if (env_->GetChildren(dest, &children).ok()) {
    for (const std::string& c : children) {
      if (c != "." && c != "..") {
        return absl::AlreadyExistsError(
            absl::StrCat("backup destination '", dest,
                         "' exists and is not empty; give a new or empty "
                         "directory"));
      }
    }
  }
  leveldb::Status s = MakeDirs(env_, dest);
  if (!s.ok()) {
    return storage::FromLevelDB(
        s, absl::StrCat("creating backup directory '", dest, "'"));
  }
  leveldb::Options lo;
  lo.env = env_;
  lo.create_if_missing = true;
  lo.error_if_exists = true;
  lo.write_buffer_size = options_.write_buffer_bytes;
  lo.filter_policy = filter_policy_.get();
  leveldb::DB* raw = nullptr;
  s = leveldb::DB::Open(lo, dest, &raw);
  if (!s.ok()) {
    return storage::FromLevelDB(
        s, absl::StrCat("creating backup database '", dest, "'"));
  }
  std::unique_ptr<leveldb::DB> out(raw);

  BackupStats stats;
  const leveldb::Snapshot* snapshot = db_->GetSnapshot();
  {
    std::unique_ptr<leveldb::Iterator> it(
        db_->NewIterator(storage::VerifiedRead(snapshot)));
    leveldb::WriteBatch batch;
    constexpr size_t kBatchBytes = 1 << 20;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      batch.Put(it->key(), it->value());
      ++stats.keys;
      stats.bytes += it->key().size() + it->value().size();
      if (batch.ApproximateSize() >= kBatchBytes) {
        s = out->Write(leveldb::WriteOptions(), &batch);
        if (!s.ok()) break;
        batch.Clear();
      }
    }
    absl::Status read =
        it->status().ok()
            ? absl::OkStatus()
            : storage::FromLevelDB(it->status(), "reading the database");
    if (read.ok() && s.ok()) {
      leveldb::WriteOptions synced;
      synced.sync = true;
      s = out->Write(synced, &batch);
    }
    db_->ReleaseSnapshot(snapshot);
    RETURN_IF_ERROR(read);
  }
  if (!s.ok()) {
    return storage::FromLevelDB(s, absl::StrCat("writing backup '", dest, "'"));
  }
  return stats;
}

absl::StatusOr<BackupStats> Database::Backup(absl::string_view dest_dir) {
  if (backend_ != nullptr) return backend_->Backup(dest_dir);
  return engine_->Backup(dest_dir);
}

}  // namespace ttldb
