// The background index build's longest writer stall (issue 19): a writer
// thread touches and inserts documents without pause while the main thread
// builds an index on a populated collection (--docs documents of
// --doc_bytes, with a TTL index, compacted). Prints per run: how long the
// build took, how many writes completed during it, the longest single write
// and the longest gap between two completed writes while it ran (the
// stall), the writes' p50/p99, and the same writer's longest write in the
// second before the build (its baseline on this machine). Medians over the
// runs at the end. docs/BENCHMARKS.md has the results.
//
//   bazel run -c opt //tools/bench:index_build_bench -- --runs=3
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/clock.h"
#include "engine/database.h"
#include "engine/database_internal.h"
#include "engine/engine.h"
#include "leveldb/db.h"
#include "tools/bench/bench_util.h"

namespace ttldb {
namespace bench {
namespace {

struct Flags {
  int64_t docs = 200'000;
  int doc_bytes = 256;
  int runs = 1;
  double baseline_seconds = 1;
};

void Check(const absl::Status& s) {
  if (!s.ok()) {
    std::fprintf(stderr, "index_build_bench: %s\n", s.ToString().c_str());
    std::exit(1);
  }
}

struct Write {
  int64_t start_ns, end_ns;
};

double Ms(int64_t ns) { return ns / 1e6; }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct RunResult {
  double build_ms, max_write_ms, max_gap_ms, p50_ms, p99_ms, baseline_max_ms;
  int64_t writes;
};

RunResult RunOnce(const Flags& f, int run) {
  char tmpl[] = "/tmp/index_build_bench_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) std::exit(1);
  const std::string root = tmpl;
  FakeClock clock(absl::FromUnixMillis(kNowMillis));
  Options options;
  options.ttl_monitor_enabled = false;
  options.clock = &clock;
  auto opened = Database::Open(root + "/db", options);
  Check(opened.status());
  std::unique_ptr<Database> db = std::move(*opened);
  Collection& coll = db->collection("sessions");
  Check(coll.CreateIndex(R"({"accessTime": 1})",
                         absl::StrCat(R"({"expireAfterSeconds": )",
                                      kExpireAfterSeconds, "}"))
            .status());
  std::string json;
  for (int64_t i = 0; i < f.docs; ++i) {
    MakeDoc(i, kNowMillis - (i % 60'000), f.doc_bytes, &json);
    Check(coll.InsertOne(json).status());
  }
  DatabaseInternal::engine(*db)->db()->CompactRange(nullptr, nullptr);

  // The writer: 3 touches ($set accessTime of a random document) to 1
  // insert, each timed.
  std::atomic<bool> stop{false};
  std::vector<Write> writes;
  writes.reserve(1 << 20);
  std::thread writer([&] {
    Rng rng(run);
    std::string doc;
    const std::string touch =
        absl::StrCat(R"({"$set": {"accessTime": {"$date": {"$numberLong": ")",
                     kNowMillis, R"("}}}})");
    for (int64_t n = 0; !stop.load(std::memory_order_relaxed); ++n) {
      const int64_t start = NowNanos();
      if (n % 4 == 3) {
        MakeDoc(f.docs + n, kNowMillis, f.doc_bytes, &doc);
        Check(coll.InsertOne(doc).status());
      } else {
        const std::string filter =
            absl::StrCat(R"({"_id": ")", DocId(rng.Uniform(f.docs)), R"("})");
        Check(coll.UpdateOne(filter, touch).status());
      }
      writes.push_back({start, NowNanos()});
    }
  });
  const int64_t baseline_start = NowNanos();
  while (NowNanos() - baseline_start < f.baseline_seconds * 1e9) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const int64_t build_start = NowNanos();
  Check(coll.CreateIndex(R"({"userId": 1})").status());
  const int64_t build_end = NowNanos();
  stop = true;
  writer.join();

  RunResult r{};
  r.build_ms = Ms(build_end - build_start);
  std::vector<double> during;
  int64_t last_end = build_start;
  for (const Write& w : writes) {
    if (w.end_ns < baseline_start) continue;
    if (w.end_ns < build_start) {
      r.baseline_max_ms =
          std::max(r.baseline_max_ms, Ms(w.end_ns - w.start_ns));
      continue;
    }
    if (w.start_ns > build_end) break;
    // A write overlapping the build.
    during.push_back(Ms(w.end_ns - w.start_ns));
    r.max_write_ms = std::max(r.max_write_ms, during.back());
    r.max_gap_ms =
        std::max(r.max_gap_ms, Ms(std::min(w.end_ns, build_end) - last_end));
    last_end = w.end_ns;
  }
  r.max_gap_ms = std::max(r.max_gap_ms, Ms(build_end - last_end));
  r.writes = static_cast<int64_t>(during.size());
  std::sort(during.begin(), during.end());
  if (!during.empty()) {
    r.p50_ms = during[during.size() / 2];
    r.p99_ms = during[std::min(during.size() - 1, during.size() * 99 / 100)];
  }
  auto v = coll.Validate();
  Check(v.status());
  if (!v->Get("valid")->bool_value()) {
    std::fprintf(stderr, "index_build_bench: validate found errors\n");
    std::exit(1);
  }
  std::printf(
      "run %d: build %.0f ms; %lld writes during it; longest write %.1f ms; "
      "longest gap between writes %.1f ms; p50 %.3f ms; p99 %.3f ms; "
      "longest write in the %.0f s before: %.1f ms\n",
      run, r.build_ms, static_cast<long long>(r.writes), r.max_write_ms,
      r.max_gap_ms, r.p50_ms, r.p99_ms, f.baseline_seconds, r.baseline_max_ms);
  std::fflush(stdout);
  Check(db->Close());
  if (std::system(absl::StrCat("rm -rf '", root, "'").c_str()) != 0) {
    std::fprintf(stderr, "index_build_bench: could not remove %s\n",
                 root.c_str());
  }
  return r;
}

int Main(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strncmp(a, "--docs=", 7) == 0) {
      f.docs = std::atoll(a + 7);
    } else if (std::strncmp(a, "--doc_bytes=", 12) == 0) {
      f.doc_bytes = std::atoi(a + 12);
    } else if (std::strncmp(a, "--runs=", 7) == 0) {
      f.runs = std::atoi(a + 7);
    } else if (std::strncmp(a, "--baseline_seconds=", 19) == 0) {
      f.baseline_seconds = std::atof(a + 19);
    } else {
      std::fprintf(stderr,
                   "usage: index_build_bench [--docs=200000] "
                   "[--doc_bytes=256] [--runs=1] [--baseline_seconds=1]\n");
      return 2;
    }
  }
  std::vector<double> build, max_write, max_gap, p99, baseline;
  std::vector<double> writes;
  for (int run = 1; run <= f.runs; ++run) {
    RunResult r = RunOnce(f, run);
    build.push_back(r.build_ms);
    max_write.push_back(r.max_write_ms);
    max_gap.push_back(r.max_gap_ms);
    p99.push_back(r.p99_ms);
    baseline.push_back(r.baseline_max_ms);
    writes.push_back(static_cast<double>(r.writes));
  }
  std::printf(
      "| docs | build ms | writes during build | longest write ms | longest "
      "gap ms | p99 ms | longest write before ms |\n"
      "|---|---|---|---|---|---|---|\n"
      "| %lld | %.0f | %.0f | %.1f | %.1f | %.3f | %.1f |\n",
      static_cast<long long>(f.docs), Median(build), Median(writes),
      Median(max_write), Median(max_gap), Median(p99), Median(baseline));
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::bench::Main(argc, argv); }
