#include "base/op_deadline.h"

#include "base/op_context.h"
#include "base/status.h"

namespace ttldb {
namespace {
thread_local ScopedOpDeadline* current_deadline = nullptr;
thread_local ScopedShutdownInterrupt* current_shutdown = nullptr;
thread_local ScopedKillInterrupt* current_kill = nullptr;
thread_local ScopedOpCounters* current_counters = nullptr;
}  // namespace

ScopedOpCounters::ScopedOpCounters() : previous_(current_counters) {
  current_counters = this;
}

ScopedOpCounters::~ScopedOpCounters() { current_counters = previous_; }

OpCounters* CurrentOpCounters() {
  return current_counters != nullptr ? &current_counters->counters_ : nullptr;
}

void CountKeyExamined() {
  if (current_counters != nullptr) ++current_counters->counters_.keys_examined;
}

void CountDocExamined() {
  if (current_counters != nullptr) ++current_counters->counters_.docs_examined;
}

void CountKeysWritten(int64_t inserted, int64_t deleted) {
  if (current_counters == nullptr) return;
  current_counters->counters_.keys_inserted += inserted;
  current_counters->counters_.keys_deleted += deleted;
}

ScopedShutdownInterrupt::ScopedShutdownInterrupt(
    const std::atomic<bool>* shutting_down)
    : flag_(shutting_down), previous_(current_shutdown) {
  current_shutdown = this;
}

ScopedShutdownInterrupt::~ScopedShutdownInterrupt() {
  current_shutdown = previous_;
}

ScopedKillInterrupt::ScopedKillInterrupt(const std::atomic<bool>* killed)
    : flag_(killed), previous_(current_kill) {
  current_kill = this;
}

ScopedKillInterrupt::~ScopedKillInterrupt() { current_kill = previous_; }

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
  const ScopedKillInterrupt* k = current_kill;
  if (k != nullptr && k->flag()->load(std::memory_order_relaxed)) {
    // src/mongo/db/operation_context.cpp checkForInterruptNoAssert: a
    // killed operation fails with its kill code, Interrupted by default.
    return MongoError(absl::StatusCode::kCancelled, kInterrupted,
                      "operation was interrupted");
  }
  const ScopedOpDeadline* d = current_deadline;
  if (d == nullptr || d->clock()->SteadyNow() < d->deadline()) {
    return absl::OkStatus();
  }
  return MaxTimeExpiredError();
}

}  // namespace ttldb
