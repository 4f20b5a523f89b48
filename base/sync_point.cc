#include "base/sync_point.h"

#include <map>
#include <memory>

#include "base/mutex.h"

namespace ttldb {
namespace {

Mutex* Mu() {
  static Mutex* mu = new Mutex;
  return mu;
}

std::map<std::string, std::shared_ptr<std::function<void()>>>* Callbacks() {
  static auto* m =
      new std::map<std::string, std::shared_ptr<std::function<void()>>>;
  return m;
}

}  // namespace

std::atomic<bool> SyncPoint::enabled{false};

void SyncPoint::Set(absl::string_view name, std::function<void()> callback) {
  MutexLock l(Mu());
  (*Callbacks())[std::string(name)] =
      std::make_shared<std::function<void()>>(std::move(callback));
  enabled = true;
}

void SyncPoint::ClearAll() {
  MutexLock l(Mu());
  Callbacks()->clear();
  enabled = false;
}

void SyncPoint::Process(absl::string_view name) {
  std::shared_ptr<std::function<void()>> cb;
  {
    MutexLock l(Mu());
    auto it = Callbacks()->find(std::string(name));
    if (it == Callbacks()->end()) return;
    cb = it->second;
  }
  (*cb)();  // outside the lock: the callback may block or set other points
}

}  // namespace ttldb
