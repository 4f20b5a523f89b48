// A bounded cache of parsed documents, keyed by document key, so a hot
// FindById (or the re-read of a touch) skips LevelDB and the JSON parse.
// Internal to the engine.
//
// Coherence with writers. Every write of a document key brackets its
// LevelDB commit with BeginWrite(key) before and EndWrite(key) after (both
// under the engine's write_mu_, or EndWrite after a grouped commit, before
// the next writer of the key may begin). Both erase the key and bump its
// shard's invalidation sequence number; between them the shard accepts no
// insertions. A reader takes Ticket(key) BEFORE reading LevelDB and passes
// it to Insert, which refuses the value if the shard's sequence number moved
// or a write is in flight: so a reader that read the bytes before (or
// during) a write can never insert them after the write's EndWrite, and no
// entry exists for a key while its write is in flight (readers then read
// LevelDB, whose writes are atomic).
#ifndef TTLDB_STORAGE_DOC_CACHE_H_
#define TTLDB_STORAGE_DOC_CACHE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "base/mutex.h"
#include "ttldb/value.h"

namespace ttldb {

// Whether ParseDocument(ToJson(doc, JsonFormat::kStorage)) gives back
// exactly `doc` (same types, same bytes), decided conservatively without
// serializing. False for what the parser would normalize or reject: a field
// name starting with '$' (below the top level it may read back as an
// Extended JSON wrapper: {"$date": 5} becomes a date), regex options that
// are not sorted ASCII flags (stored sorted), NaN (its sign and payload are
// not kept), invalid UTF-8 in a string, field name or regex, and nesting
// near the depth limit. A write caches its new version (write-through) only
// when this holds: the cache must serve exactly what a LevelDB read would.
bool ReparsesIdentically(const Value& doc);

// The heap bytes a cached document costs: its Value tree (every node,
// string and vector buffer as allocated, with malloc's per-chunk overhead),
// the key, and the cache's own entry (list node and table slot). The
// cache's capacity bounds this sum, so Options::doc_cache_bytes bounds the
// heap the cache holds, not the size of the documents' JSON (a 256 B
// document's tree and entry take about 5x its JSON).
size_t CacheCharge(absl::string_view key, const Value& doc);

// What ReparsesIdentically and CacheCharge build on, shared with
// storage/write_walk.cc, which decides and counts the same while it walks a
// write.
namespace doc_cache_internal {

// Containers deeper than this are not written through (the parser's limit
// is kMaxNestingDepth, 100; a margin keeps the check obviously safe).
inline constexpr int kMaxExactDepth = 90;

// malloc's chunk for a request of n bytes (glibc: 8 bytes of header,
// rounded up to 16, at least 32).
inline size_t Chunk(size_t n) {
  return std::max<size_t>(32, (n + 8 + 15) & ~15);
}

inline size_t StringHeap(const std::string& s) {
  // Short strings live inside the object (libstdc++: up to 15 chars).
  return s.capacity() > 15 ? Chunk(s.capacity() + 1) : 0;
}

}  // namespace doc_cache_internal

class DocCache {
 public:
  // At most about `capacity_bytes` of charge in total (see Insert).
  explicit DocCache(size_t capacity_bytes);
  DocCache(const DocCache&) = delete;
  DocCache& operator=(const DocCache&) = delete;

