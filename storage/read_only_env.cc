#include "storage/read_only_env.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace ttldb {

struct ReadOnlyEnv::MemFile {
  mutable std::mutex mu;
  std::string data;  // guarded by mu
};

namespace {

using MemFile = ReadOnlyEnv::MemFile;

leveldb::Status NotFound(const std::string& fname) {
  return leveldb::Status::IOError(fname, "No such file or directory");
}

class MemSequentialFile : public leveldb::SequentialFile {
 public:
  explicit MemSequentialFile(std::shared_ptr<MemFile> file)
      : file_(std::move(file)) {}
  leveldb::Status Read(size_t n, leveldb::Slice* result,
                       char* scratch) override {
    std::lock_guard<std::mutex> l(file_->mu);
    const size_t size = file_->data.size();
    const size_t take = pos_ >= size ? 0 : std::min(n, size - pos_);
    if (take > 0) std::memcpy(scratch, file_->data.data() + pos_, take);
    pos_ += take;
    *result = leveldb::Slice(scratch, take);
    return leveldb::Status::OK();
  }
  leveldb::Status Skip(uint64_t n) override {
    pos_ += n;
    return leveldb::Status::OK();
  }

 private:
  std::shared_ptr<MemFile> file_;
  size_t pos_ = 0;
};

class MemRandomAccessFile : public leveldb::RandomAccessFile {
 public:
  explicit MemRandomAccessFile(std::shared_ptr<MemFile> file)
      : file_(std::move(file)) {}
  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    std::lock_guard<std::mutex> l(file_->mu);
    const size_t size = file_->data.size();
    if (offset > size) {
      return leveldb::Status::IOError("read past the end of a file");
    }
    const size_t take = std::min<size_t>(n, size - offset);
    std::memcpy(scratch, file_->data.data() + offset, take);
    *result = leveldb::Slice(scratch, take);
    return leveldb::Status::OK();
  }

 private:
  std::shared_ptr<MemFile> file_;
};

class MemWritableFile : public leveldb::WritableFile {
 public:
  explicit MemWritableFile(std::shared_ptr<MemFile> file)
      : file_(std::move(file)) {}
  leveldb::Status Append(const leveldb::Slice& data) override {
    std::lock_guard<std::mutex> l(file_->mu);
    file_->data.append(data.data(), data.size());
    return leveldb::Status::OK();
  }
  leveldb::Status Close() override { return leveldb::Status::OK(); }
  leveldb::Status Flush() override { return leveldb::Status::OK(); }
  leveldb::Status Sync() override { return leveldb::Status::OK(); }

 private:
  std::shared_ptr<MemFile> file_;
};

class DiscardLogger : public leveldb::Logger {
 public:
  void Logv(const char*, std::va_list) override {}
};

// A lock: the real one when it could be taken, else none.
class OverlayLock : public leveldb::FileLock {
 public:
  explicit OverlayLock(leveldb::FileLock* real) : real(real) {}
  leveldb::FileLock* real;
};

}  // namespace

ReadOnlyEnv::ReadOnlyEnv(leveldb::Env* base) : EnvWrapper(base) {}
ReadOnlyEnv::~ReadOnlyEnv() = default;

size_t ReadOnlyEnv::overlay_bytes() const {
  std::lock_guard<std::mutex> l(mu_);
  size_t total = 0;
  for (const auto& [name, file] : files_) {
    std::lock_guard<std::mutex> fl(file->mu);
    total += file->data.size();
  }
  return total;
}

std::shared_ptr<MemFile> ReadOnlyEnv::Find(const std::string& fname) const {
  auto it = files_.find(fname);
  return it == files_.end() ? nullptr : it->second;
}

leveldb::Status ReadOnlyEnv::CopyIn(const std::string& fname,
                                    std::shared_ptr<MemFile>* out) {
  auto file = std::make_shared<MemFile>();
  leveldb::SequentialFile* raw = nullptr;
  leveldb::Status s = target()->NewSequentialFile(fname, &raw);
  if (!s.ok()) return s;
  std::unique_ptr<leveldb::SequentialFile> in(raw);
  std::string buffer(64 << 10, '\0');
  while (true) {
    leveldb::Slice chunk;
    s = in->Read(buffer.size(), &chunk, buffer.data());
    if (!s.ok()) return s;
    if (chunk.empty()) break;
    file->data.append(chunk.data(), chunk.size());
  }
  *out = std::move(file);
  return leveldb::Status::OK();
}

leveldb::Status ReadOnlyEnv::NewSequentialFile(
    const std::string& fname, leveldb::SequentialFile** result) {
  {
    std::lock_guard<std::mutex> l(mu_);
    if (auto file = Find(fname)) {
      *result = new MemSequentialFile(std::move(file));
      return leveldb::Status::OK();
    }
    if (hidden_.count(fname) != 0) return NotFound(fname);
  }
  return target()->NewSequentialFile(fname, result);
}

leveldb::Status ReadOnlyEnv::NewRandomAccessFile(
    const std::string& fname, leveldb::RandomAccessFile** result) {
  {
    std::lock_guard<std::mutex> l(mu_);
    if (auto file = Find(fname)) {
      *result = new MemRandomAccessFile(std::move(file));
      return leveldb::Status::OK();
    }
    if (hidden_.count(fname) != 0) return NotFound(fname);
  }
  return target()->NewRandomAccessFile(fname, result);
}

