#include "tests/reliability/fault_env.h"

#include <memory>
#include <utility>

namespace ttldb {
namespace {

using leveldb::Slice;
using leveldb::Status;

class FaultWritableFile : public leveldb::WritableFile {
 public:
  FaultWritableFile(FaultEnv* env, std::string fname,
                    leveldb::WritableFile* base)
      : env_(env), fname_(std::move(fname)), base_(base) {}

  Status Append(const Slice& data) override {
    Status s = WriteFault();
    return s.ok() ? base_->Append(data) : s;
  }
  Status Close() override { return base_->Close(); }
  Status Flush() override {
    Status s = WriteFault();
    return s.ok() ? base_->Flush() : s;
  }
  Status Sync() override {
    Status s = env_->Check(FaultKind::kSync, fname_);
    if (s.ok()) s = env_->Check(FaultKind::kDiskFull, fname_);
    return s.ok() ? base_->Sync() : s;
  }

 private:
  Status WriteFault() {
    Status s = env_->Check(FaultKind::kWrite, fname_);
    if (s.ok()) s = env_->Check(FaultKind::kDiskFull, fname_);
    return s;
  }
  FaultEnv* const env_;
  const std::string fname_;
  std::unique_ptr<leveldb::WritableFile> base_;
};

class FaultSequentialFile : public leveldb::SequentialFile {
 public:
  FaultSequentialFile(FaultEnv* env, std::string fname,
                      leveldb::SequentialFile* base)
      : env_(env), fname_(std::move(fname)), base_(base) {}
  Status Read(size_t n, Slice* result, char* scratch) override {
    Status s = env_->Check(FaultKind::kRead, fname_);
    return s.ok() ? base_->Read(n, result, scratch) : s;
  }
  Status Skip(uint64_t n) override { return base_->Skip(n); }

 private:
  FaultEnv* const env_;
  const std::string fname_;
  std::unique_ptr<leveldb::SequentialFile> base_;
};

class FaultRandomAccessFile : public leveldb::RandomAccessFile {
 public:
  FaultRandomAccessFile(FaultEnv* env, std::string fname,
                        leveldb::RandomAccessFile* base)
      : env_(env), fname_(std::move(fname)), base_(base) {}
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    Status s = env_->Check(FaultKind::kRead, fname_);
    return s.ok() ? base_->Read(offset, n, result, scratch) : s;
  }

 private:
  FaultEnv* const env_;
  const std::string fname_;
  std::unique_ptr<leveldb::RandomAccessFile> base_;
};

const char* Message(FaultKind kind) {
  switch (kind) {
    case FaultKind::kWrite:
      return "injected write error";
    case FaultKind::kSync:
      return "injected sync error";
    case FaultKind::kRename:
      return "injected rename error";
    case FaultKind::kRead:
      return "injected read error";
    case FaultKind::kDiskFull:
      return "No space left on device";
  }
  return "injected error";
}

}  // namespace

void FaultEnv::Inject(FaultKind kind, std::string file_substr, int skip) {
  std::lock_guard<std::mutex> lock(mu_);
  faults_[kind] = Fault{std::move(file_substr), skip};
}

void FaultEnv::Clear(FaultKind kind) {
  std::lock_guard<std::mutex> lock(mu_);
  faults_.erase(kind);
}

void FaultEnv::ClearAll() {
  std::lock_guard<std::mutex> lock(mu_);
  faults_.clear();
}

int64_t FaultEnv::injected_failures() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failures_;
}

Status FaultEnv::Check(FaultKind kind, const std::string& fname) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = faults_.find(kind);
  if (it == faults_.end()) return Status::OK();
  if (fname.find(it->second.file_substr) == std::string::npos) {
    return Status::OK();
  }
  if (it->second.skip > 0) {
    --it->second.skip;
    return Status::OK();
  }
  ++failures_;
  return Status::IOError(fname, Message(kind));
}

Status FaultEnv::NewSequentialFile(const std::string& fname,
                                   leveldb::SequentialFile** result) {
  leveldb::SequentialFile* base = nullptr;
  Status s = target()->NewSequentialFile(fname, &base);
  *result = s.ok() ? new FaultSequentialFile(this, fname, base) : nullptr;
  return s;
}

Status FaultEnv::NewRandomAccessFile(const std::string& fname,
                                     leveldb::RandomAccessFile** result) {
  leveldb::RandomAccessFile* base = nullptr;
  Status s = target()->NewRandomAccessFile(fname, &base);
  *result = s.ok() ? new FaultRandomAccessFile(this, fname, base) : nullptr;
  return s;
}

Status FaultEnv::NewWritableFile(const std::string& fname,
                                 leveldb::WritableFile** result) {
  leveldb::WritableFile* base = nullptr;
  Status s = target()->NewWritableFile(fname, &base);
  *result = s.ok() ? new FaultWritableFile(this, fname, base) : nullptr;
  return s;
}

Status FaultEnv::NewAppendableFile(const std::string& fname,
                                   leveldb::WritableFile** result) {
  leveldb::WritableFile* base = nullptr;
  Status s = target()->NewAppendableFile(fname, &base);
  *result = s.ok() ? new FaultWritableFile(this, fname, base) : nullptr;
  return s;
}

Status FaultEnv::RenameFile(const std::string& src, const std::string& target) {
  Status s = Check(FaultKind::kRename, target);
  if (!s.ok()) return s;
  return EnvWrapper::RenameFile(src, target);
}

}  // namespace ttldb
