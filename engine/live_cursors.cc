#include "engine/live_cursors.h"

#include <utility>

#include "absl/status/status.h"

namespace ttldb {

namespace {

absl::Status Closed() {
  return absl::FailedPreconditionError("database is closed");
}

}  // namespace

class LiveCursors::Tracked : public Cursor {
 public:
  Tracked(std::shared_ptr<LiveCursors> owner, std::unique_ptr<Cursor> inner)
      : owner_(std::move(owner)), inner_(std::move(inner)) {}

  ~Tracked() override {
    std::shared_lock<std::shared_mutex> l(owner_->mu_);
    {
      std::lock_guard<std::mutex> s(owner_->set_mu_);
      owner_->cursors_.erase(this);
    }
    // Under the shared lock: LevelDB is still open (CloseAll waits), and
    // CloseAll has not reset it (or has, and this is null).
    inner_.reset();
  }

  absl::StatusOr<std::optional<Value>> Next() override {
    std::shared_lock<std::shared_mutex> l(owner_->mu_);
    if (inner_ == nullptr) return Closed();
    return inner_->Next();
  }

 private:
  friend class LiveCursors;
  const std::shared_ptr<LiveCursors> owner_;
  // Set at construction, reset by CloseAll (exclusive lock) or the
  // destructor; read under the shared lock.
  std::unique_ptr<Cursor> inner_;
};

absl::StatusOr<std::unique_ptr<Cursor>> LiveCursors::Open(const Factory& make) {
  std::shared_lock<std::shared_mutex> l(mu_);
  if (closed_) return Closed();
  absl::StatusOr<std::unique_ptr<Cursor>> cursor = make();
  if (!cursor.ok()) return cursor.status();
  auto tracked =
      std::make_unique<Tracked>(shared_from_this(), std::move(*cursor));
  std::lock_guard<std::mutex> s(set_mu_);
  cursors_.insert(tracked.get());
  return std::unique_ptr<Cursor>(std::move(tracked));
}

void LiveCursors::CloseAll() {
  std::unique_lock<std::shared_mutex> l(mu_);
  closed_ = true;
  std::lock_guard<std::mutex> s(set_mu_);
  for (Tracked* c : cursors_) c->inner_.reset();
  cursors_.clear();
}

}  // namespace ttldb
