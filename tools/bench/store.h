// The operations every benchmarked engine implements, in the shape a
// session service makes them: one document per call.
#ifndef TTLDB_TOOLS_BENCH_STORE_H_
#define TTLDB_TOOLS_BENCH_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ttldb {
namespace bench {

struct StoreConfig {
  int doc_bytes = 256;
  // Secondary indexes besides _id and the TTL index on accessTime: 0, or 2
  // ({userId: 1} and {group: 1}).
  int extra_indexes = 0;
  // ttldb's Options::doc_cache_bytes; -1 keeps ttldb's default.
  int64_t doc_cache_bytes = -1;
  // ttldb's Options::ttl_compact_after_deletes; -1 keeps ttldb's default.
  int64_t ttl_compact_after_deletes = -1;
  // LevelDB's table options, for ttldb (Options) and the limit alike; -1
  // (or, for compression, empty) keeps ttldb's defaults.
  int64_t block_cache_bytes = -1;
  int64_t block_size_bytes = -1;
  std::string compression;  // "snappy" or "none"
};

// One engine holding the benchmark's documents (bench_util.h: MakeDoc).
// Documents expire kExpireAfterSeconds after their accessTime. Get and
// FindGroup may run on one thread while Sweep runs on another. Any failure
// aborts the program: a benchmark that silently measures errors is worse
// than none.
class Store {
 public:
  virtual ~Store() = default;
  virtual const char* name() const = 0;
  // Creates an empty store in the (empty) directory `dir`.
  virtual void Open(const std::string& dir, const StoreConfig& config) = 0;
  virtual void Close() = 0;

  // Inserts document i; `json` is MakeDoc(i, access_millis, ...).
  virtual void Insert(int64_t i, const std::string& json,
                      int64_t access_millis) = 0;
  // Setup, untimed: inserts documents [begin, end) with access times from
  // `access(i)`. Engines may batch.
  virtual void Load(int64_t begin, int64_t end,
                    int64_t (*access)(int64_t i, void* arg), void* arg);
  // Sets document i's accessTime to `now_millis` (`json` is the document
  // with that time, for engines that rewrite the document themselves).
  virtual void Touch(int64_t i, int64_t now_millis,
                     const std::string& json) = 0;
  // Reads document i by _id, hiding it if expired at `now_millis`; returns
  // whether it was found.
  virtual bool Get(int64_t i, int64_t now_millis) = 0;
  // Get, handing out the stored bytes (JSON text) instead of a decoded
  // document, for engines that have both (ttldb: FindByIdJson). Others
  // already hand out bytes: the same as Get.
  virtual bool GetRaw(int64_t i, int64_t now_millis) {
    return Get(i, now_millis);
  }
  // The touch as an application writes it without a dedicated call:
  // ttldb's UpdateOne({_id}, {$set: {accessTime: now}}); the others: Touch.
  virtual void UpdateAccess(int64_t i, int64_t now_millis,
                            const std::string& json) {
    Touch(i, now_millis, json);
  }
  // The heap the engine's own caches hold beyond the storage library's, in
  // MiB (ttldb: the document cache); 0 for the others.
  virtual double CacheMiB() { return 0; }
  // Compacts everything it stored (LevelDB: CompactRange over all keys;
  // SQLite: VACUUM), so that the files hold no overwritten or deleted
  // version: the footprint after a compaction (issue 29 item 3).
  virtual void CompactAll() = 0;
  // What the documents and the index entries take, in MiB, where the
  // engine says (ttldb: collStats' size, storageSize and totalIndexSize);
  // empty otherwise.
  virtual std::vector<std::pair<std::string, double>> SizeBreakdown() {
    return {};
  }
  // The documents with group == g (extra_indexes == 2 only); returns how
  // many.
  virtual int FindGroup(int64_t g, int64_t now_millis) = 0;
  // Deletes every document expired at `now_millis` (one TTL pass); returns
  // how many were deleted.
  virtual int64_t Sweep(int64_t now_millis) = 0;

 protected:
  StoreConfig config_;
};

// `change_log` true: Options::change_log on (engine "ttldb-log", the change
// log's cost: docs/change_streams.md).
std::unique_ptr<Store> NewTtldbStore(bool change_log = false);
std::unique_ptr<Store> NewLevelDbStore();
std::unique_ptr<Store> NewSqliteStore();

// Aborts with a message (a benchmark cannot continue past a failed call).
[[noreturn]] void Die(const std::string& what);

}  // namespace bench
}  // namespace ttldb

#endif  // TTLDB_TOOLS_BENCH_STORE_H_
