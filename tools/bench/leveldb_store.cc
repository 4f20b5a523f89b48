// "The limit": raw LevelDB doing only the storage work ttldb's design
// requires, with keys and values encoded by the same codec but no JSON
// parsing, no planning, no catalog. Configured like ttldb: the block cache,
// block size, compression, bloom filter and write buffer of ttldb's Options
// (its defaults, or what StoreConfig sets for both), and every read verifies
// block checksums, as every ttldb read does (storage/leveldb_status.cc).
//   insert: the document and its index entries in one WriteBatch;
//   touch:  read the document, then one WriteBatch rewriting it and moving
//           its TTL entry;
//   get:    one point read;
//   find:   an index range scan, then a point read per entry;
//   sweep:  the TTL range scan and batched deletes (with 0 extra indexes
//           without re-reading documents; with 2, re-reading each document,
//           the reference for a sweep that must find its other
//           index keys; ttldb instead reads them from the TTL entry).
// TTL entries hold the same values as ttldb's (the _id and the document's
// other index keys), so inserts and touches write the same bytes.
#include <atomic>
#include <memory>
#include <vector>

#include "index/key_codec.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/write_batch.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "tools/bench/bench_util.h"
#include "tools/bench/store.h"
#include "ttldb/options.h"
#include "ttldb/value.h"

namespace ttldb {
namespace bench {
namespace {

constexpr uint32_t kColl = 1;
constexpr uint32_t kTtlIndex = 2, kUserIndex = 3, kGroupIndex = 4;
// Entries per delete batch, as ttldb's sweep (kEntriesPerChunk).
constexpr int kSweepBatch = 256;

class LevelDbStore : public Store {
 public:
  void CompactAll() override { db_->CompactRange(nullptr, nullptr); }
  const char* name() const override { return "limit"; }

  void Open(const std::string& dir, const StoreConfig& config) override {
    config_ = config;
    const Options defaults;  // ttldb's
    cache_.reset(leveldb::NewLRUCache(config.block_cache_bytes >= 0
                                          ? config.block_cache_bytes
                                          : defaults.block_cache_bytes));
    filter_.reset(leveldb::NewBloomFilterPolicy(defaults.bloom_bits_per_key));
    leveldb::Options o;
    o.create_if_missing = true;
    o.block_cache = cache_.get();
    o.filter_policy = filter_.get();
    o.write_buffer_size = defaults.write_buffer_bytes;
    o.block_size = config.block_size_bytes >= 0 ? config.block_size_bytes
                                                : defaults.block_size_bytes;
    const bool compress = config.compression.empty()
                              ? defaults.compress_blocks
                              : config.compression != "none";
    o.compression =
        compress ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    ro_.verify_checksums = true;
    leveldb::DB* db = nullptr;
    Check(leveldb::DB::Open(o, dir, &db));
    db_.reset(db);
    ttl_prefix_ = IndexPrefix(kColl, kTtlIndex);
    user_prefix_ = IndexPrefix(kColl, kUserIndex);
    group_prefix_ = IndexPrefix(kColl, kGroupIndex);
  }

  void Close() override {
    db_.reset();
    access_.clear();
  }

  void Insert(int64_t i, const std::string& json,
              int64_t access_millis) override {
    leveldb::WriteBatch batch;
    AddPuts(i, json, access_millis, &batch);
    Check(db_->Write(leveldb::WriteOptions(), &batch));
    SetAccess(i, access_millis);
  }

  void Load(int64_t begin, int64_t end, int64_t (*access)(int64_t, void*),
            void* arg) override {
    std::string json;
    leveldb::WriteBatch batch;
    for (int64_t i = begin; i < end; ++i) {
      const int64_t a = access(i, arg);
      MakeDoc(i, a, config_.doc_bytes, &json);
      AddPuts(i, json, a, &batch);
      SetAccess(i, a);
      if ((i - begin) % 1000 == 999) {
        Check(db_->Write(leveldb::WriteOptions(), &batch));
        batch.Clear();
      }
    }
    Check(db_->Write(leveldb::WriteOptions(), &batch));
  }

  void Touch(int64_t i, int64_t now_millis, const std::string& json) override {
    const std::string id = EncodeId(Value::String(DocId(i)));
    std::string old;
    Check(db_->Get(ro_, DocumentKey(kColl, id), &old));
    leveldb::WriteBatch batch;
    batch.Put(DocumentKey(kColl, id), json);
    batch.Delete(TtlKey(access_[i], id));
    batch.Put(TtlKey(now_millis, id), TtlValue(i, id));
    Check(db_->Write(leveldb::WriteOptions(), &batch));
    access_[i] = now_millis;
  }

