// Where an out-of-cache FindById spends its time: times each step of the
// read path alone, in a loop, on the same 256 B documents as ttldb_bench's
// cold workloads (issue 19). Not a test; a measuring aid.
//   read_breakdown [--docs=200000] [--ops=20000] [--dir=/tmp/read_breakdown]

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/database_internal.h"
#include "leveldb/db.h"
#include "storage/doc_cache.h"
#include "storage/keys.h"
#include "tools/bench/bench_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace bench {
namespace {

int64_t LiveAccess(int64_t i, void*) { return kNowMillis - (i % 60'000); }

double NsPerOp(int64_t ns, int64_t n) {
  return static_cast<double>(ns) / static_cast<double>(n);
}

int Main(int argc, char** argv) {
  int64_t docs = 200000, ops = 20000;
  std::string dir = "/tmp/read_breakdown";
  bool parse_only = false;
  std::string json_only;
  for (int i = 1; i < argc; ++i) {
    absl::string_view a = argv[i];
    if (ParsePositiveFlag(argv[i], "docs", &docs) ||
        ParsePositiveFlag(argv[i], "ops", &ops)) {
      continue;
    }
    if (absl::ConsumePrefix(&a, "--dir=")) {
      dir = std::string(a);
    } else if (a == "--parse_only") {
      parse_only = true;
    } else if (absl::ConsumePrefix(&a, "--json=")) {
      json_only = std::string(a);
    } else {
      Die(absl::StrCat("unknown flag ", argv[i]));
    }
  }
  if (!json_only.empty()) {  // one document, forever (for gdb sampling)
    while (true) {
      auto d = ParseDocument(json_only, StoredJsonParseOptions());
      if (!d.ok()) Die("parse");
    }
  }
  if (parse_only) {
    // CPU alone: the same 64 documents (in cache), best of 7 trials.
    std::vector<std::string> docs64(64);
    for (int i = 0; i < 64; ++i) MakeDoc(i * 7919, kNowMillis, 256, &docs64[i]);
    auto best = [&](const char* what, auto&& body) {
      double best_ns = 1e18;
      for (int trial = 0; trial < 7; ++trial) {
        const int64_t t0 = ThreadCpuNanos();
        for (int64_t k = 0; k < ops; ++k) body(k);
        best_ns = std::min(best_ns, NsPerOp(ThreadCpuNanos() - t0, ops));
      }
      printf("%-40s %8.1f ns/op (CPU, best of 7)\n", what, best_ns);
    };
    best("ParseDocument+~Value", [&](int64_t k) {
      auto d = ParseDocument(docs64[k % 64], StoredJsonParseOptions());
      if (!d.ok()) Die("parse");
    });
    const std::string payload(180, 'x');
    const std::string parts[] = {
        "{\"payload\":\"" + payload + "\"}",
        R"({"accessTime":{"$date":{"$numberLong":"1800000000000"}}})",
        R"({"_id":"k000000000001","userId":"user-0000001","group":1})",
        R"({"a":1})",
        R"({})",
    };
    for (const std::string& part : parts) {
      best(part.substr(0, 30).c_str(), [&](int64_t) {
        auto d = ParseDocument(part, StoredJsonParseOptions());
        if (!d.ok()) Die("parse");
      });
    }
    std::vector<Value> vals(64);
    best("ParseDocument kept", [&](int64_t k) {
      vals[k % 64] = *ParseDocument(docs64[k % 64], StoredJsonParseOptions());
    });
    best("Value copy+~Value", [&](int64_t k) {
      Value c = vals[k % 64];
      (void)c;
    });
    best("CacheCharge", [&](int64_t k) {
      if (CacheCharge(docs64[k % 64], vals[k % 64]) == 0) Die("charge");
    });
    return 0;
  }
  std::filesystem::remove_all(dir);
  FakeClock clock(absl::FromUnixMillis(kNowMillis));
  Options options;
  options.ttl_monitor_enabled = false;
  options.clock = &clock;
  auto db = Database::Open(dir, options);
  if (!db.ok()) Die(db.status().ToString());
  Collection& coll = (*db)->collection("sessions");
  if (!coll.CreateIndex(R"({"accessTime": 1})",
                        absl::StrCat(R"({"expireAfterSeconds": )",
                                     kExpireAfterSeconds, "}"))
           .ok()) {
    Die("index");
  }
  std::string json;
  for (int64_t i = 0; i < docs; ++i) {
    MakeDoc(i, LiveAccess(i, nullptr), 256, &json);
    if (!coll.InsertOne(json).ok()) Die("insert");
  }
  DbImpl* engine = DatabaseInternal::engine(**db);
  leveldb::DB* ldb = engine->db();

  Rng rng(5);
  std::vector<int64_t> picks(ops);
  for (auto& p : picks) p = rng.Uniform(docs);
  std::vector<Value> ids;
  ids.reserve(ops);
  for (int64_t p : picks) ids.push_back(Value::String(DocId(p)));

  auto run = [&](const char* what, auto&& body) {
    const int64_t t0 = NowNanos();
    for (int64_t k = 0; k < ops; ++k) body(k);
    const int64_t ns = NowNanos() - t0;
    printf("%-40s %8.0f ns/op\n", what, NsPerOp(ns, ops));
  };
  for (int round = 0; round < 3; ++round) {
    printf("round %d\n", round);
    run("FindById", [&](int64_t k) {
      if (!coll.FindById(ids[k]).ok()) Die("FindById");
    });
    run("FindByIdJson", [&](int64_t k) {
      if (!coll.FindByIdJson(ids[k]).ok()) Die("FindByIdJson");
    });
    // The LevelDB read alone (checksums verified, as ttldb reads).
    std::vector<std::string> keys(ops);
    std::string uid;
    run("EncodeId+DocumentKey",
        [&](int64_t k) { keys[k] = DocumentKey(1, EncodeId(ids[k])); });
    std::string v;
    std::vector<std::string> stored(ops);
    leveldb::ReadOptions ro;
    ro.verify_checksums = true;
    // The collection's key: read one document to find the collection id.
    int coll_id = -1;
    for (int c = 0; c < 16 && coll_id < 0; ++c) {
      if (ldb->Get(ro, DocumentKey(c, EncodeId(ids[0])), &v).ok()) coll_id = c;
    }
    if (coll_id < 0) Die("collection id");
    for (int64_t k = 0; k < ops; ++k) {
      keys[k] = DocumentKey(coll_id, EncodeId(ids[k]));
    }
    run("leveldb Get", [&](int64_t k) {
      if (!ldb->Get(ro, keys[k], &v).ok()) Die("Get");
      stored[k] = v;
    });
    run("ParseDocument", [&](int64_t k) {
      auto d = ParseDocument(stored[k], StoredJsonParseOptions());
      if (!d.ok()) Die("parse");
    });
    run("ParseDocument (64 warm docs)", [&](int64_t k) {
      auto d = ParseDocument(stored[k % 64], StoredJsonParseOptions());
      if (!d.ok()) Die("parse");
    });
    std::vector<Value> parsed(ops);
    run("ParseDocument (kept)", [&](int64_t k) {
      parsed[k] = *ParseDocument(stored[k], StoredJsonParseOptions());
    });
    run("~Value", [&](int64_t k) { parsed[k] = Value(); });
    for (int64_t k = 0; k < ops; ++k) {
      parsed[k] = *ParseDocument(stored[k], StoredJsonParseOptions());
    }
    run("CacheCharge", [&](int64_t k) {
      if (CacheCharge(keys[k], parsed[k]) == 0) Die("charge");
    });
    run("make_shared<Value>(move)+release", [&](int64_t k) {
      auto s = std::make_shared<Value>(std::move(parsed[k]));
      parsed[k] = std::move(*s);
    });
    DocCache* cache = engine->doc_cache();
    run("DocCache Lookup (miss mostly)", [&](int64_t k) {
      DocCache::Miss miss;
      (void)cache->Lookup(keys[k], &miss);
    });
    run("Value copy", [&](int64_t k) {
      Value c = parsed[k];
      (void)c;
    });
  }
  if (!(*db)->Close().ok()) Die("close");
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::bench::Main(argc, argv); }
