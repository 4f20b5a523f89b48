// What a touch costs on each path (docs/benchmarks-history.md "Round 5,
// session 8: touch"): the calling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID, so time spent descheduled on a loaded machine
// does not count; LevelDB's background compaction runs on another thread
// and is not counted) per
// Collection::Touch of a document of --size bytes with the TTL index only,
// for
//   miss/text     not cached: the stored text patched (engine/touch_text.h)
//   miss/general  not cached, the text path off: Get, parse, Set, serialize
//   hit/general   cached: the general path on the cached tree
//   hit/splice    cached: the tree serialized and the text patched
// Rounds of --ops touches of each in turn: each round's p50, and the
// median (min-max) of those over --rounds.
//   touch_breakdown [--size=2048] [--docs=20000] [--ops=2000] [--rounds=7]

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "engine/touch_text.h"
#include "tools/bench/bench_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"

namespace ttldb {
namespace bench {
namespace {

void CheckOk(const absl::Status& s, const char* what) {
  if (!s.ok()) Die(absl::StrCat(what, ": ", s.ToString()));
}

struct Store {
  std::string dir;
  FakeClock clock{absl::FromUnixMillis(kNowMillis)};
  std::unique_ptr<Database> db;
  Collection* coll = nullptr;
};

std::unique_ptr<Store> Open(const std::string& dir, size_t cache_bytes,
                            int64_t docs, int size) {
  auto s = std::make_unique<Store>();
  s->dir = dir;
  std::filesystem::remove_all(dir);
  Options options;
  options.ttl_monitor_enabled = false;
  options.clock = &s->clock;
  options.doc_cache_bytes = cache_bytes;
  s->db = Check(Database::Open(dir, options), "open");
  s->coll = &s->db->collection("sessions");
  CheckOk(s->coll
              ->CreateIndex(R"({"accessTime": 1})",
                            absl::StrCat(R"({"expireAfterSeconds": )",
                                         kExpireAfterSeconds, "}"))
              .status(),
          "index");
  std::string json;
  for (int64_t i = 0; i < docs; ++i) {
    MakeDoc(i, kNowMillis, size, &json);
    CheckOk(s->coll->InsertOne(json).status(), "insert");
  }
  return s;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) {
  using namespace ttldb;
  using namespace ttldb::bench;
  int64_t size = 2048, docs = 20000, ops = 2000, rounds = 7;
  for (int i = 1; i < argc; ++i) {
    if (!ParsePositiveFlag(argv[i], "size", &size) &&
        !ParsePositiveFlag(argv[i], "docs", &docs) &&
        !ParsePositiveFlag(argv[i], "ops", &ops) &&
        !ParsePositiveFlag(argv[i], "rounds", &rounds)) {
      fprintf(stderr, "unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  const std::string base =
      (std::filesystem::temp_directory_path() / "touch_breakdown").string();
  auto uncached = Open(base + "-0", 0, docs, static_cast<int>(size));
  auto cached =
      Open(base + "-1", size_t{1} << 30, docs, static_cast<int>(size));
  const char* names[] = {"miss/text", "miss/general", "hit/general",
                         "hit/splice"};
  std::vector<double> cpu[4], wall[4];
  int64_t now = kNowMillis;
  Rng rng(11);
  for (int64_t r = 0; r < rounds; ++r) {
    for (int v = 0; v < 4; ++v) {
      Store& s = v < 2 ? *uncached : *cached;
      SetStoredTextSetEnabledForTesting(v != 1);
      SetStoredTextSetOnCacheHitsForTesting(v == 3);
      std::vector<double> cpu_us, wall_us;
      for (int64_t k = 0; k < ops; ++k) {
        const int64_t i = rng.Uniform(docs);
        const Value id = Value::String(DocId(i));
        if (v >= 2)
          CheckOk(s.coll->FindById(id).status(), "read");  // now cached
        s.clock.SetWall(absl::FromUnixMillis(++now));
        const Value filter = Value::MakeObject({Field("_id", id)});
        const int64_t c0 = ThreadCpuNanos(), w0 = NowNanos();
        auto res = s.coll->Touch(filter, "accessTime");
        cpu_us.push_back((ThreadCpuNanos() - c0) / 1000.0);
        wall_us.push_back((NowNanos() - w0) / 1000.0);
        if (!res.ok() || res->modified_count != 1) Die("touch failed");
      }
      cpu[v].push_back(Median(cpu_us));
      wall[v].push_back(Median(wall_us));
    }
  }
  printf(
      "| path | CPU us p50: median of rounds (min-max) | wall us p50 "
      "|\n|---|---|---|\n");
  for (int v = 0; v < 4; ++v) {
    printf("| %s | %.2f (%.2f-%.2f) | %.2f |\n", names[v], Median(cpu[v]),
           *std::min_element(cpu[v].begin(), cpu[v].end()), Max(cpu[v]),
           Median(wall[v]));
  }
  SetStoredTextSetEnabledForTesting(true);
  SetStoredTextSetOnCacheHitsForTesting(false);
  CheckOk(uncached->db->Close(), "close");
  CheckOk(cached->db->Close(), "close");
  std::filesystem::remove_all(base + "-0");
  std::filesystem::remove_all(base + "-1");
  return 0;
}
