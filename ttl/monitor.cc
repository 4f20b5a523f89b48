#include "ttl/monitor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/start_thread.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "ttl/schedule.h"
#include "ttl/ttl_spec.h"

namespace ttldb {
namespace {

void KeepMin(std::optional<absl::Time>* slot, absl::Time t) {
  if (!slot->has_value() || t < **slot) *slot = t;
}

bool IsActive(const TtlIndexRef& ref) {
  return ref.expire_after_seconds.has_value() &&
         *ref.expire_after_seconds >= 0 &&
         *ref.expire_after_seconds <= kMaxExpireAfterSeconds;
}

}  // namespace

absl::Status TtlMonitor::ValidateOptions(const MonitorOptions& options) {
  if (!(options.sleep > absl::ZeroDuration())) {
    return absl::InvalidArgumentError(
        "ttl_monitor_sleep (ttlMonitorSleepSecs) must be greater than 0");
  }
  if (options.batch_docs_max < 0) {
    return absl::InvalidArgumentError(
        "ttl_batch_docs_max (ttlIndexDeleteTargetDocs) must be >= 0");
  }
  if (options.batch_time_max < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "ttl_batch_time_max (ttlIndexDeleteTargetTimeMS) must be >= 0");
  }
  if (options.sub_pass_target < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "ttl_sub_pass_target (ttlMonitorSubPassTargetSecs) must be >= 0");
  }
  if (!(options.max_deletes_per_second >= 0) ||
      std::isinf(options.max_deletes_per_second)) {
    return absl::InvalidArgumentError(
        "ttl_max_deletes_per_second must be a finite number >= 0");
  }
  return absl::OkStatus();
}

TtlMonitor::TtlMonitor(TtlStore* store, Clock* clock, MonitorOptions options)
    : store_(store),
      clock_(clock),
      exact_wakeup_(options.exact_wakeup),
      logger_(std::move(options.logger)),
      max_deletes_per_second_(
          options.max_deletes_per_second > 0 &&
                  std::isfinite(options.max_deletes_per_second)
              ? options.max_deletes_per_second
              : 0),
      min_interval_(std::max(absl::ZeroDuration(), options.min_interval)),
      wait_slice_(std::max(absl::Microseconds(100), options.wait_slice)),
      wake_cv_(&mu_),
      pass_done_cv_(&mu_),
      sleep_(options.sleep > absl::ZeroDuration() ? options.sleep
                                                  : absl::Seconds(60)),
      enabled_(options.enabled),
      batch_docs_max_(std::max<int64_t>(0, options.batch_docs_max)),
      batch_time_max_(std::max(absl::ZeroDuration(), options.batch_time_max)),
      batch_deletes_(options.batch_deletes),
      sub_pass_target_(std::max(absl::ZeroDuration(), options.sub_pass_target)),
      last_pass_end_steady_(clock->SteadyNow()) {}

TtlMonitor::~TtlMonitor() { Stop(); }

absl::Status TtlMonitor::Start() {
  MutexLock lock(&mu_);
  if (started_ || stopping()) return absl::OkStatus();
  last_pass_end_steady_ = clock_->SteadyNow();
  RETURN_IF_ERROR(StartThread(
      &thread_, [this] { ThreadMain(); }, "the TTL monitor"));
  started_ = true;
  return absl::OkStatus();
}

void TtlMonitor::Stop() {
  std::thread thread;
  {
    MutexLock lock(&mu_);
    stop_requested_.store(true, std::memory_order_release);
    wake_cv_.SignalAll();
    thread = std::move(thread_);
  }
  if (thread.joinable()) thread.join();
}

absl::Status TtlMonitor::SetSleep(absl::Duration sleep) {
  if (!(sleep > absl::ZeroDuration())) {
    return absl::InvalidArgumentError(
        "ttlMonitorSleepSecs must be greater than 0");
  }
  MutexLock lock(&mu_);
  sleep_ = sleep;
  wake_cv_.SignalAll();
  return absl::OkStatus();
}

absl::Duration TtlMonitor::sleep() const {
  MutexLock lock(&mu_);
  return sleep_;
}

bool TtlMonitor::enabled() const {
  MutexLock lock(&mu_);
  return enabled_;
}

void TtlMonitor::SetEnabled(bool enabled) {
  MutexLock lock(&mu_);
  enabled_ = enabled;
  wake_cv_.SignalAll();
}

