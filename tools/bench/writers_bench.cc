// writers_bench: concurrent writers in one process (issue 29 item 1). N
// threads (--threads=1,4,16) call ttldb's InsertOne (new documents) or
// Touch({_id}, "accessTime") (random documents of the thread's own share)
// for --seconds each; raw LevelDB does the same storage work with N threads
// as the anchor ("the limit" of docs/BENCHMARKS.md: insert = the document
// and its TTL entry in one WriteBatch; touch = Get, then one WriteBatch
// rewriting the document and moving its TTL entry). 256 B documents
// (bench_util.cc's MakeDoc), a TTL index on accessTime. Prints ops/s, p50
// and p99 (us) per engine, workload and thread count, and ttldb's ratio to
// the limit. --sync=1 commits every write synced (WriteOptions::sync, the
// j: true of the wire).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "index/key_codec.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/write_batch.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "tools/bench/bench_util.h"
#include "ttldb/database.h"
#include "ttldb/options.h"
#include "ttldb/value.h"

namespace ttldb {
namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

int64_t WallMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void CheckOk(const absl::Status& s) {
  if (!s.ok()) {
    fprintf(stderr, "%s\n", s.ToString().c_str());
    abort();
  }
}
void CheckOk(const leveldb::Status& s) {
  if (!s.ok()) {
    fprintf(stderr, "%s\n", s.ToString().c_str());
    abort();
  }
}

// One engine's two writes; thread-safe for distinct documents.
class Writers {
 public:
  virtual ~Writers() = default;
  virtual void Insert(int64_t i, const std::string& json) = 0;
  virtual void Touch(int64_t i) = 0;
};

class TtldbWriters : public Writers {
 public:
  TtldbWriters(const std::string& dir, int64_t docs, bool sync) {
    Options options;
    options.ttl_monitor_enabled = false;
    auto db = Database::Open(dir, options);
    CheckOk(db.status());
    db_ = std::move(*db);
    coll_ = &db_->collection("sessions");
    CheckOk(coll_
                ->CreateIndex(R"({"accessTime": 1})",
                              absl::StrCat(R"({"expireAfterSeconds": )",
                                           kExpireAfterSeconds, "}"))
                .status());
    std::string json;
    for (int64_t i = 0; i < docs; ++i) {
      MakeDoc(i, WallMillis(), 256, &json);
      CheckOk(coll_->InsertOne(json).status());
    }
    wo_.sync = sync;
  }
  void Insert(int64_t, const std::string& json) override {
    CheckOk(coll_->InsertOne(json, wo_).status());
  }
  void Touch(int64_t i) override {
    const Value filter =
        Value::MakeObject({Field("_id", Value::String(DocId(i)))});
    CheckOk(coll_->Touch(filter, "accessTime", wo_).status());
  }

 private:
  std::unique_ptr<Database> db_;
  Collection* coll_ = nullptr;
  WriteOptions wo_;
};

class LevelDbWriters : public Writers {
 public:
  LevelDbWriters(const std::string& dir, int64_t docs, bool sync)
      : access_(docs) {
    const Options defaults;  // ttldb's table options
    cache_.reset(leveldb::NewLRUCache(defaults.block_cache_bytes));
    filter_.reset(leveldb::NewBloomFilterPolicy(defaults.bloom_bits_per_key));
    leveldb::Options o;
    o.create_if_missing = true;
    o.block_cache = cache_.get();
    o.filter_policy = filter_.get();
    o.write_buffer_size = defaults.write_buffer_bytes;
    o.block_size = defaults.block_size_bytes;
    o.compression = defaults.compress_blocks ? leveldb::kSnappyCompression
                                             : leveldb::kNoCompression;
    ro_.verify_checksums = true;
    wo_.sync = sync;
    leveldb::DB* db = nullptr;
    CheckOk(leveldb::DB::Open(o, dir, &db));
    db_.reset(db);
    ttl_prefix_ = IndexPrefix(1, 2);
    std::string json;
    for (int64_t i = 0; i < docs; ++i) {
      access_[i] = WallMillis();
      MakeDoc(i, access_[i], 256, &json);
      Insert(i, json);
    }
  }
  void Insert(int64_t i, const std::string& json) override {
    const std::string id = EncodeId(Value::String(DocId(i)));
    leveldb::WriteBatch batch;
    batch.Put(DocumentKey(1, id), json);
    batch.Put(TtlKey(WallMillis(), id), SiblingsWriter().Finish(id));
    CheckOk(db_->Write(wo_, &batch));
  }
  void Touch(int64_t i) override {
    const std::string id = EncodeId(Value::String(DocId(i)));
    std::string old;
    CheckOk(db_->Get(ro_, DocumentKey(1, id), &old));
    const int64_t now = WallMillis();
    std::string json;
    MakeDoc(i, now, 256, &json);
    leveldb::WriteBatch batch;
    batch.Put(DocumentKey(1, id), json);
    batch.Delete(TtlKey(access_[i], id));
    batch.Put(TtlKey(now, id), SiblingsWriter().Finish(id));
    CheckOk(db_->Write(wo_, &batch));
    access_[i] = now;  // each thread touches its own documents
  }

