#include "ttl/ttl_store.h"

namespace ttldb {

std::optional<TtlIndexRef> TtlStore::GetTtlIndex(const TtlIndexRef& index) {
  for (TtlIndexRef& ref : ListTtlIndexes()) {
    if (ref.collection_id == index.collection_id &&
        ref.index_id == index.index_id) {
      return std::move(ref);
    }
  }
  return std::nullopt;
}

}  // namespace ttldb
