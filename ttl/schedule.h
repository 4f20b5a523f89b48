// The TTL monitor's timing decisions as pure functions, so that tests check
// them without threads: when the next pass starts (regular interval or
// exact wake-up), and how the rate cap spaces batches.
#ifndef TTLDB_TTL_SCHEDULE_H_
#define TTLDB_TTL_SCHEDULE_H_

#include <cstdint>
#include <optional>

#include "absl/time/time.h"

namespace ttldb {

// The steady-clock time at which the next pass should start.
//
// Regularly `last_pass_end_steady + sleep` (MongoDB: ttlMonitorSleepSecs
// measured from the end of the previous pass). With exact wake-up, when the
// next known expiry `next_expiry_wall` (wall clock) comes sooner, the pass
// starts at that expiry instead, translated to the steady clock through the
// current readings (`wall_now`, `steady_now`) — but never sooner than
// `last_pass_end_steady + min_interval`, so that a document expiring every
// millisecond cannot turn the monitor into a busy loop.
absl::Time NextPassSteadyTime(absl::Time last_pass_end_steady,
                              absl::Duration sleep,
                              std::optional<absl::Time> next_expiry_wall,
                              absl::Time wall_now, absl::Time steady_now,
                              absl::Duration min_interval);

// The rate cap: at most `max_per_second` deletions per second in the long
// run (0 or less: no cap).
//
// The documents one batch may delete: `batch_docs_max` without a cap, else
// about one second's worth (at least 1, at most `batch_docs_max`).
int64_t RateCappedBatchDocs(int64_t batch_docs_max, double max_per_second);

// After a batch that started at `batch_start` (steady) and deleted
// `deleted` documents, the steady time before which the next batch must not
// start: max(previous, batch_start) + deleted / max_per_second. Carried
// across passes, this keeps every window's rate at most the cap plus one
// batch; idle time earns no burst credit. Without a cap: `previous`.
absl::Time RateCapNextAllowed(absl::Time previous, absl::Time batch_start,
                              int64_t deleted, double max_per_second);

}  // namespace ttldb

#endif  // TTLDB_TTL_SCHEDULE_H_
