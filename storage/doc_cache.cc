#include "storage/doc_cache.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/hash/hash.h"
#include "document/storable.h"

namespace ttldb {
namespace {

using doc_cache_internal::Chunk;
using doc_cache_internal::kMaxExactDepth;
using doc_cache_internal::StringHeap;

bool ReparsesIdenticallyAt(const Value& v, int depth) {
  switch (v.type()) {
    case ValueType::kDouble:
      return !std::isnan(v.double_value());
    case ValueType::kDecimal: {
      // Non-canonical bits (-NaN, payloads) print as their canonical text.
      absl::StatusOr<Decimal128> back =
          Decimal128::FromString(v.decimal_value().ToString());
      return back.ok() && *back == v.decimal_value();
    }
    case ValueType::kString:
      return IsValidUtf8(v.string_value());
    case ValueType::kRegex: {
      const Regex& re = v.regex_value();
      return IsValidUtf8(re.pattern) &&
             std::all_of(
                 re.options.begin(), re.options.end(),
                 [](char c) { return static_cast<unsigned char>(c) < 0x80; }) &&
             std::is_sorted(re.options.begin(), re.options.end());
    }
    case ValueType::kObject:
      if (depth >= kMaxExactDepth) return false;
      for (const auto& [name, child] : v.object_fields()) {
        if (!name.empty() && name[0] == '$') return false;
        if (!IsValidUtf8(name)) return false;
        if (!ReparsesIdenticallyAt(child, depth + 1)) return false;
      }
      return true;
    case ValueType::kArray:
      if (depth >= kMaxExactDepth) return false;
      for (const Value& item : v.array_items()) {
        if (!ReparsesIdenticallyAt(item, depth + 1)) return false;
      }
      return true;
    default:
      return true;
  }
}

// Heap owned by `v` beyond sizeof(Value) itself.
size_t ValueHeap(const Value& v) {
  switch (v.type()) {
    case ValueType::kString:
      return StringHeap(v.string_value());
    case ValueType::kBinary:  // boxed (value.h)
      return Chunk(sizeof(Binary)) + StringHeap(v.binary_value().data);
    case ValueType::kRegex:
      return Chunk(sizeof(Regex)) + StringHeap(v.regex_value().pattern) +
             StringHeap(v.regex_value().options);
    case ValueType::kObject: {
      const Value::Object& fields = v.object_fields();
      size_t n =
          fields.capacity() ? Chunk(fields.capacity() * sizeof(Field)) : 0;
      for (const auto& [name, child] : fields) {
        n += StringHeap(name) + ValueHeap(child);
      }
      return n;
    }
    case ValueType::kArray: {
      const Value::Array& items = v.array_items();
      size_t n = items.capacity() ? Chunk(items.capacity() * sizeof(Value)) : 0;
      for (const Value& item : items) n += ValueHeap(item);
      return n;
    }
    default:
      return 0;
  }
}

}  // namespace

size_t CacheCharge(absl::string_view key, const Value& doc) {
  // The shared_ptr's control block and the Value (make_shared: one chunk),
  // the list node (an Entry: key string, shared_ptr, charge, two links),
  // the key's own buffer, a table slot (16 B) and its control byte.
  constexpr size_t kEntry = 2 * sizeof(void*) + sizeof(std::string) +
                            sizeof(std::shared_ptr<const Value>) +
                            sizeof(size_t);
  return Chunk(sizeof(Value) + 16) + Chunk(kEntry) +
         (key.size() > 15 ? Chunk(key.size() + 1) : 0) + 17 + ValueHeap(doc);
}

bool ReparsesIdentically(const Value& doc) {
  return doc.is_object() && ReparsesIdenticallyAt(doc, 0);
}

DocCache::DocCache(size_t capacity_bytes)
    : shard_capacity_(capacity_bytes / kShards) {}

size_t DocCache::Hash(absl::string_view key) {
  return decltype(Shard::map)::hasher()(key);
}

int DocCache::ShardIndex(size_t hash) {
  // The top bits: the shard's table uses the low ones (its 7-bit control
  // fingerprints and probe start), which must keep varying within a shard.
  return static_cast<int>((static_cast<uint64_t>(hash) >> 60) % kShards);
}

void DocCache::EraseLocked(Shard& s, absl::string_view key) {
  auto it = s.map.find(key);
  if (it == s.map.end()) return;
  auto entry = it->second;
  s.map.erase(it);
  s.used -= entry->charge;
  s.lru.erase(entry);
}

std::shared_ptr<const Value> DocCache::Lookup(absl::string_view key,
                                              Miss* miss) {
  return miss != nullptr ? LookupImpl(key, &miss->ticket, &miss->admit)
                         : LookupImpl(key, nullptr, nullptr);
}

std::shared_ptr<const Value> DocCache::Lookup(absl::string_view key,
                                              uint64_t* ticket) {
  return LookupImpl(key, ticket, nullptr);
}

std::shared_ptr<const Value> DocCache::LookupImpl(absl::string_view key,
                                                  uint64_t* ticket,
                                                  bool* admit) {
  const size_t hash = Hash(key);
  Shard& s = shards_[ShardIndex(hash)];
  MutexLock l(&s.mu);
  auto it = s.map.find(key, hash);
  if (it == s.map.end()) {
    if (ticket != nullptr) *ticket = s.seq;
    if (admit != nullptr) {
      // Room for one more entry of the shard's average charge.
      const size_t average = s.map.empty() ? 0 : s.used / s.map.size();
      *admit = AdmitLocked(s, average);
    }
    return nullptr;
  }
  if (it->second != s.lru.begin()) {
    s.lru.splice(s.lru.begin(), s.lru, it->second);
  }
  return it->second->doc;
}

bool DocCache::AdmitLocked(Shard& s, size_t charge) const {
  return s.used + charge <= shard_capacity_ || ++s.misses % 8 == 0;
}

bool DocCache::Admit(absl::string_view key, size_t charge) {
  if (charge > shard_capacity_) return false;
  Shard& s = ShardOf(key);
  MutexLock l(&s.mu);
  return AdmitLocked(s, charge);
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

void DocCache::MarkWrites(const std::vector<std::string>& keys, int in_flight) {
  std::vector<uint8_t> shard_of(keys.size());
  uint32_t used = 0;  // bit i: some key is in shard i
  for (size_t i = 0; i < keys.size(); ++i) {
    shard_of[i] = static_cast<uint8_t>(ShardIndex(keys[i]));
    used |= 1u << shard_of[i];
  }
  for (int shard = 0; shard < kShards; ++shard) {
    if ((used & (1u << shard)) == 0) continue;
    Shard& s = shards_[shard];
    MutexLock l(&s.mu);
    // At the end nothing is left to erase: while the shard had a write in
    // flight no reader could insert, and the writer holds the writers'
    // lock.
    if (in_flight > 0) {
      for (size_t i = 0; i < keys.size(); ++i) {
        if (shard_of[i] == shard) EraseLocked(s, keys[i]);
      }
    }
    ++s.seq;
    s.writes_in_flight += in_flight;
  }
}

void DocCache::BeginWrites(const std::vector<std::string>& keys) {
  MarkWrites(keys, +1);
}

void DocCache::EndWrites(const std::vector<std::string>& keys) {
  MarkWrites(keys, -1);
}

size_t DocCache::charged_bytes() {
  size_t n = 0;
  for (Shard& s : shards_) {
    MutexLock l(&s.mu);
    n += s.used;
  }
  return n;
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
