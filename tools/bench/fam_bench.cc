// fam_bench: Collection::FindOneAndUpdate against the two calls it replaces
// (UpdateOne, then FindOne to read the result back), in the same run, on
// the same documents, with the ratio computed within each run and the
// median over --runs taken (issue 16's "findOneAndUpdate vs
// UpdateOne+FindOne").
//
//   fam_bench [--runs=3] [--docs=50000] [--ops=20000] [--doc_bytes=256]
//
// Two workloads, each on a fresh database of --docs documents
// (tools/bench/bench_util.h MakeDoc, a TTL index on accessTime):
//   by_id:  {_id: <random>} $inc a counter, returnDocument "after" (a
//           session "read and touch"), vs UpdateOne + FindOne by _id;
//   claim:  {state: "new"} sorted by {_id: 1} (an index on {state: 1,
//           _id: 1}), $set
//           state "taken", returnDocument "before" (the job-queue claim),
//           vs FindOne + UpdateOne by the found _id (which, unlike
//           findOneAndUpdate, is not atomic: two workers could claim the
//           same job).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
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
  int runs = 3;
  int64_t docs = 50'000;
  int64_t ops = 20'000;
  int doc_bytes = 256;
};

// A fresh database with `docs` documents, each with state "new".
struct Fixture {
  std::string dir;
  FakeClock clock{absl::FromUnixMillis(kNowMillis)};
  std::unique_ptr<Database> db;
  Collection* c = nullptr;

  Fixture(const Flags& f, int run, const char* name) {
    dir = absl::StrCat(std::filesystem::temp_directory_path().string(),
                       "/fam_bench_", getpid(), "_", name, "_", run);
    std::filesystem::remove_all(dir);
    Options o;
    o.clock = &clock;
    o.ttl_monitor_enabled = false;
    db = Check(Database::Open(dir, o), "open");
    c = &db->collection("docs");
    Check(c->CreateIndex(R"({"accessTime": 1})",
                         R"({"expireAfterSeconds": 3600})"),
          "index");
    // Equality on state, then _id order: the index provides the claim's
    // sort, so a claim reads one entry (ttldb's planner would otherwise
    // take an index on state alone and sort the whole queue each time).
    Check(c->CreateIndex(R"({"state": 1, "_id": 1})"), "index");
    std::string json;
    for (int64_t i = 0; i < f.docs; ++i) {
      MakeDoc(i, kNowMillis - 1000, f.doc_bytes, &json);
      Value doc = Check(ParseDocument(json), "doc");
      doc.mutable_object_fields().emplace_back("state", Value::String("new"));
      doc.mutable_object_fields().emplace_back("n", Value::Int32(0));
      Check(c->InsertOne(doc), "insert");
    }
  }
  ~Fixture() {
    db.reset();
    std::filesystem::remove_all(dir);
  }
};

Value IdFilter(int64_t i) {
  return Value::MakeObject({Field("_id", Value::String(DocId(i)))});
}

