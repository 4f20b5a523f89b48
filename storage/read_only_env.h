// A leveldb::Env for read_only opens: LevelDB reads the database's files and
// every write it makes lands in memory, so the directory is left byte for
// byte as it was.
//
// LevelDB has no read-only mode: DB::Open takes the LOCK file (creating
// it), replays the write-ahead log into a new level-0 table, starts a new
// log, writes a new MANIFEST, points CURRENT at it, deletes the obsolete
// files and may compact; reads can trigger compactions too. RocksDB's
// OpenForReadOnly replays the log into a memtable it never flushes and
// writes nothing; LevelDB's memenv keeps a whole database in memory. This
// Env gives LevelDB RocksDB's guarantee without changing LevelDB: it layers
// an in-memory overlay over the real directory.
//
//   - Reads see the overlay first, then the real file (unless the overlay
//     deleted it).
//   - NewWritableFile/NewAppendableFile create files in the overlay (an
//     appendable real file is copied in first); RenameFile and RemoveFile
//     act on the overlay and hide the real source; CreateDir and RemoveDir
//     do nothing; NewLogger discards LevelDB's info log.
//   - LockFile takes the real LOCK file only when it already exists (opening
//     an existing file and an fcntl lock change no byte), so a read-only
//     open still refuses a directory another process has open for writing;
//     when the lock cannot be taken because the medium is read-only
//     (EROFS, EACCES), the open goes on without it. A missing LOCK file is
//     not created.
//
// What LevelDB writes during a read-only session (the replayed log's
// level-0 table, a compaction a read triggers) costs memory until Close.
// Thread-safe.
#ifndef TTLDB_STORAGE_READ_ONLY_ENV_H_
#define TTLDB_STORAGE_READ_ONLY_ENV_H_

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "leveldb/env.h"

namespace ttldb {

class ReadOnlyEnv : public leveldb::EnvWrapper {
 public:
  // `base` is not owned and must outlive this Env.
  explicit ReadOnlyEnv(leveldb::Env* base);
  ~ReadOnlyEnv() override;

  // Bytes held by files written into memory.
  size_t overlay_bytes() const;

  leveldb::Status NewSequentialFile(const std::string& fname,
                                    leveldb::SequentialFile** result) override;
  leveldb::Status NewRandomAccessFile(
      const std::string& fname, leveldb::RandomAccessFile** result) override;
  leveldb::Status NewWritableFile(const std::string& fname,
                                  leveldb::WritableFile** result) override;
  leveldb::Status NewAppendableFile(const std::string& fname,
                                    leveldb::WritableFile** result) override;
  bool FileExists(const std::string& fname) override;
  leveldb::Status GetChildren(const std::string& dir,
                              std::vector<std::string>* result) override;
  leveldb::Status RemoveFile(const std::string& fname) override;
  leveldb::Status DeleteFile(const std::string& fname) override;
  leveldb::Status CreateDir(const std::string& dirname) override;
  leveldb::Status RemoveDir(const std::string& dirname) override;
  leveldb::Status DeleteDir(const std::string& dirname) override;
  leveldb::Status GetFileSize(const std::string& fname,
                              uint64_t* file_size) override;
  leveldb::Status RenameFile(const std::string& src,
                             const std::string& target) override;
  leveldb::Status LockFile(const std::string& fname,
                           leveldb::FileLock** lock) override;
  leveldb::Status UnlockFile(leveldb::FileLock* lock) override;
  leveldb::Status NewLogger(const std::string& fname,
                            leveldb::Logger** result) override;

  struct MemFile;  // a file of the overlay

 private:
  // The overlay's file, or null. Requires mu_.
  std::shared_ptr<MemFile> Find(const std::string& fname) const;
  // Copies a real file into the overlay. Requires mu_.
  leveldb::Status CopyIn(const std::string& fname,
                         std::shared_ptr<MemFile>* out);

  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<MemFile>> files_;  // guarded by mu_
  std::set<std::string> hidden_;  // real files removed or renamed; mu_
};

}  // namespace ttldb

#endif  // TTLDB_STORAGE_READ_ONLY_ENV_H_
