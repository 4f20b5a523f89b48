// How many entries each ascending single-field TTL index holds below the
// Date bracket (null and missing, numbers, strings, objects, BinData,
// ObjectIds, booleans: every type MongoDB orders before Date), kept so a
// scan that starts at the low end of the index can start at the Dates when
// there is none (issue 19).
//
// Why: a TTL pass leaves a run of tombstones at the bottom of the Date
// bracket. SkipExpiredEntries (engine/query_exec.h) removes the expired
// Dates from a scan's ranges, but a range that starts below the bracket (a
// sort on the whole index, find({}).sort({at: 1})) still begins with a
// LevelDB Seek there, and LevelDB's Seek steps over every tombstone up to
// the first live key (it has no iterator upper bound). When this count is
// 0 the scan drops the part of its ranges below the bracket and seeks
// straight to the first live Date, so the pass's compaction can run in the
// background.
//
// Consistency with a reader's snapshot: a writer that adds entries below
// the bracket raises the count before it commits, and one that removes
// entries lowers it after its commit; a reader reads the count before AND
// after taking its snapshot and skips only when both are 0. An entry the
// snapshot holds was either added (its commit precedes the snapshot, so
// the raise precedes the read after) or not yet removed when the snapshot
// was taken (the lowering follows the snapshot, so the read before still
// counts it). A failed commit leaves the count too high (only
// conservative). All under the writers' lock on the writers' side.
//
// An index is counted (under the writers' lock, by one scan of its entries
// below the bracket) at open and when it is first published with a TTL;
// an index with more than kMaxCounted such entries is not tracked (its
// scans find a live entry at once and need no help). An index that is not
// tracked is never skipped. Descending indexes are not tracked: their
// expired Dates lie at the END of the Date bracket in key order, after the
// live ones, so a scan from the low end meets them only once it has
// passed every live Date.
//
// Thread-safe. Internal to the engine.
#ifndef TTLDB_STORAGE_LEADING_ENTRIES_H_
#define TTLDB_STORAGE_LEADING_ENTRIES_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "base/mutex.h"

namespace ttldb {

struct IndexState;

class LeadingEntries {
 public:
  // Beyond this many entries below the bracket an index is not tracked.
  static constexpr int64_t kMaxCounted = 10'000;

  // Whether `index` is one this class tracks: an active TTL index on one
  // field, ascending.
  static bool Eligible(const IndexState& index);
  // The first key of the Date bracket of ascending index `prefix`.
  static std::string DateBracket(absl::string_view prefix);
  // Whether the entry `key` of an ascending index with this prefix lies
  // below the Date bracket.
  static bool IsBelowDates(absl::string_view key, size_t prefix_size);

  // Starts (or restarts) tracking `prefix` with this count.
  void Set(const std::string& prefix, int64_t count);
  // Records that `prefix` was counted and is not tracked (too many entries,
  // or the count failed): Add leaves it so (no sum of deltas from an
  // unknown start can reach 0), Get says it is not tracked, and Known that
  // it need not be counted again; until Set or Erase.
  void SetNotTracked(const std::string& prefix);
  // Forgets `prefix` (tracked or not).
  void Erase(const std::string& prefix);
  // Adds `delta` to a tracked count (nothing if `prefix` is not tracked).
  void Add(const std::string& prefix, int64_t delta);
  // The count, if `prefix` is tracked.
  std::optional<int64_t> Get(const std::string& prefix) const;
  // Whether `prefix` was counted since its last Erase (tracked or not).
  bool Known(const std::string& prefix) const;
  // Whether `prefix` is tracked and holds no entry below the bracket.
  bool KnownNone(const std::string& prefix) const {
    std::optional<int64_t> n = Get(prefix);
    return n.has_value() && *n == 0;
  }

 private:
  mutable Mutex mu_;
  // kNotTracked: counted, not tracked (SetNotTracked).
  static constexpr int64_t kNotTracked = -1;
  std::map<std::string, int64_t, std::less<>> counts_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ttldb

#endif  // TTLDB_STORAGE_LEADING_ENTRIES_H_
