#include "storage/log_sync_env.h"

#include <memory>

#include "absl/strings/match.h"

namespace ttldb {
namespace {

class SyncOnCloseFile : public leveldb::WritableFile {
 public:
  explicit SyncOnCloseFile(leveldb::WritableFile* file) : file_(file) {}
  ~SyncOnCloseFile() override {
    if (!closed_) Close();  // LevelDB deletes its last log without Close
  }

  leveldb::Status Append(const leveldb::Slice& data) override {
    dirty_ = true;
    return file_->Append(data);
  }
  leveldb::Status Flush() override { return file_->Flush(); }
  leveldb::Status Sync() override {
    leveldb::Status s = file_->Sync();
    if (s.ok()) dirty_ = false;
    return s;
  }
  leveldb::Status Close() override {
    closed_ = true;
    leveldb::Status s = dirty_ ? Sync() : leveldb::Status::OK();
    leveldb::Status c = file_->Close();
    return s.ok() ? c : s;
  }

 private:
  std::unique_ptr<leveldb::WritableFile> file_;
  bool dirty_ = false;  // appended since the last successful Sync
  bool closed_ = false;
};

}  // namespace

leveldb::Status LogSyncEnv::NewWritableFile(const std::string& fname,
                                            leveldb::WritableFile** result) {
  leveldb::Status s = target()->NewWritableFile(fname, result);
  if (s.ok() && absl::EndsWith(fname, ".log")) {
    *result = new SyncOnCloseFile(*result);
  }
  return s;
}

leveldb::Status LogSyncEnv::NewAppendableFile(const std::string& fname,
                                              leveldb::WritableFile** result) {
  leveldb::Status s = target()->NewAppendableFile(fname, result);
  if (s.ok() && absl::EndsWith(fname, ".log")) {
    *result = new SyncOnCloseFile(*result);
  }
  return s;
}

}  // namespace ttldb
