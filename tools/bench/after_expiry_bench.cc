// Queries after a mass expiry (issue 19): the latency of a query that starts
// at the low end of the TTL index, every --interval_ms for --seconds after a
// TTL pass deleted half of --docs documents, beside the same query on a
// compacted store holding only the live half, in the same run (the two
// stores are sampled alternately, so a slow moment of the machine lands on
// both). Prints per query: median and max latency of each store and their
// ratios, and how long the pass took. docs/BENCHMARKS.md has the results.
//
// Two shapes of _id (--ids): "interleaved" (default): the even documents
// expired, so the deleted _ids lie between live ones; "time": _ids ordered
// like the dates (ObjectIds), the oldest half expired, so the deleted
// documents are a prefix of the _id order, where a collection scan starts.
//
//   bazel run -c opt //tools/bench:after_expiry_bench -- --runs=3
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "leveldb/db.h"
#include "tools/bench/bench_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace bench {
namespace {

struct Flags {
  int64_t docs = 200'000;
  int doc_bytes = 256;
  double seconds = 5;
  int interval_ms = 20;
  int runs = 1;
  bool hide_expired = true;
  bool time_ids = false;  // --ids=time
  // --first=compacted: the compacted store is queried first in the first
  // sample (and every other one); default: the store after the pass.
  bool compacted_first = false;
};

void Check(const absl::Status& s) {
  if (!s.ok()) {
    std::fprintf(stderr, "after_expiry_bench: %s\n", s.ToString().c_str());
    std::exit(1);
  }
}

bool Expired(const Flags& f, int64_t i) {
  return f.time_ids ? i < f.docs / 2 : i % 2 == 0;
}

int64_t Access(const Flags& f, int64_t i) {
  if (f.time_ids) {
    // Dates grow with i, as an ObjectId's time does; the first half is
    // expired (2 h old and older), the second live (younger than 1 min).
    return i < f.docs / 2
               ? kNowMillis - 2 * kExpireAfterSeconds * 1000 - (f.docs / 2 - i)
               : kNowMillis - 60'000 + (i - f.docs / 2) * 60'000 / f.docs;
  }
  // Even documents expired (2 h old and older: the low end of the index),
  // odd ones live (younger than 1 min).
  return i % 2 == 0 ? kNowMillis - 2 * kExpireAfterSeconds * 1000 - i
                    : kNowMillis - (i % 60'000);
}

struct Store {
  std::string root, dir;
  std::unique_ptr<FakeClock> clock;
  std::unique_ptr<Database> db;
  Collection* coll = nullptr;
};

// A store in a fresh temp directory with documents i in [0, docs) for which
// keep(i), compacted into LevelDB's tables (a store in its steady state).
Store OpenStore(const Flags& f, const char* name, bool only_live) {
  Store s;
  char tmpl[] = "/tmp/after_expiry_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) std::exit(1);
  s.root = tmpl;
  s.dir = absl::StrCat(tmpl, "/", name);
  s.clock = std::make_unique<FakeClock>(absl::FromUnixMillis(kNowMillis));
  Options options;
  options.ttl_monitor_enabled = false;
  options.clock = s.clock.get();
  options.hide_expired = f.hide_expired;
  auto db = Database::Open(s.dir, options);
  Check(db.status());
  s.db = std::move(*db);
  s.coll = &s.db->collection("sessions");
  Check(s.coll
            ->CreateIndex(R"({"accessTime": 1})",
                          absl::StrCat(R"({"expireAfterSeconds": )",
                                       kExpireAfterSeconds, "}"))
            .status());
  std::string json;
  for (int64_t i = 0; i < f.docs; ++i) {
    if (only_live && Expired(f, i)) continue;
    MakeDoc(i, Access(f, i), f.doc_bytes, &json);
    Check(s.coll->InsertOne(json).status());
  }
  DatabaseInternal::engine(*s.db)->db()->CompactRange(nullptr, nullptr);
  return s;
}

struct Query {
  const char* name;
  std::string filter;
  std::string sort;
};

// One query's latency in ms; checks that it found a live document.
double TimeQuery(Store& s, const Query& q) {
  FindOptions options;
  options.limit = 1;
  if (!q.sort.empty()) {
    auto sort = ParseDocument(q.sort);
    Check(sort.status());
    options.sort = *sort;
  }
  const int64_t start = NowNanos();
  auto cursor = s.coll->Find(q.filter, options);
  Check(cursor.status());
  auto doc = (*cursor)->Next();
  Check(doc.status());
  const int64_t end = NowNanos();
  if (!doc->has_value()) {
    std::fprintf(stderr, "after_expiry_bench: %s found nothing\n", q.name);
    std::exit(1);
  }
  return (end - start) / 1e6;
}

void RunOnce(const Flags& f, int run) {
  Store expired = OpenStore(f, "expired", false);
  Store compacted = OpenStore(f, "compacted", true);
  const std::string now =
      absl::StrCat(R"({"$date": {"$numberLong": ")", kNowMillis, R"("}})");
  const std::vector<Query> queries = {
      {"find({accessTime: {$lte: now}}).limit(1)",
       absl::StrCat(R"({"accessTime": {"$lte": )", now, "}}"), ""},
      {"find({}).sort({accessTime: 1}).limit(1)", "{}", R"({"accessTime": 1})"},
      {"find({}).sort({_id: 1}).limit(1)", "{}", R"({"_id": 1})"},
      {"find({}).limit(1)", "{}", ""},
  };
  // The first query of each kind on a Database pays one-time costs (first
  // use of the code paths, of the allocator's size classes, of the
  // collection's query state): 0.1-0.2 ms, charged to whichever store was
  // queried first, also without any pass. So each query runs once on both
  // stores before the pass (a store in its steady state has served
  // queries); the expired store's first query after the pass then measures
  // only what the pass left behind.
  for (const Query& q : queries) {
    TimeQuery(compacted, q);
    TimeQuery(expired, q);
  }
  const int64_t pass_start = NowNanos();
  TtlPassStats stats = DatabaseInternal::RunTtlPass(
      *expired.db, absl::FromUnixMillis(kNowMillis));
  const double pass_ms = (NowNanos() - pass_start) / 1e6;
  int64_t want = 0;
  for (int64_t i = 0; i < f.docs; ++i) want += Expired(f, i) ? 1 : 0;
  if (stats.deleted_documents != want) {
    std::fprintf(stderr, "after_expiry_bench: the pass deleted %lld\n",
                 static_cast<long long>(stats.deleted_documents));
    std::exit(1);
  }
  std::vector<std::vector<double>> a(queries.size()), b(queries.size());
  const int64_t begin = NowNanos();
  const int64_t interval = int64_t{f.interval_ms} * 1'000'000;
  int64_t next = begin;
  for (int sample = 0; NowNanos() - begin < f.seconds * 1e9; ++sample) {
    while (NowNanos() < next) {
    }
    next += interval;
    for (size_t q = 0; q < queries.size(); ++q) {
      // Alternate which store goes first.
      if ((sample + (f.compacted_first ? 1 : 0)) % 2 == 0) {
        a[q].push_back(TimeQuery(expired, queries[q]));
        b[q].push_back(TimeQuery(compacted, queries[q]));
      } else {
        b[q].push_back(TimeQuery(compacted, queries[q]));
        a[q].push_back(TimeQuery(expired, queries[q]));
      }
    }
  }
  std::printf(
      "run %d (%s _ids): pass deleted %lld of %lld in %.0f ms; %zu "
      "samples\n",
      run, f.time_ids ? "time-ordered" : "interleaved",
      static_cast<long long>(stats.deleted_documents),
      static_cast<long long>(f.docs), pass_ms, a[0].size());
  std::printf(
      "| query | after the pass: median / max ms | compacted: median / max "
      "ms | ratio of medians | ratio of maxima | first sample ms (after / "
      "compacted) |\n|---|---|---|---|---|---|\n");
  for (size_t q = 0; q < queries.size(); ++q) {
    std::printf(
        "| `%s` | %.4f / %.3f | %.4f / %.3f | %.2fx | %.2fx | %.4f / "
        "%.4f |\n",
        queries[q].name, Median(a[q]), Max(a[q]), Median(b[q]), Max(b[q]),
        Median(a[q]) / Median(b[q]), Max(a[q]) / Max(b[q]), a[q][0], b[q][0]);
  }
  std::fflush(stdout);
  Check(expired.db->Close());
  Check(compacted.db->Close());
  for (const Store* s : {&expired, &compacted}) {
    if (std::system(absl::StrCat("rm -rf '", s->root, "'").c_str()) != 0) {
      std::fprintf(stderr, "after_expiry_bench: could not remove %s\n",
                   s->root.c_str());
    }
  }
}

int Main(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strncmp(a, "--docs=", 7) == 0) {
      f.docs = std::atoll(a + 7);
    } else if (std::strncmp(a, "--doc_bytes=", 12) == 0) {
      f.doc_bytes = std::atoi(a + 12);
    } else if (std::strncmp(a, "--seconds=", 10) == 0) {
      f.seconds = std::atof(a + 10);
    } else if (std::strncmp(a, "--interval_ms=", 14) == 0) {
      f.interval_ms = std::atoi(a + 14);
    } else if (std::strncmp(a, "--runs=", 7) == 0) {
      f.runs = std::atoi(a + 7);
    } else if (std::strncmp(a, "--hide_expired=", 15) == 0) {
      f.hide_expired = std::atoi(a + 15) != 0;
    } else if (std::strcmp(a, "--first=compacted") == 0) {
      f.compacted_first = true;
    } else if (std::strcmp(a, "--first=expired") == 0) {
      f.compacted_first = false;
    } else if (std::strcmp(a, "--ids=time") == 0) {
      f.time_ids = true;
    } else if (std::strcmp(a, "--ids=interleaved") == 0) {
      f.time_ids = false;
    } else {
      std::fprintf(stderr,
                   "usage: after_expiry_bench [--docs=200000] "
                   "[--doc_bytes=256] [--seconds=5] [--interval_ms=20] "
                   "[--runs=1] [--hide_expired=1] [--ids=interleaved|time] "
                   "[--first=expired|compacted]\n");
      return 2;
    }
  }
  for (int run = 1; run <= f.runs; ++run) RunOnce(f, run);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::bench::Main(argc, argv); }
