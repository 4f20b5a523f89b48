// The background index build's longest writer stall (issue 19): a writer
// thread touches and inserts documents without pause while the main thread
// builds an index on a populated collection (--docs documents of
// --doc_bytes, with a TTL index, compacted). Prints per run: how long the
// build took, how many writes completed during it, the longest single write
// and the longest gap between two completed writes while it ran (the
// stall), the writes' p50/p99, and the same writer's longest write and p99
// in the second before the build (its baseline on this machine). Each run
// first builds the same index with no writer (then drops it): the ratio
// says what the writer costs the build. Medians over the runs at the end.
// docs/BENCHMARKS.md has the results.
//
//   bazel run -c opt //tools/bench:index_build_bench -- --runs=3
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "leveldb/db.h"
#include "tools/bench/bench_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/logger.h"

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

struct RunResult {
  double idle_ms, build_ms, max_write_ms, max_gap_ms, p50_ms, p99_ms,
      baseline_max_ms, baseline_p99_ms;
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
  // The build logs its chunk commits and how long they waited for the
  // writers' lock.
  options.logger = [](LogLevel, absl::string_view message) {
    if (absl::StartsWith(message, "index build of")) {
      std::printf("  %.*s\n", static_cast<int>(message.size()), message.data());
    }
  };
  auto opened = Database::Open(root + "/db", options);
  Check(opened.status());
  std::unique_ptr<Database> db = std::move(*opened);
  DbImpl* engine = DatabaseInternal::engine(*db);
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
  engine->db()->CompactRange(nullptr, nullptr);

  RunResult r{};
  // The same build with no writer, then dropped (its keys reclaimed and
  // compacted away) before the measured one.
  int64_t t = NowNanos();
  Check(coll.CreateIndex(R"({"userId": 1})").status());
  r.idle_ms = (NowNanos() - t) / 1e6;
  Check(coll.DropIndex("userId_1"));
  engine->WaitForReclaim();
  engine->WaitForCompactions();
  engine->db()->CompactRange(nullptr, nullptr);

  // The writer: 3 touches ($set accessTime of a random document) to 1
  // insert.
  Rng rng(run);
  std::string doc;
  const std::string touch =
      absl::StrCat(R"({"$set": {"accessTime": {"$date": {"$numberLong": ")",
                   kNowMillis, R"("}}}})");
  TimedWriter writer([&](int64_t n) {
    if (n % 4 == 3) {
      MakeDoc(f.docs + n, kNowMillis, f.doc_bytes, &doc);
      Check(coll.InsertOne(doc).status());
    } else {
      const std::string filter =
          absl::StrCat(R"({"_id": ")", DocId(rng.Uniform(f.docs)), R"("})");
      Check(coll.UpdateOne(filter, touch).status());
    }
  });
  const int64_t baseline_start = NowNanos();
  while (NowNanos() - baseline_start < f.baseline_seconds * 1e9) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const int64_t build_start = NowNanos();
  Check(coll.CreateIndex(R"({"userId": 1})").status());
  const int64_t build_end = NowNanos();
  writer.Stop();

  const WriterWindow before = writer.Window(baseline_start, build_start);
  const WriterWindow during = writer.Window(build_start, build_end);
  r.build_ms = (build_end - build_start) / 1e6;
  r.writes = static_cast<int64_t>(during.ops);
  r.max_write_ms = during.max_ms;
  r.max_gap_ms = during.max_gap_ms;
  r.p50_ms = during.p50_ms;
  r.p99_ms = during.p99_ms;
  r.baseline_max_ms = before.max_ms;
  r.baseline_p99_ms = before.p99_ms;
  auto v = coll.Validate();
  Check(v.status());
  if (!v->Get("valid")->bool_value()) {
    std::fprintf(stderr, "index_build_bench: validate found errors\n");
    std::exit(1);
  }
  std::printf(
      "run %d: idle build %.0f ms; build under the writer %.0f ms (%.2fx); "
      "%lld writes during it; longest write %.1f ms; longest gap between "
      "writes %.1f ms; p50 %.3f ms; p99 %.3f ms; in the %.0f s before: "
      "longest write %.1f ms, p99 %.3f ms\n",
      run, r.idle_ms, r.build_ms, r.build_ms / r.idle_ms,
      static_cast<long long>(r.writes), r.max_write_ms, r.max_gap_ms, r.p50_ms,
      r.p99_ms, f.baseline_seconds, r.baseline_max_ms, r.baseline_p99_ms);
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
  std::vector<double> idle, build, ratio, max_write, max_gap, p99, baseline,
      baseline_p99, writes;
  for (int run = 1; run <= f.runs; ++run) {
    RunResult r = RunOnce(f, run);
    idle.push_back(r.idle_ms);
    build.push_back(r.build_ms);
    ratio.push_back(r.build_ms / r.idle_ms);
    max_write.push_back(r.max_write_ms);
    max_gap.push_back(r.max_gap_ms);
    p99.push_back(r.p99_ms);
    baseline.push_back(r.baseline_max_ms);
    baseline_p99.push_back(r.baseline_p99_ms);
    writes.push_back(static_cast<double>(r.writes));
  }
  std::printf(
      "| docs | idle build ms | build under writer ms | ratio | writes during "
      "build | longest write ms | longest gap ms | p99 ms | longest write "
      "before ms | p99 before ms |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n"
      "| %lld | %.0f | %.0f | %.2fx | %.0f | %.1f | %.1f | %.3f | %.1f | "
      "%.3f |\n",
      static_cast<long long>(f.docs), Median(idle), Median(build),
      Median(ratio), Median(writes), Median(max_write), Median(max_gap),
      Median(p99), Median(baseline), Median(baseline_p99));
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::bench::Main(argc, argv); }