  // What a miss tells the reader that goes on to read LevelDB.
  struct Miss {
    // What Ticket(key) would return, taken under the lookup's lock.
    uint64_t ticket = 0;
    // Whether to insert the document read: always while the key's shard
    // has room for one more entry of its average charge, then every 8th
    // miss only, so a scan (or a random read) of more documents than fit
    // does not churn the cache (and pay an insertion, an eviction and a
    // copy per read) while a hot document still gets in after a few
    // misses. Decided here, under the lookup's lock, so that a reader told
    // no skips the charge's walk of the tree and a second lock.
    bool admit = false;
  };
  // The cached document, or nullptr. On a miss, *miss (if not null) says
  // what to do with the document read (see Miss); a hit leaves it alone.
  std::shared_ptr<const Value> Lookup(absl::string_view key, Miss* miss);
  // Lookup that only wants the ticket (tests): counts no miss.
  std::shared_ptr<const Value> Lookup(absl::string_view key,
                                      uint64_t* ticket = nullptr);
  // Whether a write of a key not read before (an insert) should cache its
  // document of `charge` bytes: the policy of Miss::admit, judged with the
  // document's own charge.
  bool Admit(absl::string_view key, size_t charge);
  // Take before reading the key from LevelDB; pass to Insert.
  uint64_t Ticket(absl::string_view key);
  // Caches `doc` (read after Ticket returned `ticket`), charged `charge`
  // bytes, unless a write of the key's shard began since the ticket or is in
  // flight. Evicts least recently used entries beyond the capacity.
  void Insert(absl::string_view key, std::shared_ptr<const Value> doc,
              size_t charge, uint64_t ticket);
  // Bracket the commit of a write of `key` (see the file comment).
  void BeginWrite(absl::string_view key);
  void EndWrite(absl::string_view key);
  // BeginWrite and EndWrite of many keys committed in one batch (a TTL
  // deletion chunk): the same effect, one lock per shard instead of one per
  // key.
  void BeginWrites(const std::vector<std::string>& keys);
  void EndWrites(const std::vector<std::string>& keys);
  // EndWrite, then caches `doc` as the key's new version (write-through).
  // Only the writer that committed `doc` may call it, still holding the
  // writers' lock or, for a grouped commit (DbImpl::GroupedWrite), before
  // its queued commit is done (later writers of the key wait for that), so
  // no later write of the key can have ended yet.
  void EndWriteWith(absl::string_view key, std::shared_ptr<const Value> doc,
                    size_t charge);

  // Entries cached now (tests).
  size_t size();
  // The charge of the entries cached now (CacheCharge), and the capacity.
  size_t charged_bytes();
  size_t capacity_bytes() const { return shard_capacity_ * kShards; }

 private:
  static constexpr int kShards = 16;
  struct Entry {
    std::string key;
    std::shared_ptr<const Value> doc;
    size_t charge;
  };
  struct Shard {
    Mutex mu;
    std::list<Entry> lru ABSL_GUARDED_BY(mu);  // most recent first
    // Keys point into the list's entries. A flat table: a lookup that
    // misses (most reads of a working set larger than the cache) usually
    // touches one group of control bytes, where a node-based map touched a
    // bucket and a node (profiled: 8 % of a 2 KB get).
    absl::flat_hash_map<absl::string_view, std::list<Entry>::iterator> map
        ABSL_GUARDED_BY(mu);
    size_t used ABSL_GUARDED_BY(mu) = 0;
    uint64_t seq ABSL_GUARDED_BY(mu) = 0;
    int writes_in_flight ABSL_GUARDED_BY(mu) = 0;
    uint32_t misses ABSL_GUARDED_BY(mu) = 0;  // while full (Miss::admit)
  };
  // The key's hash, as every shard's table computes it (so a lookup hashes
  // the key once, for its shard and its table).
  static size_t Hash(absl::string_view key);
  // Miss::admit's rule for an entry of `charge` bytes; counts the miss.
  bool AdmitLocked(Shard& s, size_t charge) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu);
  static int ShardIndex(size_t hash);
  int ShardIndex(absl::string_view key) const { return ShardIndex(Hash(key)); }
  Shard& ShardOf(absl::string_view key) { return shards_[ShardIndex(key)]; }
  std::shared_ptr<const Value> LookupImpl(absl::string_view key,
                                          uint64_t* ticket, bool* admit);
  // Under each shard's lock once: erases the keys of that shard (when
  // beginning), bumps its sequence number and adds `in_flight` to its writes
  // in flight.
  void MarkWrites(const std::vector<std::string>& keys, int in_flight);
  static void EraseLocked(Shard& s, absl::string_view key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu);
  void PutLocked(Shard& s, absl::string_view key,
                 std::shared_ptr<const Value> doc, size_t charge)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu);

  const size_t shard_capacity_;
  Shard shards_[kShards];
};

}  // namespace ttldb

#endif  // TTLDB_STORAGE_DOC_CACHE_H_
