#include "storage/collection_state.h"

namespace ttldb {

bool CollectionState::has_active_ttl() const {
  for (const auto& idx : indexes) {
    if (idx->ttl_seconds.has_value()) return true;
  }
  return false;
}

const IndexState* CollectionState::FindIndex(absl::string_view name) const {
  for (const auto& idx : indexes) {
    if (idx->spec.name == name) return idx.get();
  }
  return nullptr;
}

}  // namespace ttldb