leveldb::Status ReadOnlyEnv::NewWritableFile(const std::string& fname,
                                             leveldb::WritableFile** result) {
  std::lock_guard<std::mutex> l(mu_);
  auto file = std::make_shared<MemFile>();
  files_[fname] = file;
  hidden_.insert(fname);  // the real file, if any, is replaced
  *result = new MemWritableFile(std::move(file));
  return leveldb::Status::OK();
}

leveldb::Status ReadOnlyEnv::NewAppendableFile(const std::string& fname,
                                               leveldb::WritableFile** result) {
  std::lock_guard<std::mutex> l(mu_);
  std::shared_ptr<MemFile> file = Find(fname);
  if (file == nullptr) {
    if (hidden_.count(fname) == 0 && target()->FileExists(fname)) {
      leveldb::Status s = CopyIn(fname, &file);
      if (!s.ok()) return s;
    } else {
      file = std::make_shared<MemFile>();
    }
    files_[fname] = file;
    hidden_.insert(fname);
  }
  *result = new MemWritableFile(std::move(file));
  return leveldb::Status::OK();
}

bool ReadOnlyEnv::FileExists(const std::string& fname) {
  {
    std::lock_guard<std::mutex> l(mu_);
    if (files_.count(fname) != 0) return true;
    if (hidden_.count(fname) != 0) return false;
  }
  return target()->FileExists(fname);
}

leveldb::Status ReadOnlyEnv::GetChildren(const std::string& dir,
                                         std::vector<std::string>* result) {
  result->clear();
  std::vector<std::string> real;
  leveldb::Status s = target()->GetChildren(dir, &real);
  std::lock_guard<std::mutex> l(mu_);
  const std::string prefix = dir + "/";
  std::set<std::string> names;
  for (const std::string& name : real) {
    if (hidden_.count(prefix + name) == 0) names.insert(name);
  }
  bool any_overlay = false;
  for (const auto& [path, file] : files_) {
    if (path.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string name = path.substr(prefix.size());
    if (name.find('/') != std::string::npos) continue;
    names.insert(name);
    any_overlay = true;
  }
  if (!s.ok() && !any_overlay) return s;
  result->assign(names.begin(), names.end());
  return leveldb::Status::OK();
}

leveldb::Status ReadOnlyEnv::RemoveFile(const std::string& fname) {
  std::lock_guard<std::mutex> l(mu_);
  const bool in_overlay = files_.erase(fname) != 0;
  const bool real = hidden_.count(fname) == 0 && target()->FileExists(fname);
  if (!in_overlay && !real) return NotFound(fname);
  hidden_.insert(fname);
  return leveldb::Status::OK();
}

leveldb::Status ReadOnlyEnv::DeleteFile(const std::string& fname) {
  return RemoveFile(fname);
}

leveldb::Status ReadOnlyEnv::CreateDir(const std::string&) {
  return leveldb::Status::OK();
}
leveldb::Status ReadOnlyEnv::RemoveDir(const std::string&) {
  return leveldb::Status::OK();
}
leveldb::Status ReadOnlyEnv::DeleteDir(const std::string&) {
  return leveldb::Status::OK();
}

leveldb::Status ReadOnlyEnv::GetFileSize(const std::string& fname,
                                         uint64_t* file_size) {
  {
    std::lock_guard<std::mutex> l(mu_);
    if (auto file = Find(fname)) {
      std::lock_guard<std::mutex> fl(file->mu);
      *file_size = file->data.size();
      return leveldb::Status::OK();
    }
    if (hidden_.count(fname) != 0) return NotFound(fname);
  }
  return target()->GetFileSize(fname, file_size);
}

leveldb::Status ReadOnlyEnv::RenameFile(const std::string& src,
                                        const std::string& dst) {
  std::lock_guard<std::mutex> l(mu_);
  std::shared_ptr<MemFile> file = Find(src);
  if (file == nullptr) {
    if (hidden_.count(src) != 0 || !target()->FileExists(src)) {
      return NotFound(src);
    }
    leveldb::Status s = CopyIn(src, &file);
    if (!s.ok()) return s;
  }
  files_.erase(src);
  hidden_.insert(src);
  files_[dst] = std::move(file);
  hidden_.insert(dst);
  return leveldb::Status::OK();
}

leveldb::Status ReadOnlyEnv::LockFile(const std::string& fname,
                                      leveldb::FileLock** lock) {
  leveldb::FileLock* real = nullptr;
  if (target()->FileExists(fname)) {
    leveldb::Status s = target()->LockFile(fname, &real);
    if (!s.ok()) {
      // Held by another process (EAGAIN/EACCES from fcntl) or by this one:
      // refuse, as a writable open would. Any other failure (a read-only
      // file system, no permission to open the file) means no writer can
      // hold it either: go on without the lock.
      const std::string why = s.ToString();
      if (why.find("already held") != std::string::npos ||
          why.find("temporarily unavailable") != std::string::npos) {
        return s;
      }
      real = nullptr;
    }
  }
  *lock = new OverlayLock(real);
  return leveldb::Status::OK();
}

leveldb::Status ReadOnlyEnv::UnlockFile(leveldb::FileLock* lock) {
  auto* overlay = static_cast<OverlayLock*>(lock);
  leveldb::Status s;
  if (overlay->real != nullptr) s = target()->UnlockFile(overlay->real);
  delete overlay;
  return s;
}

leveldb::Status ReadOnlyEnv::NewLogger(const std::string&,
                                       leveldb::Logger** result) {
  *result = new DiscardLogger;
  return leveldb::Status::OK();
}

}  // namespace ttldb
