#include "engine/doc_cache.h"

#include <utility>

#include "absl/hash/hash.h"

namespace ttldb {

DocCache::DocCache(size_t capacity_bytes)
    : shard_capacity_(capacity_bytes / kShards) {}

DocCache::Shard& DocCache::ShardOf(absl::string_view key) {
  return shards_[absl::Hash<absl::string_view>()(key) % kShards];
}

void DocCache::EraseLocked(Shard& s, absl::string_view key) {
  auto it = s.map.find(key);
  if (it == s.map.end()) return;
  auto entry = it->second;
  s.map.erase(it);
  s.used -= entry->charge;
  s.lru.erase(entry);
}

std::shared_ptr<const Value> DocCache::Lookup(absl::string_view key) {
  Shard& s = ShardOf(key);
  MutexLock l(&s.mu);
  auto it = s.map.find(key);
  if (it == s.map.end()) return nullptr;
  if (it->second != s.lru.begin()) {
    s.lru.splice(s.lru.begin(), s.lru, it->second);
  }
  return it->second->doc;
}

bool DocCache::Admit(absl::string_view key, size_t charge) {
  if (charge > shard_capacity_) return false;
  Shard& s = ShardOf(key);
  MutexLock l(&s.mu);
  if (s.used + charge <= shard_capacity_) return true;
  return ++s.misses % 8 == 0;
}

uint64_t DocCache::Ticket(absl::string_view key) {
  Shard& s = ShardOf(key);
  MutexLock l(&s.mu);
  return s.seq;
}

void DocCache::Insert(absl::string_view key, std::shared_ptr<const Value> doc,
                      size_t charge, uint64_t ticket) {
  if (charge > shard_capacity_) return;
  Shard& s = ShardOf(key);
  MutexLock l(&s.mu);
  if (s.seq != ticket || s.writes_in_flight > 0) return;
  PutLocked(s, key, std::move(doc), charge);
}

void DocCache::PutLocked(Shard& s, absl::string_view key,
                         std::shared_ptr<const Value> doc, size_t charge) {
  EraseLocked(s, key);
  s.lru.push_front(Entry{std::string(key), std::move(doc), charge});
  s.map.emplace(absl::string_view(s.lru.front().key), s.lru.begin());
  s.used += charge;
  while (s.used > shard_capacity_ && !s.lru.empty()) {
    EraseLocked(s, s.lru.back().key);
  }
}

void DocCache::EndWriteWith(absl::string_view key,
                            std::shared_ptr<const Value> doc, size_t charge) {
  Shard& s = ShardOf(key);
  MutexLock l(&s.mu);
  EraseLocked(s, key);
  ++s.seq;
  --s.writes_in_flight;
  if (charge <= shard_capacity_) PutLocked(s, key, std::move(doc), charge);
}

void DocCache::BeginWrite(absl::string_view key) {
  Shard& s = ShardOf(key);
  MutexLock l(&s.mu);
  EraseLocked(s, key);
  ++s.seq;
  ++s.writes_in_flight;
}

void DocCache::EndWrite(absl::string_view key) {
  Shard& s = ShardOf(key);
  MutexLock l(&s.mu);
  EraseLocked(s, key);
  ++s.seq;
  --s.writes_in_flight;
}

size_t DocCache::size() {
  size_t n = 0;
  for (Shard& s : shards_) {
    MutexLock l(&s.mu);
    n += s.map.size();
  }
  return n;
}

}  // namespace ttldb
