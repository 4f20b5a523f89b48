// ttldb_bench: runs the workloads of issue 7 on ttldb, on "the limit" (raw
// LevelDB doing the same storage work) and on SQLite, in one process, and
// prints one table with medians over --runs runs and the ratios the targets
// speak of (computed within each run, then the median taken).
//
//   ttldb_bench [--quick] [--runs=3] [--docs=50000] [--ops=20000] ...
//
// Every flag is listed in Usage() below. --quick runs the whole program on
// small sizes in a few seconds (the sh_test does that).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tools/bench/bench_util.h"
#include "tools/bench/parse_bench.h"
#include "tools/bench/store.h"

namespace ttldb {
namespace bench {

void Store::Load(int64_t begin, int64_t end, int64_t (*access)(int64_t, void*),
                 void* arg) {
  std::string json;
  for (int64_t i = begin; i < end; ++i) {
    const int64_t a = access(i, arg);
    MakeDoc(i, a, config_.doc_bytes, &json);
    Insert(i, json, a);
  }
}

namespace {

struct Flags {
  int runs = 3;
  // ttldb's ttl_compact_after_deletes; -1: ttldb's default.
  int64_t compact_after = -1;
  int64_t docs = 50'000;            // M: documents inserted (live)
  int64_t doc_cache_mib = -1;       // ttldb's doc_cache_bytes; -1: default
  int64_t ops = 20'000;             // operations of touch/get
  int64_t expired = 20'000;         // N: expired documents of `sweep`
  int64_t scale_live = 20'000;      // sweep_scaling: M (and 10 M)
  int64_t scale_expired = 10'000;   // sweep_scaling: N
  int64_t big_expired = 1'000'000;  // seek/read_p99: deletions
  int64_t big_live = 10'000;        // seek/read_p99: live documents
  int64_t parse_docs = 5'000;
  int parse_rounds = 4;
  std::vector<int> sizes = {256, 2048};
  std::vector<int> indexes = {0, 2};
  std::vector<std::string> engines = {"ttldb", "limit", "sqlite"};
  std::vector<std::string> workloads;  // empty: all
  std::string dir;
  std::string csv;
  // The out-of-cache workloads ("cold"): documents of 256 B, inserted one
  // per call, then random point reads and $set updates over all of them.
  // ttldb's default 8 MiB document cache holds about 6,000 of the 200,000
  // (a cached document is charged its parsed tree's heap, ~1.3 KB).
  int64_t cold_docs = 200'000;
  int64_t cold_cache_kib = -1;  // ttldb's document cache; -1: default
  // LevelDB's table options for ttldb and the limit alike (-1, empty:
  // ttldb's defaults): block cache (KiB), block size (bytes), "snappy" or
  // "none".
  int64_t block_cache_kib = -1;
  int64_t block_size = -1;
  std::string compression;
  // Internal: run the cold workloads of this engine in this process and
  // print their rows (the parent runs one child process per engine, so
  // each engine's peak RSS is its own).
  std::string cold_child;
};

void Usage() {
  fprintf(
      stderr,
      "usage: ttldb_bench [--quick] [--runs=N] [--docs=M] [--ops=N]\n"
      "  [--expired=N] [--scale_live=M] [--scale_expired=N]\n"
      "  [--big_expired=N] [--big_live=N] [--parse_docs=N]\n"
      "  [--sizes=256,2048] [--indexes=0,2]\n"
      "  [--engines=ttldb,limit,sqlite,ttldb-log (with the change log)]\n"
      "  [--doc_cache_mib=N (ttldb's document cache; default: ttldb's)]\n"
      "  [--compact_after=N (ttldb's ttl_compact_after_deletes; 0: never)]\n"
      "  [--workloads=insert,touch,...,cold] [--dir=PATH] [--csv=PATH]\n"
      "  [--cold_docs=N] [--cold_cache_kib=N]\n"
      "  [--block_cache_kib=N] [--block_size=BYTES] "
      "[--compression=snappy|none]\n"
      "  (LevelDB table options, ttldb and the limit alike)\n");
}

bool ParseFlags(int argc, char** argv, Flags* f) {
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--quick") {
      f->runs = 1;
      f->docs = 2'000;
      f->ops = 1'000;
      f->expired = 1'000;
      f->scale_live = 1'000;
      f->scale_expired = 500;
      f->big_expired = 10'000;
      f->big_live = 1'000;
      f->parse_docs = 300;
      f->parse_rounds = 1;
      f->cold_docs = 3'000;
      f->cold_cache_kib = 256;
      continue;
    }
    if (arg == "--help" || arg.rfind("--", 0) != 0 ||
        arg.find('=') == std::string::npos) {
      return false;
    }
    const std::string name = arg.substr(2, arg.find('=') - 2);
    const std::string value = arg.substr(arg.find('=') + 1);
    auto num = [&](int64_t* out) { return absl::SimpleAtoi(value, out); };
    auto ints = [&](std::vector<int>* out) {
      out->clear();
      for (absl::string_view s : absl::StrSplit(value, ',')) {
        int v;
        if (!absl::SimpleAtoi(s, &v)) return false;
        out->push_back(v);
      }
      return true;
    };
    int64_t n = 0;
    bool ok = true;
    if (name == "runs") {
      ok = num(&n);
      f->runs = static_cast<int>(n);
    } else if (name == "doc_cache_mib") {
      ok = num(&f->doc_cache_mib);
    } else if (name == "compact_after") {
      ok = num(&f->compact_after);
    } else if (name == "docs") {
      ok = num(&f->docs);
    } else if (name == "ops") {
      ok = num(&f->ops);
    } else if (name == "expired") {
      ok = num(&f->expired);
    } else if (name == "scale_live") {
      ok = num(&f->scale_live);
    } else if (name == "scale_expired") {
      ok = num(&f->scale_expired);
    } else if (name == "big_expired") {
      ok = num(&f->big_expired);
    } else if (name == "big_live") {
      ok = num(&f->big_live);
    } else if (name == "parse_docs") {
      ok = num(&f->parse_docs);
    } else if (name == "sizes") {
      ok = ints(&f->sizes);
    } else if (name == "indexes") {
      ok = ints(&f->indexes);
    } else if (name == "engines") {
      f->engines = absl::StrSplit(value, ',');
    } else if (name == "workloads") {
      f->workloads = absl::StrSplit(value, ',');
    } else if (name == "dir") {
      f->dir = value;
    } else if (name == "csv") {
      f->csv = value;
    } else if (name == "cold_docs") {
      ok = num(&f->cold_docs);
    } else if (name == "cold_cache_kib") {
      ok = num(&f->cold_cache_kib);
    } else if (name == "block_cache_kib") {
      ok = num(&f->block_cache_kib);
    } else if (name == "block_size") {
      ok = num(&f->block_size);
    } else if (name == "compression") {
      f->compression = value;
      ok = value == "snappy" || value == "none";
    } else if (name == "cold_child") {
      f->cold_child = value;
    } else {
      ok = false;
    }
    if (!ok) return false;
  }
  return f->runs > 0 && f->docs > 0 && f->ops > 0;
}

std::unique_ptr<Store> NewStore(const std::string& engine) {
  if (engine == "ttldb") return NewTtldbStore();
  if (engine == "ttldb-log") return NewTtldbStore(/*change_log=*/true);
  if (engine == "limit") return NewLevelDbStore();
  if (engine == "sqlite") return NewSqliteStore();
  Die("unknown engine " + engine);
}

// One result row of one run: named metrics.
struct Row {
  std::string workload;
  int doc = 0;
  int idx = 0;
  std::string engine;
  std::vector<std::pair<std::string, double>> m;
  // Over the runs, beside each metric of m (filled for the medians).
  std::vector<std::pair<double, double>> range;
  double Get(const std::string& k) const {
    for (const auto& [name, v] : m) {
      if (name == k) return v;
    }
    return 0;
  }
};

std::string Key(const Row& r) {
  return absl::StrCat(r.workload, "|", r.doc, "|", r.idx, "|", r.engine);
}

// Access-time generators for Store::Load (function pointers: the hot loop
// of a load must not depend on std::function).
int64_t LiveAccess(int64_t i, void*) { return kNowMillis - (i % 60'000); }
int64_t ExpiredAccess(int64_t i, void*) {
  return kNowMillis - 2 * kExpireAfterSeconds * 1000 - (i % 600'000);
}

class Runner {
 public:
  Runner(const Flags& flags, const std::string& root, int run)
      : f_(flags), root_(root), run_(run) {
    // The engines' order rotates from run to run, so that a slow moment of
    // the (shared) machine does not always land on the same engine.
    engines_ = f_.engines;
    if (!engines_.empty()) {
      std::rotate(engines_.begin(), engines_.begin() + run_ % engines_.size(),
                  engines_.end());
    }
  }

  bool Want(const std::string& w) const {
    return f_.workloads.empty() ||
           std::find(f_.workloads.begin(), f_.workloads.end(), w) !=
               f_.workloads.end();
  }

  void SetTableOptions(StoreConfig* c) const {
    if (f_.block_cache_kib >= 0)
      c->block_cache_bytes = f_.block_cache_kib << 10;
    c->block_size_bytes = f_.block_size;
    c->compression = f_.compression;
  }

  StoreConfig Config(int doc, int idx) const {
    StoreConfig c{doc, idx};
    if (f_.doc_cache_mib >= 0) c.doc_cache_bytes = f_.doc_cache_mib << 20;
    c.ttl_compact_after_deletes = f_.compact_after;
    SetTableOptions(&c);
    return c;
  }

  std::string FreshDir(const std::string& tag) {
    std::string d = absl::StrCat(root_, "/", tag, "-", counter_++);
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
  }

  void Done(Store* s, const std::string& dir) {
    s->Close();
    std::filesystem::remove_all(dir);
  }

  // insert, get, find_indexed, touch, sweep on one fresh store.
  void RunMain(const std::string& engine, int doc, int idx,
               std::vector<Row>* rows) {
    std::unique_ptr<Store> s = NewStore(engine);
    const std::string dir = FreshDir(engine);
    s->Open(dir, Config(doc, idx));
    auto row = [&](const char* w) {
      Row r;
      r.workload = w;
      r.doc = doc;
      r.idx = idx;
      r.engine = engine;
      return r;
    };
    auto lat_row = [&](const char* w, Latencies& l) {
      Row r = row(w);
      r.m = {{"ops_s", l.OpsPerSecond()},
             {"p50_us", l.PercentileMicros(50)},
             {"p99_us", l.PercentileMicros(99)}};
      rows->push_back(r);
    };
    std::string json;
    {
      Latencies l;
      l.Reserve(f_.docs);
      for (int64_t i = 0; i < f_.docs; ++i) {
        const int64_t a = LiveAccess(i, nullptr);
        MakeDoc(i, a, doc, &json);
        const int64_t t0 = NowNanos();
        s->Insert(i, json, a);
        l.Add(NowNanos() - t0);
      }
      if (Want("insert")) lat_row("insert", l);
    }
    if (Want("get")) {
      Rng rng(1);
      Latencies l;
      l.Reserve(f_.ops);
      for (int64_t k = 0; k < f_.ops; ++k) {
        const int64_t i = rng.Uniform(f_.docs);
        const int64_t t0 = NowNanos();
        const bool found = s->Get(i, kNowMillis);
        l.Add(NowNanos() - t0);
        if (!found) Die(absl::StrCat(engine, ": get missed ", i));
      }
      lat_row("get", l);
    }
    if (idx == 2 && Want("find_indexed")) {
      Rng rng(2);
      Latencies l;
      const int64_t groups = std::max<int64_t>(1, f_.docs / 10);
      const int64_t n = std::max<int64_t>(100, f_.ops / 10);
      for (int64_t k = 0; k < n; ++k) {
        const int64_t g = rng.Uniform(groups);
        const int64_t t0 = NowNanos();
        const int got = s->FindGroup(g, kNowMillis);
        l.Add(NowNanos() - t0);
        const int64_t want = std::min<int64_t>(10, f_.docs - g * 10);
        if (got != want) {
          Die(absl::StrCat(engine, ": find group ", g, " got ", got));
        }
      }
      lat_row("find_indexed", l);
    }
    if (Want("touch")) {
      Rng rng(3);
      Latencies l;
      l.Reserve(f_.ops);
      for (int64_t k = 0; k < f_.ops; ++k) {
        const int64_t i = rng.Uniform(f_.docs);
        // A later "now" for each touch, so every touch really moves the
        // date (and its TTL entry).
        const int64_t now = kNowMillis + k + 1;
        MakeDoc(i, now, doc, &json);
        const int64_t t0 = NowNanos();
        s->Touch(i, now, json);
        l.Add(NowNanos() - t0);
      }
      lat_row("touch", l);
    }
    if (Want("sweep")) {
      s->Load(f_.docs, f_.docs + f_.expired, ExpiredAccess, nullptr);
      // Untimed: the expired documents of a real store were written long
      // before they expire, and LevelDB's compactions of them are done;
      // without this the pass races the load's own compactions for the
      // two cores (issue 29 item 4).
      s->CompactAll();
      const int64_t t0 = NowNanos();
      const int64_t deleted = s->Sweep(kNowMillis);
      const int64_t ns = NowNanos() - t0;
      if (deleted != f_.expired) {
        Die(absl::StrCat(engine, ": sweep deleted ", deleted, " of ",
                         f_.expired));
      }
      Row r = row("sweep");
      r.m = {{"docs_s", deleted * 1e9 / ns}, {"ms", ns / 1e6}};
      rows->push_back(r);
    }
    Done(s.get(), dir);
  }

  // The time to sweep N expired among `live` live documents, in ns.
  int64_t TimeSweep(const std::string& engine, int doc, int idx, int64_t live,
                    int64_t expired) {
    std::unique_ptr<Store> s = NewStore(engine);
    const std::string dir = FreshDir(engine);
    s->Open(dir, Config(doc, idx));
    // Expired documents first, then the live ones: the expired keys sit in
    // older files, under the live ones, as they would in a real store.
    s->Load(live, live + expired, ExpiredAccess, nullptr);
    s->Load(0, live, LiveAccess, nullptr);
    const int64_t t0 = NowNanos();
    const int64_t deleted = s->Sweep(kNowMillis);
    const int64_t ns = NowNanos() - t0;
    if (deleted != expired) Die(engine + ": scaling sweep count");
    Done(s.get(), dir);
    return ns;
  }

  void RunScaling(const std::string& engine, int doc, int idx,
                  std::vector<Row>* rows) {
    const int64_t small =
        TimeSweep(engine, doc, idx, f_.scale_live, f_.scale_expired);
    const int64_t large =
        TimeSweep(engine, doc, idx, 10 * f_.scale_live, f_.scale_expired);
    Row r{"sweep_scaling", doc, idx, engine, {}};
    r.m = {{"ms_1x", small / 1e6},
           {"ms_10x", large / 1e6},
           {"ratio", static_cast<double>(large) / small}};
    rows->push_back(r);
  }

  // The million-document sweep: read latency while it runs, heap growth,
  // and the cost of the first pass after it against a fresh range.
  void RunBigSweep(const std::string& engine, std::vector<Row>* rows) {
    const int doc = 256, idx = 0;
    // A pass over a fresh range: a store of the same size (as many
    // documents, none expired), so the two passes differ only by the
    // tombstones of the deletions, not by the store's size and table files.
    double fresh_ms;
    {
      std::unique_ptr<Store> s = NewStore(engine);
      const std::string dir = FreshDir(engine);
      s->Open(dir, Config(doc, idx));
      s->Load(0, f_.big_live + f_.big_expired, LiveAccess, nullptr);
      const int64_t t0 = NowNanos();
      if (s->Sweep(kNowMillis) != 0) Die("fresh pass deleted something");
      fresh_ms = (NowNanos() - t0) / 1e6;
      Done(s.get(), dir);
    }
    std::unique_ptr<Store> s = NewStore(engine);
    const std::string dir = FreshDir(engine);
    s->Open(dir, Config(doc, idx));
    s->Load(f_.big_live, f_.big_live + f_.big_expired, ExpiredAccess, nullptr);
    s->Load(0, f_.big_live, LiveAccess, nullptr);

    Rng rng(4);
    Latencies idle;
    const int64_t idle_ops = std::min<int64_t>(f_.ops, 20'000);
    for (int64_t k = 0; k < idle_ops; ++k) {
      const int64_t i = rng.Uniform(f_.big_live);
      const int64_t t0 = NowNanos();
      if (!s->Get(i, kNowMillis)) Die("idle get missed");
      idle.Add(NowNanos() - t0);
    }

    const int64_t heap0 = HeapBytes();
    std::atomic<int64_t> heap_max{heap0};
    std::atomic<bool> done{false};
    int64_t deleted = 0, sweep_ns = 0;
    std::thread sweeper([&] {
      const int64_t t0 = NowNanos();
      deleted = s->Sweep(kNowMillis);
      sweep_ns = NowNanos() - t0;
      done = true;
    });
    std::thread sampler([&] {
      while (!done) {
        const int64_t h = HeapBytes();
        if (h > heap_max) heap_max = h;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    });
    Latencies during;
    while (!done) {
      const int64_t i = rng.Uniform(f_.big_live);
      const int64_t t0 = NowNanos();
      if (!s->Get(i, kNowMillis)) Die("get during sweep missed");
      during.Add(NowNanos() - t0);
    }
    sweeper.join();
    sampler.join();
    if (deleted != f_.big_expired) {
      Die(absl::StrCat(engine, ": big sweep deleted ", deleted));
    }
    const int64_t t0 = NowNanos();
    if (s->Sweep(kNowMillis) != 0) Die("pass after sweep deleted something");
    const double after_ms = (NowNanos() - t0) / 1e6;
    // The passes after it (the tombstone trap costs every pass until the
    // range is compacted, not only the first): the median of five.
    Latencies next;
    for (int k = 0; k < 5; ++k) {
      const int64_t t1 = NowNanos();
      if (s->Sweep(kNowMillis) != 0) Die("later pass deleted something");
      next.Add(NowNanos() - t1);
    }
    Done(s.get(), dir);

    if (Want("read_p99_during_sweep")) {
      Row r{"read_p99_during_sweep", doc, idx, engine, {}};
      const double ip99 = idle.PercentileMicros(99);
      const double sp99 = during.PercentileMicros(99);
      r.m = {{"idle_p99_us", ip99},
             {"sweep_p99_us", sp99},
             {"ratio", sp99 / ip99},
             {"reads", static_cast<double>(during.count())},
             {"sweep_docs_s", deleted * 1e9 / sweep_ns},
             {"heap_growth_mib", (heap_max - heap0) / 1048576.0}};
      rows->push_back(r);
    }
    if (Want("seek_after_sweep")) {
      Row r{"seek_after_sweep", doc, idx, engine, {}};
      r.m = {{"first_pass_ms", after_ms},
             {"next_passes_p50_ms", next.PercentileMicros(50) / 1000},
             {"fresh_pass_ms", fresh_ms},
             {"ratio", after_ms / fresh_ms},
             {"deletions", static_cast<double>(deleted)}};
      rows->push_back(r);
    }
  }

  // The cold workloads of one engine, in this process (the child).
  void RunColdHere(const std::string& engine, std::vector<Row>* rows) {
    const int doc = 256;
    std::unique_ptr<Store> s = NewStore(engine);
    const std::string dir = FreshDir(engine + "-cold");
    StoreConfig c{doc, 0};
    if (f_.cold_cache_kib >= 0) c.doc_cache_bytes = f_.cold_cache_kib << 10;
    SetTableOptions(&c);
    s->Open(dir, c);
    auto lat_row = [&](const char* w, Latencies& l) {
      Row r{w, doc, 0, engine, {}};
      r.m = {{"ops_s", l.OpsPerSecond()},
             {"p50_us", l.PercentileMicros(50)},
             {"p99_us", l.PercentileMicros(99)}};
      rows->push_back(r);
    };
    std::string json;
    {
      Latencies l;
      l.Reserve(f_.cold_docs);
      for (int64_t i = 0; i < f_.cold_docs; ++i) {
        const int64_t a = LiveAccess(i, nullptr);
        MakeDoc(i, a, doc, &json);
        const int64_t t0 = NowNanos();
        s->Insert(i, json, a);
        l.Add(NowNanos() - t0);
      }
      lat_row("cold_insert", l);
    }
    // Random _ids over the whole set: most miss ttldb's document cache.
    auto gets = [&](const char* w, bool raw, uint64_t seed) {
      Rng rng(seed);
      Latencies l;
      l.Reserve(f_.ops);
      for (int64_t k = 0; k < f_.ops; ++k) {
        const int64_t i = rng.Uniform(f_.cold_docs);
        const int64_t t0 = NowNanos();
        const bool found =
            raw ? s->GetRaw(i, kNowMillis) : s->Get(i, kNowMillis);
        l.Add(NowNanos() - t0);
        if (!found) Die(absl::StrCat(engine, ": cold get missed ", i));
      }
      lat_row(w, l);
    };
    gets("cold_get", false, 5);
    if (engine == "ttldb") gets("cold_get_raw", true, 6);
    {
      Rng rng(7);
      Latencies l;
      l.Reserve(f_.ops);
      for (int64_t k = 0; k < f_.ops; ++k) {
        const int64_t i = rng.Uniform(f_.cold_docs);
        const int64_t now = kNowMillis + k + 1;
        MakeDoc(i, now, doc, &json);
        const int64_t t0 = NowNanos();
        s->UpdateAccess(i, now, json);
        l.Add(NowNanos() - t0);
      }
      lat_row("cold_update", l);
    }
    Row r{"cold_rss", doc, 0, engine, {}};
    r.m = {{"rss_mib", PeakRssMiB()}, {"cache_mib", s->CacheMiB()}};
    // The files on disk (tables and log; SQLite: its database file), with
    // the store still open: the price of a block size or compression.
    uint64_t disk = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (e.is_regular_file()) disk += e.file_size();
    }
    r.m.push_back({"disk_mib", disk / 1048576.0});
    for (auto& [name, mib] : s->SizeBreakdown()) r.m.push_back({name, mib});
    // After a compaction of everything: no overwritten or deleted version
    // left, only what the store must keep.
    s->CompactAll();
    disk = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (e.is_regular_file()) disk += e.file_size();
    }
    r.m.push_back({"compacted_disk_mib", disk / 1048576.0});
    for (auto& [name, mib] : s->SizeBreakdown()) {
      r.m.push_back({"compacted_" + name, mib});
    }
    rows->push_back(r);
    Done(s.get(), dir);
  }

  // The cold workloads of one engine in a child process (this program
  // with --cold_child), whose peak RSS is the engine's alone.
  void RunCold(const std::string& engine, std::vector<Row>* rows) {
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) Die("cannot find /proc/self/exe");
    self[n] = 0;
    const std::string cmd = absl::StrCat(
        "'", self, "' --cold_child=", engine, " --cold_docs=", f_.cold_docs,
        " --cold_cache_kib=", f_.cold_cache_kib,
        " --block_cache_kib=", f_.block_cache_kib,
        " --block_size=", f_.block_size,
        f_.compression.empty() ? "" : " --compression=" + f_.compression,
        " --ops=", f_.ops, " --dir='", root_, "/child'");
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) Die("popen " + cmd);
    char line[1024];
    while (fgets(line, sizeof(line), p) != nullptr) {
      // ROW workload doc idx engine name=value...
      std::vector<std::string> parts =
          absl::StrSplit(absl::StripTrailingAsciiWhitespace(line), ' ');
      if (parts.size() < 5 || parts[0] != "ROW") continue;
      Row r;
      r.workload = parts[1];
      if (!absl::SimpleAtoi(parts[2], &r.doc) ||
          !absl::SimpleAtoi(parts[3], &r.idx)) {
        Die(absl::StrCat("bad child row: ", line));
      }
      r.engine = parts[4];
      for (size_t k = 5; k < parts.size(); ++k) {
        std::pair<std::string, std::string> kv = absl::StrSplit(parts[k], '=');
        double v;
        if (!absl::SimpleAtod(kv.second, &v)) Die("bad child metric");
        r.m.emplace_back(kv.first, v);
      }
      rows->push_back(std::move(r));
    }
    if (pclose(p) != 0) Die("cold child failed: " + cmd);
  }

  void RunParse(int doc, std::vector<Row>* rows) {
    std::vector<std::string> docs(f_.parse_docs);
    for (int64_t i = 0; i < f_.parse_docs; ++i) {
      MakeDoc(i, LiveAccess(i, nullptr), doc, &docs[i]);
    }
    size_t bytes = 0;
    for (const auto& d : docs) bytes += d.size();
    for (ParseResult& p : RunParseBench(docs, f_.parse_rounds)) {
      Row r{"parse", doc, -1, p.method, {}};
      const double ops = p.latencies.OpsPerSecond();
      r.m = {{"ops_s", ops},
             {"p50_us", p.latencies.PercentileMicros(50)},
             {"p99_us", p.latencies.PercentileMicros(99)},
             {"mb_s", ops * (static_cast<double>(bytes) / docs.size()) / 1e6}};
      rows->push_back(r);
    }
  }

  std::vector<Row> RunOnce() {
    std::vector<Row> rows;
    if (Want("cold")) {
      for (const std::string& e : engines_) {
        fprintf(stderr, "  %s: cold (%lld documents, random reads/updates)\n",
                e.c_str(), static_cast<long long>(f_.cold_docs));
        RunCold(e, &rows);
      }
    }
    const bool main_wl = Want("insert") || Want("get") || Want("touch") ||
                         Want("find_indexed") || Want("sweep");
    for (int doc : f_.sizes) {
      for (int idx : f_.indexes) {
        for (const std::string& e : engines_) {
          if (main_wl) {
            fprintf(stderr, "  %s doc=%d idx=%d: insert/get/find/touch/sweep\n",
                    e.c_str(), doc, idx);
            RunMain(e, doc, idx, &rows);
          }
          if (doc == f_.sizes.front() && Want("sweep_scaling")) {
            fprintf(stderr, "  %s doc=%d idx=%d: sweep_scaling\n", e.c_str(),
                    doc, idx);
            RunScaling(e, doc, idx, &rows);
          }
        }
      }
    }
    if (Want("seek_after_sweep") || Want("read_p99_during_sweep")) {
      for (const std::string& e : engines_) {
        fprintf(stderr, "  %s: sweep of %lld documents\n", e.c_str(),
                static_cast<long long>(f_.big_expired));
        RunBigSweep(e, &rows);
      }
    }
    if (Want("parse")) {
      for (int doc : f_.sizes) RunParse(doc, &rows);
    }
    AddRatios(&rows);
    return rows;
  }

  // Within one run: ttldb's throughput over the limit's and SQLite's.
  static void AddRatios(std::vector<Row>* rows) {
    std::map<std::string, const Row*> by_key;
    for (const Row& r : *rows) by_key[Key(r)] = &r;
    for (Row& r : *rows) {
      if (r.engine != "ttldb") continue;
      const char* metric = r.workload == "sweep"      ? "docs_s"
                           : r.workload == "cold_rss" ? "rss_mib"
                                                      : "ops_s";
      if (r.Get(metric) == 0) continue;
      for (const char* peer : {"limit", "sqlite"}) {
        Row k = r;
        k.engine = peer;
        // The raw read against the others' (raw) reads.
        if (r.workload == "cold_get_raw") k.workload = "cold_get";
        auto it = by_key.find(Key(k));
        if (it == by_key.end() || it->second->Get(metric) == 0) continue;
        r.m.emplace_back(absl::StrCat("vs_", peer),
                         r.Get(metric) / it->second->Get(metric));
      }
    }
    // parse: On-Demand over the full DOM parse.
    for (Row& r : *rows) {
      if (r.workload != "parse" || r.engine != "ondemand") continue;
      for (const Row& o : *rows) {
        if (o.workload == "parse" && o.doc == r.doc && o.engine == "dom") {
          r.m.emplace_back("vs_dom", r.Get("ops_s") / o.Get("ops_s"));
        }
      }
    }
  }

 private:
  const Flags& f_;
  const std::string root_;
  const int run_;
  std::vector<std::string> engines_;
  int counter_ = 0;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string Fmt(double v) {
  char buf[32];
  if (v >= 100000) {
    snprintf(buf, sizeof(buf), "%.0fk", v / 1000);
  } else if (v >= 100) {
    snprintf(buf, sizeof(buf), "%.0f", v);
  } else if (v >= 10) {
    snprintf(buf, sizeof(buf), "%.1f", v);
  } else {
    snprintf(buf, sizeof(buf), "%.2f", v);
  }
  return buf;
}

// The targets of issue 7, checked on the medians.
struct Target {
  std::string workload;
  int doc, idx;  // -1: any
  std::string metric;
  bool at_least;
  double bound;
  std::string text;
};

std::vector<Target> Targets() {
  std::vector<Target> t;
  for (int doc : {256, 2048}) {
    for (int idx : {0, 2}) {
      t.push_back({"insert", doc, idx, "vs_limit", true, 0.6, ">= 0.6x limit"});
      t.push_back({"insert", doc, idx, "vs_sqlite", true, 5, ">= 5x sqlite"});
      t.push_back({"touch", doc, idx, "vs_limit", true, 0.6, ">= 0.6x limit"});
      t.push_back({"touch", doc, idx, "vs_sqlite", true, 2, ">= 2x sqlite"});
      t.push_back({"get", doc, idx, "vs_limit", true, 0.8, ">= 0.8x limit"});
      t.push_back({"get", doc, idx, "vs_sqlite", true, 1.2, ">= 1.2x sqlite"});
      t.push_back({"sweep", doc, idx, "vs_limit", true, idx == 0 ? 0.5 : 0.6,
                   idx == 0 ? ">= 0.5x limit (no re-read)"
                            : ">= 0.6x limit (re-read)"});
      t.push_back({"sweep", doc, idx, "vs_sqlite", true, 4, ">= 4x sqlite"});
      t.push_back({"sweep_scaling", doc, idx, "ratio", false, 1.3,
                   "t(10xM)/t(M) <= 1.3"});
    }
    t.push_back({"find_indexed", doc, 2, "vs_sqlite", true, 2, ">= 2x sqlite"});
  }
  // Issue 19: out of the document cache; RSS of the engine's own process.
  t.push_back({"cold_get", 256, 0, "vs_limit", true, 0.8,
               ">= 0.8x limit (every run: see range)"});
  t.push_back({"cold_get", 256, 0, "vs_sqlite", true, 1.5, ">= 1.5x sqlite"});
  t.push_back({"cold_get_raw", 256, 0, "vs_limit", true, 0.8,
               ">= 0.8x limit (raw JSON read)"});
  t.push_back({"cold_insert", 256, 0, "vs_limit", true, 0.6, ">= 0.6x limit"});
  t.push_back({"cold_update", 256, 0, "vs_sqlite", true, 3, ">= 3x sqlite"});
  t.push_back(
      {"cold_rss", 256, 0, "vs_limit", false, 1.2, "peak RSS <= 1.2x limit"});
  t.push_back({"seek_after_sweep", 256, 0, "ratio", false, 2,
               "first pass after sweep <= 2x fresh pass"});
  t.push_back({"read_p99_during_sweep", 256, 0, "ratio", false, 5,
               "p99 during sweep <= 5x idle p99"});
  t.push_back({"read_p99_during_sweep", 256, 0, "heap_growth_mib", false, 64,
               "heap growth during sweep <= 64 MiB"});
  return t;
}

int Main(int argc, char** argv) {
  Flags f;
  if (!ParseFlags(argc, argv, &f)) {
    Usage();
    return 2;
  }
  std::string root =
      f.dir.empty()
          ? absl::StrCat(std::filesystem::temp_directory_path().string(),
                         "/ttldb_bench.", getpid())
          : f.dir;
  std::filesystem::create_directories(root);

  if (!f.cold_child.empty()) {
    Runner runner(f, root, 0);
    std::vector<Row> rows;
    runner.RunColdHere(f.cold_child, &rows);
    for (const Row& r : rows) {
      printf("ROW %s %d %d %s", r.workload.c_str(), r.doc, r.idx,
             r.engine.c_str());
      for (const auto& [name, v] : r.m) printf(" %s=%.9g", name.c_str(), v);
      printf("\n");
    }
    std::filesystem::remove_all(root);
    return 0;
  }

  // key -> rows of every run.
  std::map<std::string, std::vector<Row>> all;
  std::vector<std::string> order;
  for (int run = 0; run < f.runs; ++run) {
    fprintf(stderr, "run %d of %d\n", run + 1, f.runs);
    Runner runner(f, root, run);
    for (Row& r : runner.RunOnce()) {
      const std::string k = Key(r);
      if (all.find(k) == all.end()) order.push_back(k);
      all[k].push_back(std::move(r));
    }
  }
  std::filesystem::remove_all(root);

  // Medians, metric by metric.
  std::vector<Row> med;
  for (const std::string& k : order) {
    const std::vector<Row>& runs = all[k];
    Row m = runs.front();
    for (auto& [name, v] : m.m) {
      std::vector<double> vals;
      for (const Row& r : runs) vals.push_back(r.Get(name));
      v = Median(vals);
      m.range.emplace_back(*std::min_element(vals.begin(), vals.end()),
                           *std::max_element(vals.begin(), vals.end()));
    }
    med.push_back(m);
  }

  printf(
      "# ttldb_bench: medians of %d run(s); docs=%lld ops=%lld "
      "expired=%lld scale=%lld/%lld big=%lld/%lld\n\n",
      f.runs, static_cast<long long>(f.docs), static_cast<long long>(f.ops),
      static_cast<long long>(f.expired),
      static_cast<long long>(f.scale_expired),
      static_cast<long long>(f.scale_live),
      static_cast<long long>(f.big_expired),
      static_cast<long long>(f.big_live));
  printf(
      "| workload | doc B | idx | engine | ops/s | p50 us | p99 us | "
      "vs limit | vs sqlite | other |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : med) {
    std::string ops, p50, p99, vl, vs;
    std::vector<std::string> other;
    for (size_t k = 0; k < r.m.size(); ++k) {
      const auto& [name, v] = r.m[k];
      // "median (min-max)" when there were several runs.
      const std::string range =
          k < r.range.size() && r.range[k].first != r.range[k].second
              ? absl::StrCat(" (", Fmt(r.range[k].first), "-",
                             Fmt(r.range[k].second), ")")
              : "";
      if (name == "ops_s" || name == "docs_s") {
        ops = Fmt(v) + range;
      } else if (name == "p50_us") {
        p50 = Fmt(v);
      } else if (name == "p99_us") {
        p99 = Fmt(v);
      } else if (name == "vs_limit") {
        vl = Fmt(v) + "x" + range;
      } else if (name == "vs_sqlite") {
        vs = Fmt(v) + "x" + range;
      } else if (name == "rss_mib") {
        other.push_back(absl::StrCat(name, "=", Fmt(v), range));
      } else {
        other.push_back(absl::StrCat(name, "=", Fmt(v)));
      }
    }
    printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n",
           r.workload.c_str(), r.doc,
           r.idx < 0 ? "-" : std::to_string(r.idx).c_str(), r.engine.c_str(),
           ops.c_str(), p50.c_str(), p99.c_str(), vl.c_str(), vs.c_str(),
           absl::StrJoin(other, " ").c_str());
  }

  printf("\n| target | workload | doc B | idx | measured | met |\n");
  printf("|---|---|---|---|---|---|\n");
  int met = 0, total = 0;
  for (const Target& t : Targets()) {
    for (const Row& r : med) {
      if (r.engine != "ttldb" || r.workload != t.workload || r.doc != t.doc ||
          r.idx != t.idx) {
        continue;
      }
      size_t k = 0;
      while (k < r.m.size() && r.m[k].first != t.metric) ++k;
      if (k == r.m.size()) continue;
      const double v = r.m[k].second;
      const bool ok = t.at_least ? v >= t.bound : v <= t.bound;
      std::string range;
      if (k < r.range.size() && r.range[k].first != r.range[k].second) {
        range = absl::StrCat(" (", Fmt(r.range[k].first), "-",
                             Fmt(r.range[k].second), ")");
      }
      ++total;
      met += ok;
      printf("| %s | %s | %d | %d | %s %s%s | %s |\n", t.text.c_str(),
             t.workload.c_str(), t.doc, t.idx, t.metric.c_str(), Fmt(v).c_str(),
             range.c_str(), ok ? "yes" : "**no**");
    }
  }
  printf("\ntargets met: %d of %d; peak RSS of the process: %.0f MiB\n", met,
         total, PeakRssMiB());

  if (!f.csv.empty()) {
    FILE* out = fopen(f.csv.c_str(), "w");
    if (out == nullptr) Die("cannot write " + f.csv);
    fprintf(out, "workload,doc,idx,engine,metric,median\n");
    for (const Row& r : med) {
      for (const auto& [name, v] : r.m) {
        fprintf(out, "%s,%d,%d,%s,%s,%.6g\n", r.workload.c_str(), r.doc, r.idx,
                r.engine.c_str(), name.c_str(), v);
      }
    }
    fclose(out);
  }
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::bench::Main(argc, argv); }