absl::Status TtlMonitor::SetBatchDocsMax(int64_t docs) {
  if (docs < 0) {
    return absl::InvalidArgumentError("ttlIndexDeleteTargetDocs must be >= 0");
  }
  MutexLock lock(&mu_);
  batch_docs_max_ = docs;
  return absl::OkStatus();
}

absl::Status TtlMonitor::SetBatchTimeMax(absl::Duration time) {
  if (time < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "ttlIndexDeleteTargetTimeMS must be >= 0");
  }
  MutexLock lock(&mu_);
  batch_time_max_ = time;
  return absl::OkStatus();
}

void TtlMonitor::SetBatchDeletes(bool batch_deletes) {
  MutexLock lock(&mu_);
  batch_deletes_ = batch_deletes;
}

absl::Status TtlMonitor::SetSubPassTarget(absl::Duration target) {
  if (target < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "ttlMonitorSubPassTargetSecs must be >= 0");
  }
  MutexLock lock(&mu_);
  sub_pass_target_ = target;
  return absl::OkStatus();
}

int64_t TtlMonitor::batch_docs_max() const {
  MutexLock lock(&mu_);
  return batch_docs_max_;
}

absl::Duration TtlMonitor::batch_time_max() const {
  MutexLock lock(&mu_);
  return batch_time_max_;
}

bool TtlMonitor::batch_deletes() const {
  MutexLock lock(&mu_);
  return batch_deletes_;
}

absl::Duration TtlMonitor::sub_pass_target() const {
  MutexLock lock(&mu_);
  return sub_pass_target_;
}

TtlMonitor::BatchLimits TtlMonitor::CurrentLimits() const {
  MutexLock lock(&mu_);
  BatchLimits limits;
  // Without batching, or with a limit of 0, a visit deletes everything.
  limits.docs = batch_deletes_ && batch_docs_max_ > 0
                    ? batch_docs_max_
                    : std::numeric_limits<int64_t>::max();
  limits.time = batch_deletes_ && batch_time_max_ > absl::ZeroDuration()
                    ? batch_time_max_
                    : absl::InfiniteDuration();
  limits.sub_pass_target = sub_pass_target_;
  return limits;
}

bool TtlMonitor::MayContinue(bool background) const {
  if (stopping()) return false;
  if (!background) return true;
  MutexLock lock(&mu_);
  return enabled_;
}

void TtlMonitor::NotifyExpiry(absl::Time expires_at) {
  if (!exact_wakeup_) return;
  MutexLock lock(&mu_);
  KeepMin(&notified_during_pass_, expires_at);
  if (!next_expiry_wall_.has_value() || expires_at < *next_expiry_wall_) {
    next_expiry_wall_ = expires_at;
    wake_cv_.SignalAll();
  }
}

void TtlMonitor::CountDeletedByWrite(int64_t documents, int64_t keys) {
  MutexLock lock(&mu_);
  metrics_.deleted_documents += documents;
  metrics_.deleted_keys += keys;
  metrics_.deleted_by_writes += documents;
}

TtlPassStats TtlMonitor::RunPass(absl::Time now) {
  MutexLock pass_lock(&pass_mu_);
  return RunPassLocked(now, /*background=*/false);
}

TtlMetrics TtlMonitor::metrics() const {
  MutexLock lock(&mu_);
  return metrics_;
}

int64_t TtlMonitor::TEST_background_passes() const {
  MutexLock lock(&mu_);
  return background_passes_;
}

bool TtlMonitor::TEST_WaitForBackgroundPasses(int64_t n,
                                              absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  MutexLock lock(&mu_);
  while (background_passes_ < n) {
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) return false;
    pass_done_cv_.WaitFor(left);
  }
  return true;
}

std::optional<absl::Time> TtlMonitor::TEST_next_expiry() const {
  MutexLock lock(&mu_);
  return next_expiry_wall_;
}

bool TtlMonitor::WaitForRateCap() {
  if (max_deletes_per_second_ <= 0) return !stopping();
  // Real time on purpose: the cap protects real resources, and a FakeClock
  // that never moves must not hang a pass.
  Clock* real = Clock::Real();
  MutexLock lock(&mu_);
  while (!stopping()) {
    const absl::Duration left = rate_next_allowed_ - real->SteadyNow();
    if (left <= absl::ZeroDuration()) break;
    wake_cv_.WaitFor(left);
  }
  return !stopping();
}

