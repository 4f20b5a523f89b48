// Expiry without hiccups (issue 29 item 5): a foreground client's latency
// while a TTL pass deletes a mass of expired documents, against the same
// client's latency with no pass running.
//
// One collection of sessions, a TTL index on accessTime (and, with
// --indexes=2, a unique index on userId): --expired documents 2 h old (the
// lowest _ids, as time-ordered ids make them) and --live documents touched
// now, bulk-loaded and compacted. One foreground thread alternates a touch
// (updateOne $set accessTime by _id: Collection::Touch) and a findOne by _id
// of a random live document, timing each. Three windows:
//   before   --seconds of foreground alone;
//   pass     a TTL pass (the monitor's own RunPass, on another thread)
//            deleting every expired document, the foreground running
//            throughout; the pass's rate is its documents over its time;
//   after    --seconds of foreground alone right after the pass (the
//            compaction of the swept range may still be running).
// Reports per window and operation: ops, p50, p99, p99.9 and max (us), and
// the ratio of the pass window's p99 to the before window's.
//
//   bazel build --config=opt //tools/bench:expiry_stall_bench
//   .bazel/bin/tools/bench/expiry_stall_bench --expired=1000000 \
//       --live=100000
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "base/start_thread.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "leveldb/db.h"
#include "tools/bench/bench_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"