 private:
  std::string TtlKey(int64_t millis, const std::string& id) const {
    std::string k = ttl_prefix_;
    AppendKeyValue(Value::Date(millis), false, &k);
    return k + id;
  }
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::DB> db_;
  leveldb::ReadOptions ro_;
  leveldb::WriteOptions wo_;
  std::string ttl_prefix_;
  std::vector<int64_t> access_;
};

struct Result {
  double ops_s = 0, p50_us = 0, p99_us = 0;
};

// `threads` threads doing `op` for `seconds`. Thread t inserts documents
// base + t, base + t + threads, ... and touches those of [0, docs) that are
// t modulo threads.
Result Run(Writers* w, const std::string& op, int threads, double seconds,
           int64_t docs, int64_t base) {
  std::vector<std::vector<uint32_t>> ns(threads);
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  Clock::time_point deadline = Clock::time_point::max();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::mt19937_64 rng(t + 1);
      std::string json;
      ns[t].reserve(1 << 18);
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      for (int64_t n = 0;; ++n) {
        int64_t i = 0;
        if (op == "insert") {
          i = base + t + n * threads;
          MakeDoc(i, WallMillis(), 256, &json);  // untimed, as ttldb_bench
        } else {
          const int64_t share = docs / threads;
          i = t + static_cast<int64_t>(rng() % share) * threads;
        }
        const Clock::time_point start = Clock::now();
        if (start >= deadline) break;
        if (op == "insert") {
          w->Insert(i, json);
        } else {
          w->Touch(i);
        }
        ns[t].push_back(static_cast<uint32_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() -
                                                                 start)
                .count()));
      }
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  const Clock::time_point start = Clock::now();
  deadline =
      start + std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
  go.store(true);
  for (std::thread& t : pool) t.join();
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<uint32_t> all;
  for (auto& v : ns) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  Result r;
  r.ops_s = all.size() / elapsed;
  if (!all.empty()) {
    r.p50_us = all[all.size() / 2] / 1000.0;
    r.p99_us = all[std::min(all.size() - 1, all.size() * 99 / 100)] / 1000.0;
  }
  return r;
}

int Main(int argc, char** argv) {
  std::vector<int> threads = {1, 4, 16};
  std::vector<std::string> ops = {"insert", "touch"};
  double seconds = 2;
  int64_t docs = 20000;
  bool sync = false;
  std::string dir = "/tmp/writers_bench";
  for (int i = 1; i < argc; ++i) {
    std::pair<std::string, std::string> kv =
        absl::StrSplit(argv[i], absl::MaxSplits('=', 1));
    if (kv.first == "--threads") {
      threads.clear();
      for (absl::string_view t : absl::StrSplit(kv.second, ',')) {
        int n = 0;
        if (absl::SimpleAtoi(t, &n)) threads.push_back(n);
      }
    } else if (kv.first == "--ops") {
      ops = absl::StrSplit(kv.second, ',');
    } else if (kv.first == "--seconds") {
      seconds = atof(kv.second.c_str());
    } else if (kv.first == "--docs") {
      docs = atoll(kv.second.c_str());
    } else if (kv.first == "--sync") {
      sync = kv.second == "1";
    } else if (kv.first == "--dir") {
      dir = kv.second;
    } else {
      fprintf(stderr, "unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  printf(
      "| op | threads | ttldb ops/s | p50 us | p99 us | limit ops/s | "
      "p50 us | p99 us | vs limit |\n|---|---|---|---|---|---|---|---|---|\n");
  int64_t base = docs;
  for (const std::string& op : ops) {
    for (int n : threads) {
      // A fresh store of each engine per row, opened one after the other.
      Result r[2];
      for (int e = 0; e < 2; ++e) {
        const std::string path = absl::StrCat(dir, "-", e);
        std::system(absl::StrCat("rm -rf ", path).c_str());
        std::unique_ptr<Writers> w;
        if (e == 0) {
          w = std::make_unique<TtldbWriters>(path, docs, sync);
        } else {
          w = std::make_unique<LevelDbWriters>(path, docs, sync);
        }
        r[e] = Run(w.get(), op, n, seconds, docs, base);
        w.reset();
        std::system(absl::StrCat("rm -rf ", path).c_str());
      }
      printf("| %s | %d | %.0f | %.2f | %.2f | %.0f | %.2f | %.2f | %.2fx |\n",
             op.c_str(), n, r[0].ops_s, r[0].p50_us, r[0].p99_us, r[1].ops_s,
             r[1].p50_us, r[1].p99_us, r[0].ops_s / r[1].ops_s);
      fflush(stdout);
    }
  }
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::bench::Main(argc, argv); }
