#include "base/op_deadline.h"

#include "base/status.h"

namespace ttldb {
namespace {
thread_local ScopedOpDeadline* current_deadline = nullptr;
}  // namespace

ScopedOpDeadline::ScopedOpDeadline(Clock* clock, absl::Time deadline)
    : clock_(clock), deadline_(deadline), previous_(current_deadline) {
  current_deadline = this;
}

ScopedOpDeadline::~ScopedOpDeadline() { current_deadline = previous_; }

const ScopedOpDeadline* CurrentOpDeadline() { return current_deadline; }

absl::Status MaxTimeExpiredError() {
  return MongoError(absl::StatusCode::kDeadlineExceeded, kMaxTimeMSExpired,
                    "operation exceeded time limit");
}

absl::Status CheckOpDeadline() {
  const ScopedOpDeadline* d = current_deadline;
  if (d == nullptr || d->clock()->SteadyNow() < d->deadline()) {
    return absl::OkStatus();
  }
  return MaxTimeExpiredError();
}

}  // namespace ttldb
