#include "tests/reliability/power_cut_env.h"

#include <utility>
#include <vector>

namespace ttldb {
namespace {

class PowerCutFile : public leveldb::WritableFile {
 public:
  PowerCutFile(PowerCutEnv* env, std::string fname, leveldb::WritableFile* f)
      : env_(env), fname_(std::move(fname)), file_(f) {}
  ~PowerCutFile() override = default;

  leveldb::Status Append(const leveldb::Slice& data) override {
    leveldb::Status s = env_->BeforeMutation();
    if (!s.ok()) return s;
    s = file_->Append(data);
    if (s.ok()) env_->Appended(fname_, data.size());
    return s;
  }
  leveldb::Status Flush() override {
    leveldb::Status s = env_->BeforeMutation();
    return s.ok() ? file_->Flush() : s;
  }
  leveldb::Status Sync() override {
    leveldb::Status s = env_->BeforeMutation();
    if (!s.ok()) return s;
    s = file_->Sync();
    if (s.ok()) env_->Synced(fname_);
    return s;
  }
  // Closing writes nothing the model keeps: what was not synced is lost
  // either way. After the cut the base file is closed without flushing
  // more (its unsynced tail is dropped at RestorePower anyway).
  leveldb::Status Close() override { return file_->Close(); }

 private:
  PowerCutEnv* const env_;
  const std::string fname_;
  std::unique_ptr<leveldb::WritableFile> file_;
};

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

leveldb::Status PowerCutError() {
  return leveldb::Status::IOError("power cut");
}

}  // namespace

PowerCutEnv::PowerCutEnv(leveldb::Env* base) : EnvWrapper(base), base_(base) {}

PowerCutEnv::~PowerCutEnv() = default;

void PowerCutEnv::ArmCut(int64_t ops) {
  std::lock_guard<std::mutex> l(mu_);
  countdown_ = ops;
}

void PowerCutEnv::CutNow() {
  std::lock_guard<std::mutex> l(mu_);
  cut_ = true;
}

bool PowerCutEnv::is_cut() const {
  std::lock_guard<std::mutex> l(mu_);
  return cut_;
}

int64_t PowerCutEnv::mutating_ops() const {
  std::lock_guard<std::mutex> l(mu_);
  return mutating_ops_;
}

std::string PowerCutEnv::DirOf(const std::string& fname) {
  size_t slash = fname.find_last_of('/');
  return slash == std::string::npos ? "" : fname.substr(0, slash);
}

leveldb::Status PowerCutEnv::BeforeMutationLocked() {
  if (cut_) return PowerCutError();
  ++mutating_ops_;
  if (countdown_ > 0 && --countdown_ == 0) {
    countdown_ = -1;
    cut_ = true;
    return PowerCutError();
  }
  return leveldb::Status::OK();
}

leveldb::Status PowerCutEnv::BeforeMutation() {
  std::lock_guard<std::mutex> l(mu_);
  return BeforeMutationLocked();
}

void PowerCutEnv::Appended(const std::string& fname, uint64_t bytes) {
  std::lock_guard<std::mutex> l(mu_);
  files_[fname].size += bytes;
}

void PowerCutEnv::Synced(const std::string& fname) {
  std::lock_guard<std::mutex> l(mu_);
  FileState& f = files_[fname];
  f.synced = f.size;
  if (unsynced_entries_.count(fname) > 0) {
    // The file's fsync makes its directory entry durable, and with it
    // those of every file created in that directory before it.
    const std::string dir = DirOf(fname);
    for (auto it = unsynced_entries_.begin(); it != unsynced_entries_.end();) {
      it = DirOf(*it) == dir ? unsynced_entries_.erase(it) : std::next(it);
    }
  }
}

int64_t PowerCutEnv::files_created(const std::string& suffix) const {
  std::lock_guard<std::mutex> l(mu_);
  int64_t n = 0;
  for (const std::string& f : created_) {
    if (EndsWith(f, suffix)) ++n;
  }
  return n;
}

void PowerCutEnv::HoldNewFiles(const std::string& suffix) {
  std::lock_guard<std::mutex> l(mu_);
  held_suffix_ = suffix;
}

void PowerCutEnv::ReleaseHeld() {
  std::lock_guard<std::mutex> l(mu_);
  held_suffix_.clear();
  released_.notify_all();
}

leveldb::Status PowerCutEnv::NewWritableFile(const std::string& fname,
                                             leveldb::WritableFile** result) {
  std::unique_lock<std::mutex> l(mu_);
  released_.wait(l, [&] {
    return held_suffix_.empty() || !EndsWith(fname, held_suffix_);
  });
  created_.push_back(fname);
  leveldb::Status s = BeforeMutationLocked();
  if (!s.ok()) return s;
  leveldb::WritableFile* f = nullptr;
  s = target()->NewWritableFile(fname, &f);
  if (!s.ok()) return s;
  files_[fname] = FileState{};
  unsynced_entries_.insert(fname);
  *result = new PowerCutFile(this, fname, f);
  return s;
}

leveldb::Status PowerCutEnv::NewAppendableFile(const std::string& fname,
                                               leveldb::WritableFile** result) {
  std::lock_guard<std::mutex> l(mu_);
  leveldb::Status s = BeforeMutationLocked();
  if (!s.ok()) return s;
  const bool existed = target()->FileExists(fname);
  uint64_t size = 0;
  if (existed && !target()->GetFileSize(fname, &size).ok()) size = 0;
  leveldb::WritableFile* f = nullptr;
  s = target()->NewAppendableFile(fname, &f);
  if (!s.ok()) return s;
  if (files_.count(fname) == 0) {
    // A file from before tracking (or the last restart) is durable as is.
    files_[fname] = FileState{size, existed ? size : 0};
    if (!existed) unsynced_entries_.insert(fname);
  }
  *result = new PowerCutFile(this, fname, f);
  return s;
}

leveldb::Status PowerCutEnv::RemoveFile(const std::string& fname) {
  std::lock_guard<std::mutex> l(mu_);
  leveldb::Status s = BeforeMutationLocked();
  if (!s.ok()) return s;
  s = target()->RemoveFile(fname);
  if (s.ok()) {
    files_.erase(fname);
    unsynced_entries_.erase(fname);
  }
  return s;
}

leveldb::Status PowerCutEnv::RenameFile(const std::string& src,
                                        const std::string& target_name) {
  std::lock_guard<std::mutex> l(mu_);
  leveldb::Status s = BeforeMutationLocked();
  if (!s.ok()) return s;
  s = target()->RenameFile(src, target_name);
  if (!s.ok()) return s;
  auto it = files_.find(src);
  if (it != files_.end()) {
    files_[target_name] = it->second;
    files_.erase(src);
  } else {
    files_.erase(target_name);
  }
  if (unsynced_entries_.erase(src) > 0) {
    unsynced_entries_.insert(target_name);
  } else {
    unsynced_entries_.erase(target_name);
  }
  return s;
}

leveldb::Status PowerCutEnv::CreateDir(const std::string& dirname) {
  std::lock_guard<std::mutex> l(mu_);
  leveldb::Status s = BeforeMutationLocked();
  return s.ok() ? target()->CreateDir(dirname) : s;
}

leveldb::Status PowerCutEnv::RemoveDir(const std::string& dirname) {
  std::lock_guard<std::mutex> l(mu_);
  leveldb::Status s = BeforeMutationLocked();
  return s.ok() ? target()->RemoveDir(dirname) : s;
}

leveldb::Status PowerCutEnv::RestorePower() {
  std::lock_guard<std::mutex> l(mu_);
  leveldb::Status result;
  for (const auto& [fname, state] : files_) {
    if (state.synced >= state.size || unsynced_entries_.count(fname) > 0) {
      continue;
    }
    // Keep the synced prefix: read it, rewrite the file with it.
    leveldb::SequentialFile* in = nullptr;
    leveldb::Status s = target()->NewSequentialFile(fname, &in);
    std::string kept;
    if (s.ok()) {
      std::unique_ptr<leveldb::SequentialFile> owned(in);
      std::string scratch(state.synced, '\0');
      leveldb::Slice got;
      s = in->Read(state.synced, &got, scratch.data());
      kept.assign(got.data(), got.size());
    }
    if (s.ok()) {
      leveldb::WritableFile* out = nullptr;
      s = target()->NewWritableFile(fname, &out);
      if (s.ok()) {
        std::unique_ptr<leveldb::WritableFile> owned(out);
        s = out->Append(kept);
        if (s.ok()) s = out->Close();
      }
    }
    if (!s.ok() && result.ok()) result = s;
  }
  for (const std::string& fname : unsynced_entries_) {
    if (!target()->FileExists(fname)) continue;
    leveldb::Status s = target()->RemoveFile(fname);
    if (!s.ok() && result.ok()) result = s;
  }
  files_.clear();
  unsynced_entries_.clear();
  cut_ = false;
  countdown_ = -1;
  return result;
}

}  // namespace ttldb
