#include "engine/index_usage.h"

namespace ttldb {

IndexUsage::IndexUsage(Clock* clock)
    : clock_(clock), opened_(clock->WallNow()) {}

void IndexUsage::RecordAccess(uint32_t collection_id, uint32_t index_id) {
  MutexLock lock(&mu_);
  auto [it, inserted] = accesses_.try_emplace(Key(collection_id, index_id));
  if (inserted) it->second.since = opened_;
  ++it->second.ops;
}

void IndexUsage::RecordCollectionScan(uint32_t collection_id) {
  MutexLock lock(&mu_);
  ++collection_scans_[collection_id];
}

void IndexUsage::Reset(uint32_t collection_id, uint32_t index_id) {
  const absl::Time now = clock_->WallNow();
  MutexLock lock(&mu_);
  accesses_[Key(collection_id, index_id)] = Accesses{0, now};
  if (index_id == kIdIndexId) collection_scans_.erase(collection_id);
}

IndexUsage::Accesses IndexUsage::Get(uint32_t collection_id,
                                     uint32_t index_id) const {
  MutexLock lock(&mu_);
  auto it = accesses_.find(Key(collection_id, index_id));
  if (it == accesses_.end()) return Accesses{0, opened_};
  return it->second;
}

int64_t IndexUsage::CollectionScans(uint32_t collection_id) const {
  MutexLock lock(&mu_);
  auto it = collection_scans_.find(collection_id);
  return it == collection_scans_.end() ? 0 : it->second;
}

}  // namespace ttldb
