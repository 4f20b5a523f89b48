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
  // True when the batch stopped at a limit with expired entries left.
  bool more = false;
};

class TtlStore {
 public:
  virtual ~TtlStore() = default;

  // Every TTL index of every collection, valid or not, in a stable order.
  virtual std::vector<TtlIndexRef> ListTtlIndexes() = 0;

  // Deletes documents of `index` whose indexed Date is <= `cutoff`: at most
  // `max_docs` documents, stopping once the steady clock passes `deadline`.
  // Each document is re-checked under the writers' lock and deleted with
  // all its index entries in one WriteBatch; one no longer expired (touched
  // meanwhile) is kept, one already deleted is not counted.
  virtual absl::StatusOr<TtlBatchResult> DeleteExpired(const TtlIndexRef& index,
                                                       absl::Time cutoff,
                                                       int64_t max_docs,
                                                       absl::Time deadline) = 0;

  // The smallest Date indexed by `index` (present documents), if any: the
  // monitor derives the next expiry and its lag from it.
  virtual std::optional<absl::Time> EarliestDate(const TtlIndexRef& index) = 0;
};

}  // namespace ttldb

#endif  // TTLDB_TTL_TTL_STORE_H_