TtlPassStats TtlMonitor::RunPassLocked(absl::Time now, bool background) {
  TtlPassStats stats;
  if (stopping()) return stats;
  const absl::Time start = clock_->SteadyNow();
  {
    MutexLock lock(&mu_);
    notified_during_pass_.reset();
  }

  // Indexes whose batch failed sit out the rest of the pass.
  std::set<std::pair<uint32_t, uint32_t>> failed;
  auto key = [](const TtlIndexRef& ref) {
    return std::make_pair(ref.collection_id, ref.index_id);
  };
  std::string last_error;
  std::vector<TtlIndexRef> listed;  // the last sub-pass's listing
  bool more = true;
  bool interrupted = false;
  while (more && !interrupted && MayContinue(background)) {
    // One sub-pass: the TTL indexes as they are now (an index created
    // during a long pass is not starved), round-robin until no work is left
    // or the sub-pass target has passed.
    ++stats.sub_passes;
    listed = store_->ListTtlIndexes();
    std::vector<TtlIndexRef> work;
    for (const TtlIndexRef& ref : listed) {
      if (failed.count(key(ref)) > 0) continue;
      if (IsActive(ref)) {
        work.push_back(ref);
      } else {
        ++stats.invalid_index_skips;  // once per sub-pass, as MongoDB
        if (logger_) {
          logger_(LogLevel::kWarning,
                  absl::StrCat("TTL: skipping index '", ref.index_name,
                               "' of collection '", ref.collection,
                               "': its expireAfterSeconds is invalid"));
        }
      }
    }
    const absl::Time sub_pass_start = clock_->SteadyNow();
    absl::Duration target = CurrentLimits().sub_pass_target;
    do {
      ++stats.rounds;
      std::vector<TtlIndexRef> again;
      for (const TtlIndexRef& listed_ref : work) {
        TTLDB_SYNC_POINT("TtlMonitor::NextBatch");
        if (!MayContinue(background) || !WaitForRateCap()) {
          interrupted = true;
          break;
        }
        TTLDB_SYNC_POINT("TtlMonitor::BeforeBatch");
        // Re-read the index: a collMod that raised E, a drop or a change
        // that made it invalid applies from this batch on (MongoDB re-reads
        // the spec in every _deleteExpiredWithIndex).
        std::optional<TtlIndexRef> ref = store_->GetTtlIndex(listed_ref);
        TTLDB_SYNC_POINT("TtlMonitor::SpecRead");
        if (!ref.has_value()) continue;
        if (!IsActive(*ref)) continue;
        const BatchLimits limits = CurrentLimits();
        target = limits.sub_pass_target;
        const absl::Time cutoff =
            now - absl::Seconds(*ref->expire_after_seconds);
        const absl::Time real_batch_start = Clock::Real()->SteadyNow();
        const absl::Time deadline = clock_->SteadyNow() + limits.time;
        absl::StatusOr<TtlBatchResult> result = store_->DeleteExpired(
            *ref, cutoff,
            RateCappedBatchDocs(limits.docs, max_deletes_per_second_),
            deadline);
        if (!result.ok()) {
          // Leave this index for the next pass; the others go on.
          ++stats.failed_batches;
          failed.insert(key(*ref));
          last_error = std::string(result.status().ToString());
          if (logger_) {
            logger_(LogLevel::kWarning,
                    absl::StrCat("TTL: a batch of index '", ref->index_name,
                                 "' of collection '", ref->collection,
                                 "' failed (retried next pass): ", last_error));
          }
          continue;
        }
        stats.deleted_documents += result->deleted_documents;
        stats.deleted_keys += result->deleted_keys;
        stats.examined_keys += result->examined_keys;
        stats.examined_documents += result->examined_documents;
        rate_next_allowed_ = RateCapNextAllowed(
            rate_next_allowed_, real_batch_start, result->deleted_documents,
            max_deletes_per_second_);
        // A batch that reports more but deleted nothing made no progress;
        // revisiting it would loop, so it waits for the next pass (or the
        // next sub-pass). One whose spec changed under it is retried with
        // the spec re-read.
        if (result->more &&
            (result->deleted_documents > 0 || result->spec_changed)) {
          again.push_back(*ref);
        }
      }
      work = std::move(again);
    } while (!work.empty() && !interrupted &&
             clock_->SteadyNow() - sub_pass_start < target);
    more = !work.empty();
  }

  // What is left: the oldest expired-but-present document (lag) and the
  // next expiry after the cutoff (exact wake-up). An index whose earliest
  // document is already expired (its batch failed) tells nothing about its
  // next expiry; it waits for the regular interval.
  std::optional<absl::Time> oldest_expired;
  std::optional<absl::Time> next_expiry;
  for (const TtlIndexRef& listed_ref : listed) {
    if (stopping()) break;
    // E as it is now (a collMod may have changed it during the pass).
    std::optional<TtlIndexRef> ref = store_->GetTtlIndex(listed_ref);
    if (!ref.has_value() || !IsActive(*ref)) continue;
    std::optional<absl::Time> earliest = store_->EarliestDate(*ref);
    if (!earliest.has_value()) continue;
    const absl::Time expiry =
        *earliest + absl::Seconds(*ref->expire_after_seconds);
    KeepMin(expiry <= now ? &oldest_expired : &next_expiry, expiry);
  }

  // The store's own upkeep after the deletions (the change log's
  // retention), timed with the pass.
  if (!stopping()) store_->AfterPass(now);

  const absl::Time end = clock_->SteadyNow();
  stats.duration = end - start;
  TTLDB_SYNC_POINT("TtlMonitor::PassEnd");
  if (logger_) {
    logger_(stats.deleted_documents > 0 ? LogLevel::kInfo : LogLevel::kDebug,
            absl::StrCat(
                "TTL pass", background ? "" : " (on demand)", ": deleted ",
                stats.deleted_documents, " documents and ", stats.deleted_keys,
                " index keys; examined ", stats.examined_keys, " keys and ",
                stats.examined_documents, " documents in ", stats.sub_passes,
                " sub-passes; ", stats.failed_batches, " failed batches; took ",
                absl::FormatDuration(stats.duration)));
  }

  MutexLock lock(&mu_);
  metrics_.passes += 1;
  metrics_.sub_passes += stats.sub_passes;
  metrics_.deleted_documents += stats.deleted_documents;
  metrics_.deleted_keys += stats.deleted_keys;
  metrics_.examined_keys += stats.examined_keys;
  metrics_.examined_documents += stats.examined_documents;
  metrics_.total_duration += stats.duration;
  metrics_.invalid_ttl_index_skips += stats.invalid_index_skips;
  metrics_.failed_batches += stats.failed_batches;
  if (!last_error.empty()) metrics_.last_error = last_error;
  metrics_.last_pass_duration = stats.duration;
  metrics_.last_pass_end = clock_->WallNow();
  metrics_.oldest_expired_present = oldest_expired;
  last_pass_end_steady_ = end;
  if (notified_during_pass_.has_value()) {
    KeepMin(&next_expiry, *notified_during_pass_);
    notified_during_pass_.reset();
  }
  next_expiry_wall_ = next_expiry;
  return stats;
}