  bool Get(int64_t i, int64_t) override {
    std::string value;
    leveldb::Status s = db_->Get(
        ro_, DocumentKey(kColl, EncodeId(Value::String(DocId(i)))), &value);
    if (s.IsNotFound()) return false;
    Check(s);
    return true;
  }

  int FindGroup(int64_t g, int64_t) override {
    std::string start = group_prefix_;
    AppendKeyValue(Value::Int64(g), false, &start);
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ro_));
    int n = 0;
    std::string doc;
    for (it->Seek(start); it->Valid() && it->key().starts_with(start);
         it->Next()) {
      Check(db_->Get(ro_, DocumentKey(kColl, it->value().ToString()), &doc));
      ++n;
    }
    return n;
  }

  int64_t Sweep(int64_t now_millis) override {
    const int64_t cutoff = now_millis - kExpireAfterSeconds * 1000;
    std::string end = ttl_prefix_;
    AppendKeyValue(Value::Date(cutoff), false, &end);
    end = KeyPrefixEnd(end);
    const std::string begin =
        ttl_prefix_ + KeyBracketStart(ValueType::kDate, false);
    const bool reread = config_.extra_indexes > 0;
    int64_t deleted = 0;
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ro_));
    leveldb::WriteBatch batch;
    int in_batch = 0;
    std::string doc;
    for (it->Seek(begin); it->Valid() && it->key().compare(end) < 0;
         it->Next()) {
      const absl::string_view id = EntryValueId(
          absl::string_view(it->value().data(), it->value().size()));
      const std::string doc_key =
          DocumentKey(kColl, absl::string_view(id.data(), id.size()));
      if (reread) {
        // What a sweep with other indexes must do: read the document to
        // find its other index keys (derived here from i, not parsed).
        leveldb::Status s = db_->Get(ro_, doc_key, &doc);
        if (s.IsNotFound()) continue;
        Check(s);
        const int64_t i = ParseDocIndex(id.data(), id.size());
        const std::string enc(id.data(), id.size());
        batch.Delete(UserKey(i, enc));
        batch.Delete(GroupKey(i, enc));
      }
      batch.Delete(it->key());
      batch.Delete(doc_key);
      ++deleted;
      if (++in_batch == kSweepBatch) {
        Check(db_->Write(leveldb::WriteOptions(), &batch));
        batch.Clear();
        in_batch = 0;
      }
    }
    Check(it->status());
    Check(db_->Write(leveldb::WriteOptions(), &batch));
    return deleted;
  }

 private:
  static void Check(const leveldb::Status& s) {
    if (!s.ok()) Die(s.ToString());
  }

  void SetAccess(int64_t i, int64_t a) {
    if (static_cast<size_t>(i) >= access_.size()) access_.resize(i + 1, 0);
    access_[i] = a;
  }

  std::string TtlKey(int64_t millis, const std::string& id) const {
    std::string k = ttl_prefix_;
    AppendKeyValue(Value::Date(millis), false, &k);
    return k + id;
  }
  std::string UserKey(int64_t i, const std::string& id) const {
    std::string k = user_prefix_;
    AppendKeyValue(Value::String(DocUser(i)), false, &k);
    return k + id;
  }
  std::string GroupKey(int64_t i, const std::string& id) const {
    std::string k = group_prefix_;
    AppendKeyValue(Value::Int64(DocGroup(i)), false, &k);
    return k + id;
  }

  // The TTL entry's value as ttldb writes it (storage/entry_value.h): the
  // _id and the document's keys in the other indexes.
  std::string TtlValue(int64_t i, const std::string& id) const {
    SiblingsWriter w;
    if (config_.extra_indexes == 2) {
      w.Add(kUserIndex, {UserKey(i, id)}, user_prefix_.size(), id.size());
      w.Add(kGroupIndex, {GroupKey(i, id)}, group_prefix_.size(), id.size());
    }
    return w.Finish(id);
  }

  void AddPuts(int64_t i, const std::string& json, int64_t access_millis,
               leveldb::WriteBatch* batch) const {
    const std::string id = EncodeId(Value::String(DocId(i)));
    batch->Put(DocumentKey(kColl, id), json);
    batch->Put(TtlKey(access_millis, id), TtlValue(i, id));
    if (config_.extra_indexes == 2) {
      batch->Put(UserKey(i, id), id);
      batch->Put(GroupKey(i, id), id);
    }
  }

  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  leveldb::ReadOptions ro_;  // verify_checksums, as ttldb
  std::unique_ptr<leveldb::DB> db_;
  std::string ttl_prefix_, user_prefix_, group_prefix_;
  // accessTime per document: the limit knows its old TTL key without
  // parsing (touch runs on one thread, never during a sweep).
  std::vector<int64_t> access_;
};

}  // namespace

std::unique_ptr<Store> NewLevelDbStore() {
  return std::make_unique<LevelDbStore>();
}

}  // namespace bench
}  // namespace ttldb
