#include "base/op_deadline.h"

#include "base/status.h"

namespace ttldb {
namespace {
thread_local ScopedOpDeadline* current_deadline = nullptr;
thread_local ScopedShutdownInterrupt* current_shutdown = nullptr;
}  // namespace

ScopedShutdownInterrupt::ScopedShutdownInterrupt(
    const std::atomic<bool>* shutting_down)
    : flag_(shutting_down), previous_(current_shutdown) {
  current_shutdown = this;
}

ScopedShutdownInterrupt::~ScopedShutdownInterrupt() {
  current_shutdown = previous_;
}

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
  const ScopedShutdownInterrupt* s = current_shutdown;
  if (s != nullptr && s->flag()->load(std::memory_order_relaxed)) {
    // src/mongo/base/error_codes.yml: InterruptedAtShutdown, 11600.
    return MongoError(absl::StatusCode::kUnavailable, kInterruptedAtShutdown,
                      "interrupted at shutdown");
  }
  const ScopedOpDeadline* d = current_deadline;
  if (d == nullptr || d->clock()->SteadyNow() < d->deadline()) {
    return absl::OkStatus();
  }
  return MaxTimeExpiredError();
}

}  // namespace ttldb
