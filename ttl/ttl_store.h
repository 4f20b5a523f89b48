// The storage operations the TTL monitor needs, declared here so that ttl/
// does not depend on engine/ (the engine implements this interface).
#ifndef TTLDB_TTL_TTL_STORE_H_
#define TTLDB_TTL_TTL_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace ttldb {

// One TTL index as the monitor sees it.
struct TtlIndexRef {
  std::string collection;
  uint32_t collection_id = 0;
  uint32_t index_id = 0;
  std::string index_name;
  // The validated expireAfterSeconds; std::nullopt when the stored value is
  // invalid (the index is inactive: skipped and counted, never read as 0).
  std::optional<int64_t> expire_after_seconds;
};

struct TtlBatchResult {
  int64_t deleted_documents = 0;
  int64_t deleted_keys = 0;
  // TTL index entries the scan visited and documents it read (MongoDB's
  // examinedKeys / examinedDocuments; ttldb reads a document only when the
  // entry alone cannot say what to delete).
  int64_t examined_keys = 0;
  int64_t examined_documents = 0;
  // True when the batch stopped at a limit with expired entries left.
  bool more = false;
  // True when the index's expireAfterSeconds is no longer the one `index`
  // carried (collMod since the monitor read it): the batch stopped before
  // deleting anything under the old value. The monitor re-reads the index
  // and tries again.
  bool spec_changed = false;
};

class TtlStore {
 public:
  virtual ~TtlStore() = default;

  // Every TTL index of every collection, valid or not, in a stable order.
  virtual std::vector<TtlIndexRef> ListTtlIndexes() = 0;

  // The current state of `index` (same collection_id and index_id), with
  // its expireAfterSeconds as it is now; std::nullopt once the index or its
  // collection is gone or the index is no longer a TTL index. The monitor
  // calls it before every batch, so that a collMod, a drop or a rename
  // takes effect within one batch. The default searches ListTtlIndexes.
  virtual std::optional<TtlIndexRef> GetTtlIndex(const TtlIndexRef& index);

  // Deletes documents of `index` whose indexed Date is <= `cutoff`: at most
  // `max_docs` documents, stopping once the steady clock passes `deadline`.
  // Each document is re-checked under the writers' lock and deleted with
  // all its index entries in one WriteBatch; one no longer expired (touched
  // meanwhile) is kept, one already deleted is not counted. Nothing is
  // deleted unless the index's current expireAfterSeconds is still
  // index.expire_after_seconds (else spec_changed), so a cutoff computed
  // from an older value never applies; a catalog change during the batch
  // ends it (with `more` set when entries may be left).
  virtual absl::StatusOr<TtlBatchResult> DeleteExpired(const TtlIndexRef& index,
                                                       absl::Time cutoff,
                                                       int64_t max_docs,
                                                       absl::Time deadline) = 0;

  // The smallest Date indexed by `index` (present documents), if any: the
  // monitor derives the next expiry and its lag from it.
  virtual std::optional<absl::Time> EarliestDate(const TtlIndexRef& index) = 0;

  // Called at the end of every pass with the pass's wall time, for the
  // store's own bounded upkeep (the engine trims its change log here).
  // The default does nothing.
  virtual void AfterPass(absl::Time now) {}
};

}  // namespace ttldb

#endif  // TTLDB_TTL_TTL_STORE_H_
