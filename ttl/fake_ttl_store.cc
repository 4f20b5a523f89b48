#include "ttl/fake_ttl_store.h"

#include <algorithm>
#include <cassert>
#include <thread>

namespace ttldb {

FakeTtlStore::Index* FakeTtlStore::Find(uint32_t index_id) {
  for (Index& index : indexes_) {
    if (index.ref.index_id == index_id) return &index;
  }
  return nullptr;
}

void FakeTtlStore::AddIndex(const TtlIndexRef& ref, int64_t keys_per_doc) {
  MutexLock lock(&mu_);
  assert(Find(ref.index_id) == nullptr);
  Index index;
  index.ref = ref;
  index.keys_per_doc = keys_per_doc;
  indexes_.push_back(std::move(index));
}

void FakeTtlStore::AddDates(uint32_t index_id, absl::Time date, int64_t count) {
  MutexLock lock(&mu_);
  Index* index = Find(index_id);
  assert(index != nullptr);
  index->dates[date] += count;
}

void FakeTtlStore::SetExpireAfterSeconds(uint32_t index_id,
                                         std::optional<int64_t> e) {
  MutexLock lock(&mu_);
  Index* index = Find(index_id);
  assert(index != nullptr);
  index->ref.expire_after_seconds = e;
}

void FakeTtlStore::RemoveIndex(uint32_t index_id) {
  MutexLock lock(&mu_);
  for (auto it = indexes_.begin(); it != indexes_.end(); ++it) {
    if (it->ref.index_id == index_id) {
      indexes_.erase(it);
      return;
    }
  }
}

std::optional<TtlIndexRef> FakeTtlStore::GetTtlIndex(const TtlIndexRef& ref) {
  MutexLock lock(&mu_);
  Index* index = Find(ref.index_id);
  if (index == nullptr) return std::nullopt;
  return index->ref;
}

void FakeTtlStore::FailBatches(uint32_t index_id, int n, absl::Status error) {
  MutexLock lock(&mu_);
  Index* index = Find(index_id);
  assert(index != nullptr);
  index->fail_remaining = n;
  index->error = std::move(error);
}

int64_t FakeTtlStore::Remaining(uint32_t index_id) const {
  MutexLock lock(&mu_);
  int64_t total = 0;
  for (const Index& index : indexes_) {
    if (index.ref.index_id != index_id) continue;
    for (const auto& [date, count] : index.dates) total += count;
  }
  return total;
}

std::vector<FakeTtlStore::Call> FakeTtlStore::calls() const {
  MutexLock lock(&mu_);
  return calls_;
}

int64_t FakeTtlStore::list_calls() const {
  MutexLock lock(&mu_);
  return list_calls_;
}

std::vector<TtlIndexRef> FakeTtlStore::ListTtlIndexes() {
  MutexLock lock(&mu_);
  ++list_calls_;
  std::vector<TtlIndexRef> out;
  for (const Index& index : indexes_) out.push_back(index.ref);
  return out;
}

int FakeTtlStore::max_concurrent_batches() const {
  MutexLock lock(&mu_);
  return max_in_flight_;
}

absl::StatusOr<TtlBatchResult> FakeTtlStore::DeleteExpired(
    const TtlIndexRef& ref, absl::Time cutoff, int64_t max_docs,
    absl::Time deadline) {
  {
    // Outside the main critical section, so that overlapping calls (which
    // the monitor must never make) would be seen.
    MutexLock lock(&mu_);
    max_in_flight_ = std::max(max_in_flight_, ++in_flight_);
  }
  std::this_thread::yield();
  absl::StatusOr<TtlBatchResult> result =
      DeleteExpiredImpl(ref, cutoff, max_docs, deadline);
  MutexLock lock(&mu_);
  --in_flight_;
  return result;
}

absl::StatusOr<TtlBatchResult> FakeTtlStore::DeleteExpiredImpl(
    const TtlIndexRef& ref, absl::Time cutoff, int64_t max_docs,
    absl::Time deadline) {
  MutexLock lock(&mu_);
  calls_.push_back(Call{ref.index_id, cutoff, max_docs, deadline});
  Index* index = Find(ref.index_id);
  if (index == nullptr) return absl::NotFoundError("no such index");
  if (index->fail_remaining != 0) {
    if (index->fail_remaining > 0) --index->fail_remaining;
    return index->error;
  }
  TtlBatchResult result;
  if (index->ref.expire_after_seconds != ref.expire_after_seconds) {
    result.more = true;
    result.spec_changed = true;
    return result;
  }
  auto it = index->dates.begin();
  while (it != index->dates.end() && it->first <= cutoff) {
    if (result.deleted_documents == max_docs) {
      result.more = true;
      break;
    }
    const int64_t take =
        std::min(it->second, max_docs - result.deleted_documents);
    result.deleted_documents += take;
    it->second -= take;
    if (it->second == 0) {
      it = index->dates.erase(it);
    }
  }
  result.deleted_keys = result.deleted_documents * index->keys_per_doc;
  result.examined_keys = result.deleted_documents;
  return result;
}

std::optional<absl::Time> FakeTtlStore::EarliestDate(const TtlIndexRef& ref) {
  MutexLock lock(&mu_);
  Index* index = Find(ref.index_id);
  if (index == nullptr || index->dates.empty()) return std::nullopt;
  return index->dates.begin()->first;
}

}  // namespace ttldb
