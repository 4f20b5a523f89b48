// A leveldb::Env that simulates losing power, as LevelDB's
// db/fault_injection_test.cc does: it tracks, per file, how many bytes have
// been written and how many have been synced, and at a power cut drops
// every byte that was not synced.
//
//   PowerCutEnv env(leveldb::NewMemEnv(leveldb::Env::Default()));
//   testing.env = &env;  // DatabaseInternal::Open (engine/database_internal.h)
//   env.ArmCut(120);   // the 120th file mutation from now fails: power is off
//   ... writes; one fails with IOError "power cut" ...
//   db.reset();                       // close (nothing more reaches "disk")
//   env.RestorePower();               // unsynced bytes and files are gone
//   ... reopen and check ...
//
// The model of a disk after a power cut (LevelDB's fault_injection_test):
// - A file keeps only the bytes up to its last successful Sync (none if it
//   was never synced).
// - A file created (or renamed into place) after the last directory sync
//   is gone. Syncing a file that is new since the last directory sync syncs
//   its directory, so every file created before it survives (LevelDB's
//   test assumes this; ext4 and xfs journal the directory entry with the
//   file's fsync in practice). Renames and removals are kept.
// After the cut every mutating operation (file creation, Append, Flush,
// Sync, rename, removal) fails with IOError "power cut" and reaches nothing;
// reads keep working on what the files held (the caches of a machine that
// is about to go down). Thread-safe (LevelDB compacts on its own thread).
#ifndef TTLDB_TESTS_RELIABILITY_POWER_CUT_ENV_H_
#define TTLDB_TESTS_RELIABILITY_POWER_CUT_ENV_H_

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "leveldb/env.h"

namespace ttldb {

class PowerCutEnv : public leveldb::EnvWrapper {
 public:
  // Takes ownership of `base` (e.g. leveldb::NewMemEnv(Env::Default())).
  explicit PowerCutEnv(leveldb::Env* base);
  ~PowerCutEnv() override;

  // The power goes at the `ops`-th mutating operation from now (1: the next
  // one), which fails. Replaces an earlier arming.
  void ArmCut(int64_t ops);
  // The power goes now (if it has not already).
  void CutNow();
  bool is_cut() const;
  // Mutating operations seen since construction (for choosing cut points).
  int64_t mutating_ops() const;
  // Files created so far whose name ends with `suffix` (".log", ".ldb").
  int64_t files_created(const std::string& suffix) const;
  // While held, creating a file whose name ends with `suffix` blocks (e.g.
  // ".ldb": LevelDB's memtable flush waits, so its log stays needed).
  void HoldNewFiles(const std::string& suffix);
  void ReleaseHeld();

  // The machine restarts: every tracked file is truncated to its synced
  // size, files whose directory entry was never synced are removed, and the
  // power is back (everything on the base Env now counts as synced). Call
  // only once no file of this Env is open (the Database is closed).
  leveldb::Status RestorePower();

  // File-level hooks, used by the WritableFile wrapper.
  leveldb::Status BeforeMutation();
  void Appended(const std::string& fname, uint64_t bytes);
  void Synced(const std::string& fname);

  leveldb::Status NewWritableFile(const std::string& fname,
                                  leveldb::WritableFile** result) override;
  leveldb::Status NewAppendableFile(const std::string& fname,
                                    leveldb::WritableFile** result) override;
  leveldb::Status RemoveFile(const std::string& fname) override;
  leveldb::Status RenameFile(const std::string& src,
                             const std::string& target) override;
  leveldb::Status CreateDir(const std::string& dirname) override;
  leveldb::Status RemoveDir(const std::string& dirname) override;

 private:
  struct FileState {
    uint64_t size = 0;    // bytes appended
    uint64_t synced = 0;  // bytes at the last successful Sync
  };
  static std::string DirOf(const std::string& fname);
  leveldb::Status BeforeMutationLocked();

  std::unique_ptr<leveldb::Env> base_;
  mutable std::mutex mu_;
  bool cut_ = false;                        // guarded by mu_
  int64_t countdown_ = -1;                  // guarded by mu_; -1: not armed
  int64_t mutating_ops_ = 0;                // guarded by mu_
  std::map<std::string, FileState> files_;  // guarded by mu_
  std::vector<std::string> created_;        // guarded by mu_
  std::string held_suffix_;                 // guarded by mu_; "": none
  std::condition_variable released_;
  // Created or renamed into place since their directory was last synced.
  std::set<std::string> unsynced_entries_;  // guarded by mu_
};

}  // namespace ttldb

#endif  // TTLDB_TESTS_RELIABILITY_POWER_CUT_ENV_H_
