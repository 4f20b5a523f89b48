// Where a 256 B insert's time goes outside LevelDB's Write: times the
// pieces of the insert path alone (rdtsc, median cycles per document) on
// ttldb_bench's insert documents, next to a whole InsertOne into a
// collection with the benchmark's TTL index and a raw LevelDB Put + Write
// of the same bytes (the limit). Not a test; a measuring aid (issue 19).
//   insert_steps [--docs=50000] [--bytes=256] [--dir=/tmp/insert_steps]
#include <x86intrin.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "document/bson.h"
#include "document/storable.h"
#include "engine/database_internal.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "storage/doc_cache.h"
#include "storage/write_walk.h"
#include "tools/bench/bench_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace bench {
namespace {

class Step {
 public:
  explicit Step(const char* name) : name_(name) {}
  void Add(uint64_t cycles) { c_.push_back(cycles); }
  void Print() {
    if (c_.empty()) return;
    std::sort(c_.begin(), c_.end());
    printf("%-34s p50 %7llu  p10 %7llu  p90 %7llu cycles\n", name_,
           static_cast<unsigned long long>(c_[c_.size() / 2]),
           static_cast<unsigned long long>(c_[c_.size() / 10]),
           static_cast<unsigned long long>(c_[c_.size() * 9 / 10]));
  }

 private:
  const char* name_;
  std::vector<uint64_t> c_;
};

int Main(int argc, char** argv) {
  int64_t docs = 50000, bytes = 256;
  std::string dir = "/tmp/insert_steps";
  for (int i = 1; i < argc; ++i) {
    absl::string_view a = argv[i];
    if (ParsePositiveFlag(argv[i], "docs", &docs) ||
        ParsePositiveFlag(argv[i], "bytes", &bytes)) {
      continue;
    }
    if (absl::ConsumePrefix(&a, "--dir=")) {
      dir = std::string(a);
    } else {
      Die(absl::StrCat("unknown flag ", a));
    }
  }
  std::vector<std::string> texts(docs);
  for (int64_t i = 0; i < docs; ++i) {
    MakeDoc(i, kNowMillis - (i % 60'000), static_cast<int>(bytes), &texts[i]);
  }

  // The pieces, each over every document.
  Step parse("ParseDocument"), storable("CheckStorable"),
      bson("BsonDocumentSize"), ser("AppendJson kStorage"),
      reparse("ReparsesIdentically"), charge("CacheCharge"),
      walk("WalkForWrite (the four at once)"), noted("ParseDocumentNotingForm"),
      destroy("~Value");
  for (int64_t i = 0; i < docs; ++i) {
    uint64_t t0 = __rdtsc();
    absl::StatusOr<Value> v = ParseDocument(texts[i]);
    uint64_t t1 = __rdtsc();
    parse.Add(t1 - t0);
    if (!v.ok()) Die(v.status().ToString());
    t0 = __rdtsc();
    absl::Status s = CheckStorable(*v);
    t1 = __rdtsc();
    storable.Add(t1 - t0);
    if (!s.ok()) Die(s.ToString());
    t0 = __rdtsc();
    const size_t bson_size = BsonDocumentSize(*v);
    size_t n = bson_size;
    t1 = __rdtsc();
    bson.Add(t1 - t0);
    std::string json;
    t0 = __rdtsc();
    json.reserve(512);
    AppendJson(*v, JsonFormat::kStorage, &json);
    t1 = __rdtsc();
    ser.Add(t1 - t0);
    if (json != texts[i]) Die("the storage form differs from the input");
    t0 = __rdtsc();
    bool same = ReparsesIdentically(*v);
    t1 = __rdtsc();
    reparse.Add(t1 - t0);
    t0 = __rdtsc();
    const size_t cache_charge = CacheCharge(texts[i], *v);
    t1 = __rdtsc();
    charge.Add(t1 - t0);
    n += cache_charge + same;
    if (n == 0) Die("?");
    t0 = __rdtsc();
    WriteWalk w = WalkForWrite(*v);
    t1 = __rdtsc();
    walk.Add(t1 - t0);
    if (!w.storable || w.reparses != same || w.bson_size != bson_size ||
        CacheChargeFromWalk(texts[i], w) != cache_charge) {
      Die("WalkForWrite disagrees");
    }
    bool form = false;
    t0 = __rdtsc();
    absl::StatusOr<Value> again = ParseDocumentNotingForm(texts[i], &form);
    t1 = __rdtsc();
    noted.Add(t1 - t0);
    if (!again.ok() || !form) Die("not noted as the storage form");
    t0 = __rdtsc();
    { Value gone = *std::move(v); }
    t1 = __rdtsc();
    destroy.Add(t1 - t0);
  }

  // Whole inserts, ttldb then the limit, into fresh stores.
  Step insert("InsertOne (TTL index only)"), limit("limit Put + Write");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    FakeClock clock(absl::FromUnixMillis(kNowMillis));
    Options options;
    options.ttl_monitor_enabled = false;
    options.clock = &clock;
    auto db = Check(Database::Open(dir + "/ttldb", options), "open");
    Collection& coll = db->collection("sessions");
    Check(coll.CreateIndex(R"({"accessTime": 1})",
                           absl::StrCat(R"({"expireAfterSeconds": )",
                                        kExpireAfterSeconds, "}")),
          "index");
    for (int64_t i = 0; i < docs; ++i) {
      uint64_t t0 = __rdtsc();
      absl::StatusOr<Value> id = coll.InsertOne(texts[i]);
      uint64_t t1 = __rdtsc();
      insert.Add(t1 - t0);
      if (!id.ok()) Die(id.status().ToString());
    }
    absl::Status s = db->Close();
    if (!s.ok()) Die(s.ToString());
  }
  {
    leveldb::Options o;
    o.create_if_missing = true;
    leveldb::DB* raw = nullptr;
    leveldb::Status s = leveldb::DB::Open(o, dir + "/limit", &raw);
    if (!s.ok()) Die(s.ToString());
    std::unique_ptr<leveldb::DB> db(raw);
    for (int64_t i = 0; i < docs; ++i) {
      uint64_t t0 = __rdtsc();
      leveldb::WriteBatch batch;
      batch.Put(absl::StrCat("d", DocId(i)), texts[i]);
      batch.Put(absl::StrCat("t", i), DocId(i));
      s = db->Write(leveldb::WriteOptions(), &batch);
      uint64_t t1 = __rdtsc();
      limit.Add(t1 - t0);
      if (!s.ok()) Die(s.ToString());
    }
  }
  std::filesystem::remove_all(dir);
  printf("%lld documents of %lld B (%zu B of JSON each)\n",
         static_cast<long long>(docs), static_cast<long long>(bytes),
         texts[0].size());
  for (Step* s : {&parse, &noted, &storable, &bson, &ser, &reparse, &charge,
                  &walk, &destroy, &insert, &limit}) {
    s->Print();
  }
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::bench::Main(argc, argv); }
