// The TTL monitor: a background thread that deletes expired documents
// through a TtlStore (implemented by the engine), MongoDB's TTLMonitor with
// exact wake-up and a rate cap added.
//
// A pass takes its time `now` once and runs sub-passes, as MongoDB's
// _doTTLPass does. A sub-pass lists the TTL indexes afresh, skips and counts
// those whose expireAfterSeconds is invalid, then visits the active ones
// round-robin: each visit deletes at most one batch (batch_docs_max
// documents or batch_time_max; 0 is unlimited) of documents whose Date is
// <= now - E, and further rounds revisit only the indexes whose batch
// stopped at a limit, until none has work left or sub_pass_target has
// passed (then another sub-pass starts). One huge collection therefore never
// starves a small one. E is re-read before every batch (TtlStore::
// GetTtlIndex), so a collMod that raises it, a dropped index or a disabled
// monitor stops a pass within one batch. A batch that fails is counted, its
// index is left out of the rest of the pass, and the pass goes on; the next
// pass retries it. A failing pass never stops the thread.
//
// Between passes the thread sleeps `sleep`, measured on the steady clock from
// the end of the previous pass. With exact wake-up it starts sooner when the
// next known expiry (earliest indexed Date + E, read after each pass, or
// announced with NotifyExpiry) comes first, but never sooner than
// `min_interval` after the previous pass.
//
// Thread-safe: every public method may be called from any thread. Passes are
// serialized: a RunPass call waits for a background pass in progress, and
// the reverse.
#ifndef TTLDB_TTL_MONITOR_H_
#define TTLDB_TTL_MONITOR_H_

#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "base/mutex.h"
#include "ttl/ttl_store.h"
#include "ttldb/clock.h"
#include "ttldb/logger.h"
#include "ttldb/ttl_metrics.h"

namespace ttldb {

struct MonitorOptions {
  // 60 s: MongoDB's ttlMonitorSleepSecs default. Must be > 0.
  absl::Duration sleep = absl::Seconds(60);
  // 50,000 documents or 1 s per visit of one index: MongoDB's
  // ttlIndexDeleteTargetDocs / ttlIndexDeleteTargetTimeMS defaults. Both
  // must be >= 0; 0 is unlimited, as in MongoDB.
  int64_t batch_docs_max = 50'000;
  absl::Duration batch_time_max = absl::Seconds(1);
  // MongoDB's ttlMonitorBatchDeletes: false deletes every expired document
  // of an index in one visit (no batch limits; the rate cap still applies).
  bool batch_deletes = true;
  // 60 s: MongoDB's ttlMonitorSubPassTargetSecs default (>= 0): how long a
  // sub-pass keeps looping rounds before the index list is refreshed. 0: one
  // round per sub-pass.
  absl::Duration sub_pass_target = absl::Seconds(60);
  // Wake at the next known expiry when it comes before the regular interval.
  bool exact_wakeup = true;
  // At most this many deletions per second in the long run; 0: no cap. The
  // cap protects real resources, so it is measured on the real clock even
  // when a FakeClock is injected.
  double max_deletes_per_second = 0;
  // Run background passes (SetEnabled changes it at run time).
  bool enabled = true;
  // 100 ms: the shortest gap between two background passes, so that exact
  // wake-up can never become a busy loop.
  absl::Duration min_interval = absl::Milliseconds(100);
  // 1 s: the longest the sleeping thread waits before re-reading the
  // steady clock. Only matters with an injected clock that jumps (tests use
  // a FakeClock and a slice of a millisecond); SetSleep, SetEnabled,
  // NotifyExpiry and Stop wake the thread at once regardless.
  absl::Duration wait_slice = absl::Seconds(1);
  // Receives each pass's summary (debug; info when it deleted documents)
  // and the errors the pass worked around (warning). May be empty.
  Logger logger;
};

class TtlMonitor {
 public:
  // InvalidArgument naming the bad field when `options` is unusable.
  static absl::Status ValidateOptions(const MonitorOptions& options);

  // `store` and `clock` are not owned and must outlive the monitor (or at
  // least the call to Stop). `options` should pass ValidateOptions; values
  // out of range are clamped to the nearest usable one.
  TtlMonitor(TtlStore* store, Clock* clock, MonitorOptions options);
  // Calls Stop.
  ~TtlMonitor();
  TtlMonitor(const TtlMonitor&) = delete;
  TtlMonitor& operator=(const TtlMonitor&) = delete;

  // Launches the background thread; its first pass comes `sleep` after this
  // call (sooner with exact wake-up if documents are already due). No-op if
  // already started, or after Stop. ResourceExhausted if the system
  // refuses the thread (base/start_thread.h); Start may then be retried.
  absl::Status Start();

  // Asks the thread to stop, interrupts a pass in progress between two
  // batches, and joins the thread. After Stop, the monitor never calls the
  // store again: RunPass returns empty stats. Idempotent; safe without
  // Start. The engine calls it from Close before closing LevelDB.
  void Stop();

  // Changes the interval between passes (ttlMonitorSleepSecs) and wakes the
  // thread so that the new interval applies at once, from the end of the
  // previous pass. InvalidArgument (nothing changed) unless `sleep` > 0.
  absl::Status SetSleep(absl::Duration sleep);

  // Disabled: no background passes; a background pass in progress stops
  // before its next batch. RunPass still works. Enabling wakes the thread;
  // a pass overdue runs at once.
  void SetEnabled(bool enabled);

