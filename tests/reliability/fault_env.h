// A leveldb::Env that injects I/O faults, for fault-injection tests.
//
//   FaultEnv env;                       // wraps leveldb::Env::Default()
//   testing.env = &env;  // DatabaseInternal::Open (engine/database_internal.h)
//   env.Inject(FaultKind::kSync, ".log");   // every log sync now fails
//   ...
//   env.ClearAll();
//
// Faults apply to files whose name contains a given substring ("" matches
// every file): ".log" (the write-ahead log), ".ldb" (tables), "MANIFEST",
// "CURRENT". A fault can let `skip` matching operations succeed first, so a
// test can fail "the third write from now". Thread-safe: LevelDB's
// background compaction calls it concurrently.
#ifndef TTLDB_TESTS_RELIABILITY_FAULT_ENV_H_
#define TTLDB_TESTS_RELIABILITY_FAULT_ENV_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "leveldb/env.h"

namespace ttldb {

enum class FaultKind {
  kWrite,     // WritableFile::Append/Flush fail: IOError "injected write error"
  kSync,      // WritableFile::Sync fails: IOError "injected sync error"
  kRename,    // Env::RenameFile fails: IOError "injected rename error"
  kRead,      // SequentialFile/RandomAccessFile::Read fail
  kDiskFull,  // Append/Flush/Sync fail: IOError "No space left on device"
};

class FaultEnv : public leveldb::EnvWrapper {
 public:
  explicit FaultEnv(leveldb::Env* base = leveldb::Env::Default())
      : EnvWrapper(base) {}

  // From now on, fails operations of `kind` on files whose name contains
  // `file_substr`, after letting `skip` of them succeed. Replaces an
  // earlier fault of the same kind.
  void Inject(FaultKind kind, std::string file_substr = "", int skip = 0);
  void Clear(FaultKind kind);
  void ClearAll();
  // How many operations have been failed so far.
  int64_t injected_failures() const;

  // Returns the injected error if an operation of `kind` on `fname` must
  // fail now, OK otherwise. Used by the file wrappers.
  leveldb::Status Check(FaultKind kind, const std::string& fname);

  leveldb::Status NewSequentialFile(const std::string& fname,
                                    leveldb::SequentialFile** result) override;
  leveldb::Status NewRandomAccessFile(
      const std::string& fname, leveldb::RandomAccessFile** result) override;
  leveldb::Status NewWritableFile(const std::string& fname,
                                  leveldb::WritableFile** result) override;
  leveldb::Status NewAppendableFile(const std::string& fname,
                                    leveldb::WritableFile** result) override;
  leveldb::Status RenameFile(const std::string& src,
                             const std::string& target) override;

 private:
  struct Fault {
    std::string file_substr;
    int skip = 0;
  };
  mutable std::mutex mu_;
  std::map<FaultKind, Fault> faults_;  // guarded by mu_
  int64_t failures_ = 0;               // guarded by mu_
};

}  // namespace ttldb

#endif  // TTLDB_TESTS_RELIABILITY_FAULT_ENV_H_
