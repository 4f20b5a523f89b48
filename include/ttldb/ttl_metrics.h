// Counters of the TTL monitor, named as MongoDB's serverStatus metrics.ttl.
#ifndef TTLDB_TTL_METRICS_H_
#define TTLDB_TTL_METRICS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/time/time.h"

namespace ttldb {

// What one pass did.
struct TtlPassStats {
  // MongoDB's sub-passes: each lists the TTL indexes afresh and loops rounds
  // (one batch per index with work left) until none is left or
  // ttlMonitorSubPassTargetSecs has passed; a pass repeats sub-passes until
  // one ends with no work left.
  int64_t sub_passes = 0;
  int64_t rounds = 0;  // rounds over the TTL indexes, in all sub-passes
  int64_t deleted_documents = 0;
  int64_t deleted_keys = 0;        // index entries removed (all indexes)
  int64_t examined_keys = 0;       // TTL index entries scanned
  int64_t examined_documents = 0;  // documents read to decide
  int64_t invalid_index_skips = 0;
  int64_t failed_batches = 0;  // batches that returned an error
  absl::Duration duration = absl::ZeroDuration();
};

// Cumulative since Open.
struct TtlMetrics {
  int64_t passes = 0;              // MongoDB: metrics.ttl.passes
  int64_t sub_passes = 0;          // metrics.ttl.subPasses
  int64_t deleted_documents = 0;   // metrics.ttl.deletedDocuments
  int64_t deleted_keys = 0;        // metrics.ttl.deletedKeys
  int64_t examined_keys = 0;       // metrics.ttl.examinedKeys
  int64_t examined_documents = 0;  // metrics.ttl.examinedDocuments
  // The time spent in passes, summed (metrics.ttl.durationMicros).
  absl::Duration total_duration = absl::ZeroDuration();
  int64_t invalid_ttl_index_skips = 0;  // metrics.ttl.invalidTTLIndexSkips
  int64_t failed_batches = 0;
  // Beyond MongoDB: how many of deleted_documents (and their keys, counted
  // in deleted_keys) a write removed instead of the monitor, because the
  // write collided (on _id or a unique key) with the expired document while
  // Options::hide_expired hid it (docs/ttl.md, "Hidden means absent").
  int64_t deleted_by_writes = 0;
  // Beyond MongoDB: how far behind the monitor is.
  absl::Duration last_pass_duration = absl::ZeroDuration();
  std::optional<absl::Time> last_pass_end;  // wall time
  // The expiry time (date + expireAfterSeconds) of the oldest document that
  // is expired but still present, as of the end of the last pass; absent
  // when none. Its age is the monitor's lag.
  std::optional<absl::Time> oldest_expired_present;
  // The status text of the most recent failed batch; empty when none ever
  // failed. Kept after later passes succeed (failed_batches says how many).
  std::string last_error;
};

}  // namespace ttldb

#endif  // TTLDB_TTL_METRICS_H_
