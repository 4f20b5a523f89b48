// An in-memory TtlStore for tests: each index is a sorted multiset of Dates
// (kept as date -> count, so a million expired entries cost one map node),
// and DeleteExpired honours max_docs and reports `more` honestly. Failures
// can be injected per index. Thread-safe.
#ifndef TTLDB_TTL_FAKE_TTL_STORE_H_
#define TTLDB_TTL_FAKE_TTL_STORE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "base/mutex.h"
#include "ttl/ttl_store.h"

namespace ttldb {

class FakeTtlStore : public TtlStore {
 public:
  struct Call {
    uint32_t index_id;
    absl::Time cutoff;
    int64_t max_docs;
    absl::Time deadline;
  };

  // Adds an index (its index_id must be new). Each deleted document removes
  // `keys_per_doc` index entries.
  void AddIndex(const TtlIndexRef& ref, int64_t keys_per_doc = 1);
  // Adds `count` documents whose indexed Date is `date`.
  void AddDates(uint32_t index_id, absl::Time date, int64_t count = 1);
  // Changes the index's expireAfterSeconds (a collMod), or removes the
  // index (a drop).
  void SetExpireAfterSeconds(uint32_t index_id, std::optional<int64_t> e);
  void RemoveIndex(uint32_t index_id);
  // The next `n` DeleteExpired calls on the index fail with `error`
  // (n < 0: every call).
  void FailBatches(uint32_t index_id, int n,
                   absl::Status error = absl::UnavailableError("disk on fire"));

  int64_t Remaining(uint32_t index_id) const;
  std::vector<Call> calls() const;
  int64_t list_calls() const;
  // The most DeleteExpired calls ever in progress at once.
  int max_concurrent_batches() const;

  std::vector<TtlIndexRef> ListTtlIndexes() override;
  std::optional<TtlIndexRef> GetTtlIndex(const TtlIndexRef& index) override;
  absl::StatusOr<TtlBatchResult> DeleteExpired(const TtlIndexRef& index,
                                               absl::Time cutoff,
                                               int64_t max_docs,
                                               absl::Time deadline) override;
  std::optional<absl::Time> EarliestDate(const TtlIndexRef& index) override;

 private:
  struct Index {
    TtlIndexRef ref;
    int64_t keys_per_doc = 1;
    std::map<absl::Time, int64_t> dates;  // date -> number of documents
    int fail_remaining = 0;
    absl::Status error;
  };

  mutable Mutex mu_;
  std::vector<Index> indexes_ ABSL_GUARDED_BY(mu_);  // in AddIndex order
  std::vector<Call> calls_ ABSL_GUARDED_BY(mu_);
  int64_t list_calls_ ABSL_GUARDED_BY(mu_) = 0;
  int in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  int max_in_flight_ ABSL_GUARDED_BY(mu_) = 0;

  absl::StatusOr<TtlBatchResult> DeleteExpiredImpl(const TtlIndexRef& index,
                                                   absl::Time cutoff,
                                                   int64_t max_docs,
                                                   absl::Time deadline);
  Index* Find(uint32_t index_id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
};

}  // namespace ttldb

#endif  // TTLDB_TTL_FAKE_TTL_STORE_H_