namespace ttldb {
namespace bench {
namespace {

struct Flags {
  int64_t expired = 1'000'000;
  int64_t live = 100'000;
  int64_t seconds = 5;
  int64_t doc_bytes = 256;
  int64_t indexes = 2;
  int64_t max_deletes_per_second = 0;  // Options::ttl_max_deletes_per_second
};

// The foreground's operations of one window, by kind.
struct Window {
  Latencies touch, find;
  double seconds = 0;  // the window's wall time
};

// Runs the foreground on the calling thread until `stop` (or, when
// `seconds` > 0, for that long), recording into *w.
void Foreground(Collection& coll, FakeClock* clock, const Flags& f,
                std::mt19937_64* rng, const std::atomic<bool>& stop,
                int64_t seconds, Window* w) {
  std::uniform_int_distribution<int64_t> pick(f.expired,
                                              f.expired + f.live - 1);
  const int64_t end = seconds > 0 ? NowNanos() + seconds * 1'000'000'000 : 0;
  const int64_t start = NowNanos();
  for (int64_t n = 0;; ++n) {
    if (seconds > 0 ? NowNanos() >= end : stop.load()) break;
    const Value filter =
        Value::MakeObject({Field("_id", Value::String(DocId(pick(*rng))))});
    const int64_t t0 = NowNanos();
    if (n % 2 == 0) {
      clock->Advance(absl::Milliseconds(1));  // each touch writes a new date
      auto r = coll.Touch(filter, "accessTime");
      if (!r.ok() || r->modified_count != 1) Die("touch of a live document");
      w->touch.Add(NowNanos() - t0);
    } else {
      auto r = coll.FindOne(filter);
      if (!r.ok() || !r->has_value()) Die("findOne of a live document");
      w->find.Add(NowNanos() - t0);
    }
  }
  w->seconds = (NowNanos() - start) / 1e9;
}

// ops/s: the operations of this kind over the window's wall time.
void Print(const char* window, const char* op, Latencies& l, double seconds) {
  std::printf(
      "%-7s %-6s %9zu ops %8.0f ops/s  p50 %7.1f  p99 %8.1f  "
      "p99.9 %8.1f  max %9.1f us\n",
      window, op, l.count(), l.count() / seconds, l.PercentileMicros(50),
      l.PercentileMicros(99), l.PercentileMicros(99.9),
      l.PercentileMicros(100));
}

void Run(const Flags& f) {
  char tmpl[] = "/tmp/expiry_stall_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) Die("mkdtemp");
  const std::string dir = absl::StrCat(tmpl, "/db");
  FakeClock clock(absl::FromUnixMillis(kNowMillis));
  Options options;
  options.clock = &clock;
  options.ttl_monitor_enabled = false;  // the pass is run below
  options.ttl_max_deletes_per_second =
      static_cast<double>(f.max_deletes_per_second);
  std::unique_ptr<Database> db =
      Check(Database::Open(dir, options), "opening the database");
  Collection& coll = db->collection("sessions");
  Check(coll.CreateIndex(absl::StrCat(R"({"accessTime": 1})"),
                         absl::StrCat(R"({"expireAfterSeconds": )",
                                      kExpireAfterSeconds, "}"))
            .status(),
        "the TTL index");
  if (f.indexes >= 2) {
    Check(coll.CreateIndex(R"({"userId": 1})", R"({"unique": true})").status(),
          "the userId index");
  }
  const int64_t total = f.expired + f.live;
  const int64_t load_start = NowNanos();
  std::string json;
  std::vector<std::string> jsons;
  std::vector<DocArg> batch;
  for (int64_t i = 0; i < total; i += 1000) {
    jsons.clear();
    for (int64_t j = i; j < std::min(total, i + 1000); ++j) {
      const int64_t access = j < f.expired
                                 ? kNowMillis - 2 * kExpireAfterSeconds * 1000
                                 : kNowMillis;
      MakeDoc(j, access, static_cast<int>(f.doc_bytes), &json);
      jsons.push_back(json);
    }
    batch.assign(jsons.begin(), jsons.end());
    Check(coll.InsertMany(batch), "loading");
  }
  DatabaseInternal::engine(*db)->db()->CompactRange(nullptr, nullptr);
  std::printf(
      "loaded %lld expired + %lld live documents of %lld B, %lld "
      "indexes with _id, in %.1f s\n",
      static_cast<long long>(f.expired), static_cast<long long>(f.live),
      static_cast<long long>(f.doc_bytes),
      static_cast<long long>(f.indexes + 1), (NowNanos() - load_start) / 1e9);

  std::mt19937_64 rng(1);
  std::atomic<bool> stop{false};
  Window before, during, after;
  Foreground(coll, &clock, f, &rng, stop, f.seconds, &before);

  TtlPassStats stats;
  int64_t pass_ns = 0;
  std::thread pass([&] {
    LowerCurrentThreadPriority();  // as the monitor's thread does
    const int64_t t0 = NowNanos();
    stats = DatabaseInternal::RunTtlPass(*db, clock.WallNow());
    pass_ns = NowNanos() - t0;
    stop.store(true);
  });
  Foreground(coll, &clock, f, &rng, stop, 0, &during);
  pass.join();
  Foreground(coll, &clock, f, &rng, stop, f.seconds, &after);

  std::printf(
      "pass: %lld documents deleted in %.2f s = %.0f docs/s (%lld "
      "rounds)\n",
      static_cast<long long>(stats.deleted_documents), pass_ns / 1e9,
      stats.deleted_documents / (pass_ns / 1e9),
      static_cast<long long>(stats.rounds));
  if (stats.deleted_documents != f.expired) Die("the pass left documents");
  Print("before", "touch", before.touch, before.seconds);
  Print("before", "find", before.find, before.seconds);
  Print("pass", "touch", during.touch, during.seconds);
  Print("pass", "find", during.find, during.seconds);
  Print("after", "touch", after.touch, after.seconds);
  Print("after", "find", after.find, after.seconds);
  std::printf(
      "p99 during the pass / before: touch %.2fx, find %.2fx\n",
      during.touch.PercentileMicros(99) / before.touch.PercentileMicros(99),
      during.find.PercentileMicros(99) / before.find.PercentileMicros(99));
  Check(db->Close(), "closing");
  db.reset();
  std::system(absl::StrCat("rm -rf ", tmpl).c_str());
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) {
  ttldb::bench::Flags f;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    using ttldb::bench::ParsePositiveFlag;
    if (ParsePositiveFlag(a, "expired", &f.expired) ||
        ParsePositiveFlag(a, "live", &f.live) ||
        ParsePositiveFlag(a, "seconds", &f.seconds) ||
        ParsePositiveFlag(a, "doc_bytes", &f.doc_bytes) ||
        ParsePositiveFlag(a, "indexes", &f.indexes) ||
        ParsePositiveFlag(a, "max_deletes_per_second",
                          &f.max_deletes_per_second)) {
      continue;
    }
    std::fprintf(stderr,
                 "usage: expiry_stall_bench [--expired=N] [--live=N] "
                 "[--seconds=N] [--doc_bytes=N] [--indexes=1|2] "
                 "[--max_deletes_per_second=N]\n");
    return 2;
  }
  ttldb::bench::Run(f);
  return 0;
}
