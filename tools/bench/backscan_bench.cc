// backscan_bench: sorts that a backward scan serves (issue 19, round 5
// session 7), on --docs documents of ~256 B (tools/bench/bench_util.h
// MakeDoc) with an ascending index on userId:
//   find({}).sort({_id: -1}).limit(1)      the newest document by _id
//   find({}).sort({_id: 1}).limit(1)       the forward reference
//   find({}).sort({userId: -1}).limit(1)   an ascending index, reversed
//   the same with limit(1000), backward and forward (Prev() vs Next())
//   find({group: {$gte: 100, $lt: 200}}).sort({userId: -1}).limit(10)
//   find({group: {$gte: 4800, $lt: 4900}}).sort({userId: 1}).limit(10)
//                                          (no index on group: the whole
//                                          {userId: 1} index is scanned in
//                                          sort order, backward or forward,
//                                          to matches near its far end)
// Each query runs for about --ms milliseconds per run (at least 3 times);
// the median latency of each run, then the median over --runs, is printed
// with the query's explain totalDocsExamined.
//
//   backscan_bench [--runs=3] [--docs=50000] [--ms=300]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/bench/bench_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace bench {
namespace {

struct Flags {
  int64_t runs = 3;
  int64_t docs = 50'000;
  int64_t ms = 300;
};

struct Query {
  const char* name;
  const char* filter;
  const char* sort;
  int64_t limit;
};

constexpr Query kQueries[] = {
    {"find({}).sort({_id: -1}).limit(1)", "{}", R"({"_id": -1})", 1},
    {"find({}).sort({_id: 1}).limit(1)", "{}", R"({"_id": 1})", 1},
    {"find({}).sort({userId: -1}).limit(1)", "{}", R"({"userId": -1})", 1},
    {"find({}).sort({_id: -1}).limit(1000)", "{}", R"({"_id": -1})", 1000},
    {"find({}).sort({_id: 1}).limit(1000)", "{}", R"({"_id": 1})", 1000},
    {"find({}).sort({userId: -1}).limit(1000)", "{}", R"({"userId": -1})",
     1000},
    {"find({}).sort({userId: 1}).limit(1000)", "{}", R"({"userId": 1})", 1000},
    {"find({group: [100, 200)}).sort({userId: -1}).limit(10)",
     R"({"group": {"$gte": 100, "$lt": 200}})", R"({"userId": -1})", 10},
    {"find({group: [4800, 4900)}).sort({userId: 1}).limit(10)",
     R"({"group": {"$gte": 4800, "$lt": 4900}})", R"({"userId": 1})", 10},
};

void Run(const Flags& f) {
  const std::string dir =
      absl::StrCat(std::filesystem::temp_directory_path().string(),
                   "/backscan_bench_", getpid());
  std::filesystem::remove_all(dir);
  FakeClock clock{absl::FromUnixMillis(kNowMillis)};
  Options o;
  o.clock = &clock;
  o.ttl_monitor_enabled = false;
  auto db = Check(Database::Open(dir, o), "open");
  Collection& c = db->collection("docs");
  Check(c.CreateIndex(R"({"userId": 1})"), "index");
  std::string json;
  for (int64_t i = 0; i < f.docs; ++i) {
    MakeDoc(i, kNowMillis - 1000, 256, &json);
    Check(c.InsertOne(json), "insert");
  }
  printf(
      "backscan_bench: %lld run(s), %lld documents of ~256 B, index "
      "{userId: 1}; median latency per query in ms (min-max of the runs' "
      "medians)\n",
      static_cast<long long>(f.runs), static_cast<long long>(f.docs));
  printf("%-60s %10s %22s %12s\n", "query", "median ms", "(min-max)",
         "docs exam.");
  for (const Query& q : kQueries) {
    FindOptions fo;
    fo.sort = Check(ParseDocument(q.sort), "sort");
    fo.limit = q.limit;
    const Value filter = Check(ParseDocument(q.filter), "filter");
    Value explain = Check(c.Explain(filter, fo), "explain");
    const Value* stats = explain.Get("executionStats");
    const Value* docs =
        stats != nullptr ? stats->Get("totalDocsExamined") : nullptr;
    std::vector<double> medians;
    std::string first_id;
    for (int64_t run = 0; run < f.runs; ++run) {
      std::vector<double> lat;
      const int64_t start = NowNanos();
      while (lat.size() < 3 || NowNanos() - start < f.ms * 1'000'000) {
        const int64_t t0 = NowNanos();
        auto cursor = Check(c.Find(filter, fo), "find");
        auto out = Check(cursor->ToVector(), "next");
        lat.push_back((NowNanos() - t0) / 1e6);
        // (A small --docs leaves the group ranges empty.)
        std::string id = out.empty() ? "none" : ToJson(*out[0].Get("_id"));
        if (first_id.empty()) first_id = id;
        if (id != first_id) Die("answers differ between runs");
      }
      medians.push_back(Median(lat));
    }
    const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
    printf("%-60s %10.3f %10.3f - %9.3f %12s   first _id %s\n", q.name,
           Median(medians), *lo, *hi,
           docs != nullptr ? ToJson(*docs).c_str() : "?", first_id.c_str());
  }
  db.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) {
  ttldb::bench::Flags f;
  for (int i = 1; i < argc; ++i) {
    if (!ttldb::bench::ParsePositiveFlag(argv[i], "runs", &f.runs) &&
        !ttldb::bench::ParsePositiveFlag(argv[i], "docs", &f.docs) &&
        !ttldb::bench::ParsePositiveFlag(argv[i], "ms", &f.ms)) {
      ttldb::bench::Die(absl::StrCat("unknown flag ", argv[i]));
    }
  }
  ttldb::bench::Run(f);
  return 0;
}