void TtlMonitor::ThreadMain() {
  // Passes are background work: a foreground writer or reader that wants
  // a core goes first (issue 29 item 5, tools/bench/expiry_stall_bench).
  LowerCurrentThreadPriority();
  if (exact_wakeup_) {
    // Learn what is already due so that a database opened with expired
    // documents sweeps them soon rather than after a full interval.
    std::optional<absl::Time> first;
    {
      MutexLock pass_lock(&pass_mu_);
      if (!stopping()) {
        for (const TtlIndexRef& ref : store_->ListTtlIndexes()) {
          if (!IsActive(ref)) continue;
          std::optional<absl::Time> earliest = store_->EarliestDate(ref);
          if (earliest.has_value()) {
            KeepMin(&first,
                    *earliest + absl::Seconds(*ref.expire_after_seconds));
          }
        }
      }
    }
    if (first.has_value()) {
      MutexLock lock(&mu_);
      KeepMin(&next_expiry_wall_, *first);
    }
  }

  mu_.Lock();
  while (!stopping()) {
    const absl::Time steady_now = clock_->SteadyNow();
    const absl::Time due =
        NextPassSteadyTime(last_pass_end_steady_, sleep_,
                           exact_wakeup_ ? next_expiry_wall_ : std::nullopt,
                           clock_->WallNow(), steady_now, min_interval_);
    if (!enabled_ || steady_now < due) {
      const absl::Duration wait =
          enabled_ ? std::min(due - steady_now, wait_slice_) : wait_slice_;
      wake_cv_.WaitFor(wait);
      continue;
    }
    mu_.Unlock();
    {
      MutexLock pass_lock(&pass_mu_);
      RunPassLocked(clock_->WallNow(), /*background=*/true);
    }
    mu_.Lock();
    ++background_passes_;
    pass_done_cv_.SignalAll();
  }
  mu_.Unlock();
}

}  // namespace ttldb