  // MongoDB's run-time parameters ttlIndexDeleteTargetDocs,
  // ttlIndexDeleteTargetTimeMS (0: unlimited), ttlMonitorBatchDeletes and
  // ttlMonitorSubPassTargetSecs. They apply from the next batch (the next
  // round for the sub-pass target). InvalidArgument, nothing changed, for a
  // negative value.
  absl::Status SetBatchDocsMax(int64_t docs);
  absl::Status SetBatchTimeMax(absl::Duration time);
  void SetBatchDeletes(bool batch_deletes);
  absl::Status SetSubPassTarget(absl::Duration target);
  int64_t batch_docs_max() const;
  absl::Duration batch_time_max() const;
  bool batch_deletes() const;
  absl::Duration sub_pass_target() const;

  // Tells the monitor that a document written now expires at `expires_at`
  // (wall clock: its indexed Date + E). With exact wake-up the thread wakes
  // then if that is sooner than planned. Cheap; optional for the engine.
  void NotifyExpiry(absl::Time expires_at);

  // Counts `documents` expired documents (and their `keys` index entries)
  // that a write removed, in its own atomic batch, because it collided with
  // them while they were hidden: TTL deletions made outside a pass. Counted
  // in metrics() (deleted_documents, deleted_keys, deleted_by_writes) at
  // once; never in a pass's TtlPassStats.
  void CountDeletedByWrite(int64_t documents, int64_t keys);

  // Runs one complete pass with cutoff time `now` on the calling thread and
  // returns what it did; also counted in metrics(). This is what
  // Database::TEST_RunTtlPass calls. Returns empty stats after Stop.
  TtlPassStats RunPass(absl::Time now);

  // Cumulative counters and the state of the last pass.
  TtlMetrics metrics() const;

  // The current interval (SetSleep) and whether background passes run.
  absl::Duration sleep() const;
  bool enabled() const;

  // --- Test support ---
  // Passes the background thread has completed.
  int64_t TEST_background_passes() const;
  // Waits (real time) until at least `n` background passes have completed;
  // false on timeout.
  bool TEST_WaitForBackgroundPasses(int64_t n, absl::Duration timeout);
  // The wall time of the next known expiry the scheduler is using, if any.
  std::optional<absl::Time> TEST_next_expiry() const;

 private:
  // The batch limits in force, read once per batch.
  struct BatchLimits {
    int64_t docs;
    absl::Duration time;
    absl::Duration sub_pass_target;
  };
  BatchLimits CurrentLimits() const ABSL_LOCKS_EXCLUDED(mu_);

  void ThreadMain();
  // One pass; the caller holds pass_mu_ (and not mu_). A `background` pass
  // also stops when the monitor is disabled.
  TtlPassStats RunPassLocked(absl::Time now, bool background)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(pass_mu_) ABSL_LOCKS_EXCLUDED(mu_);
  // Whether a pass may start another batch.
  bool MayContinue(bool background) const ABSL_LOCKS_EXCLUDED(mu_);
  // Waits until the rate cap allows the next batch; false when stopping.
  bool WaitForRateCap() ABSL_EXCLUSIVE_LOCKS_REQUIRED(pass_mu_)
      ABSL_LOCKS_EXCLUDED(mu_);
  bool stopping() const {
    return stop_requested_.load(std::memory_order_acquire);
  }

  // Constant after construction.
  TtlStore* const store_;
  Clock* const clock_;
  const bool exact_wakeup_;
  const Logger logger_;
  const double max_deletes_per_second_;
  const absl::Duration min_interval_;
  const absl::Duration wait_slice_;

  // Set once by Stop; read without a lock between batches.
  std::atomic<bool> stop_requested_{false};

  // Serializes passes. Acquired before mu_, never while holding it.
  Mutex pass_mu_ ABSL_ACQUIRED_BEFORE(mu_);
  // Protected by pass_mu_: real steady time before which the next batch
  // must not start (the rate cap), carried across passes.
  absl::Time rate_next_allowed_ ABSL_GUARDED_BY(pass_mu_) =
      absl::InfinitePast();

  // Protected by mu_.
  mutable Mutex mu_;
  CondVar wake_cv_;       // wakes the thread (and a rate-cap wait) early
  CondVar pass_done_cv_;  // signalled after each background pass
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_ ABSL_GUARDED_BY(mu_);
  absl::Duration sleep_ ABSL_GUARDED_BY(mu_);
  bool enabled_ ABSL_GUARDED_BY(mu_);
  int64_t batch_docs_max_ ABSL_GUARDED_BY(mu_);         // 0: unlimited
  absl::Duration batch_time_max_ ABSL_GUARDED_BY(mu_);  // 0: unlimited
  bool batch_deletes_ ABSL_GUARDED_BY(mu_);
  absl::Duration sub_pass_target_ ABSL_GUARDED_BY(mu_);
  // Steady time the last pass (background or RunPass) ended, or Start.
  absl::Time last_pass_end_steady_ ABSL_GUARDED_BY(mu_);
  // The next known expiry after the last pass's cutoff (wall clock).
  std::optional<absl::Time> next_expiry_wall_ ABSL_GUARDED_BY(mu_);
  // Expiries announced by NotifyExpiry since the current pass started, so
  // that the end of that pass does not forget them.
  std::optional<absl::Time> notified_during_pass_ ABSL_GUARDED_BY(mu_);
  TtlMetrics metrics_ ABSL_GUARDED_BY(mu_);
  int64_t background_passes_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace ttldb

#endif  // TTLDB_TTL_MONITOR_H_