// Operations per second of `op` called `ops` times.
template <typename Op>
double Rate(int64_t ops, Op op) {
  const int64_t start = NowNanos();
  for (int64_t i = 0; i < ops; ++i) op(i);
  return ops * 1e9 / static_cast<double>(NowNanos() - start);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void Run(const Flags& f) {
  std::vector<double> id_fam, id_two, id_ratio, q_fam, q_two, q_ratio;
  const Value inc = Check(ParseDocument(R"({"$inc": {"n": 1}})"), "inc");
  const Value take =
      Check(ParseDocument(R"({"$set": {"state": "taken"}})"), "take");
  const Value is_new = Check(ParseDocument(R"({"state": "new"})"), "new");
  for (int run = 0; run < f.runs; ++run) {
    std::mt19937_64 rng(run);
    std::vector<int64_t> keys(f.ops);
    for (int64_t& k : keys) k = static_cast<int64_t>(rng() % f.docs);
    {
      Fixture fx(f, run, "by_id");
      FindOneAndModifyOptions after;
      after.return_new = true;
      // Alternating halves would favour the second (warm cache); each
      // variant runs over the same keys once, fam first then the pair,
      // and again in the other order, and the two rates are averaged.
      double fam = 0, two = 0;
      for (int pass = 0; pass < 2; ++pass) {
        auto run_fam = [&] {
          return Rate(f.ops, [&](int64_t i) {
            auto r = Check(
                fx.c->FindOneAndUpdate(IdFilter(keys[i]), inc, after), "fam");
            if (!r.has_value()) Die("fam: no document");
          });
        };
        auto run_two = [&] {
          return Rate(f.ops, [&](int64_t i) {
            const Value filter = IdFilter(keys[i]);
            Check(fx.c->UpdateOne(filter, inc), "update");
            auto r = Check(fx.c->FindOne(filter), "find");
            if (!r.has_value()) Die("find: no document");
          });
        };
        if (pass == 0) {
          fam += run_fam();
          two += run_two();
        } else {
          two += run_two();
          fam += run_fam();
        }
      }
      id_fam.push_back(fam / 2);
      id_two.push_back(two / 2);
      id_ratio.push_back(fam / two);
    }
    {
      // Claims take documents out of the "new" set: each variant gets its
      // own database and claims ops/2 jobs.
      const int64_t claims = std::min(f.ops / 2, f.docs);
      FindOneAndModifyOptions first;
      first.sort = Check(ParseDocument(R"({"_id": 1})"), "sort");
      FindOptions find_first;
      find_first.sort = first.sort;
      double fam, two;
      {
        Fixture fx(f, run, "claim_fam");
        fam = Rate(claims, [&](int64_t) {
          auto r = Check(fx.c->FindOneAndUpdate(is_new, take, first), "fam");
          if (!r.has_value()) Die("claim: queue empty");
        });
      }
      {
        Fixture fx(f, run, "claim_two");
        two = Rate(claims, [&](int64_t) {
          auto r = Check(fx.c->FindOne(is_new, find_first), "find");
          if (!r.has_value()) Die("claim: queue empty");
          Value filter = Value::MakeObject({Field("_id", *r->Get("_id"))});
          Check(fx.c->UpdateOne(filter, take), "update");
        });
      }
      q_fam.push_back(fam);
      q_two.push_back(two);
      q_ratio.push_back(fam / two);
    }
  }
  printf("fam_bench: %d run(s), %lld documents of ~%d B, %lld ops (medians)\n",
         f.runs, static_cast<long long>(f.docs), f.doc_bytes,
         static_cast<long long>(f.ops));
  printf("%-8s %22s %22s %8s\n", "workload", "findOneAndUpdate op/s",
         "two calls op/s", "ratio");
  printf("%-8s %22.0f %22.0f %8.2f\n", "by_id", Median(id_fam), Median(id_two),
         Median(id_ratio));
  printf("%-8s %22.0f %22.0f %8.2f\n", "claim", Median(q_fam), Median(q_two),
         Median(q_ratio));
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) {
  ttldb::bench::Flags f;
  for (int i = 1; i < argc; ++i) {
    int64_t v = 0;
    if (ttldb::bench::ParsePositiveFlag(argv[i], "runs", &v)) {
      f.runs = static_cast<int>(v);
    } else if (ttldb::bench::ParsePositiveFlag(argv[i], "docs", &v)) {
      f.docs = v;
    } else if (ttldb::bench::ParsePositiveFlag(argv[i], "ops", &v)) {
      f.ops = v;
    } else if (ttldb::bench::ParsePositiveFlag(argv[i], "doc_bytes", &v)) {
      f.doc_bytes = static_cast<int>(v);
    } else {
      fprintf(stderr,
              "usage: fam_bench [--runs=3] [--docs=50000] [--ops=20000] "
              "[--doc_bytes=256]\n");
      return 2;
    }
  }
  ttldb::bench::Run(f);
  return 0;
}
