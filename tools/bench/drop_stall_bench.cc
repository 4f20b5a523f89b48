// DDL stalls (issue 18 item 8): the longest stall of an unrelated writer
// while dropIndex and dropCollection remove a large collection's keys. A
// writer thread inserts into another collection, one unsynced document at
// a time, for the whole run; for each drop the benchmark reports how long
// the call took, when the dropped keys were gone from LevelDB (polled every
// 50 ms through the internal engine) and compacted, and the writer's
// longest operation and p99 from the drop's start until then.
//
//   bazel build -c opt //tools/bench:drop_stall_bench
//   .bazel/out/k8-opt/bin/tools/bench/drop_stall_bench --docs=200000
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "leveldb/db.h"
#include "storage/keys.h"
#include "tools/bench/bench_util.h"
#include "ttldb/database.h"

namespace ttldb {
namespace bench {
namespace {

struct Flags {
  int64_t docs = 200'000;
  int doc_bytes = 256;
};

void Check(const absl::Status& s) {
  if (!s.ok()) {
    std::fprintf(stderr, "drop_stall_bench: %s\n", s.ToString().c_str());
    std::exit(1);
  }
}

// Whether any key starts with `prefix` (a seek through the internal
// engine: the drop may have returned before its keys are deleted).
bool AnyKey(DbImpl* engine, const std::string& prefix) {
  std::unique_ptr<leveldb::Iterator> it(
      engine->db()->NewIterator(leveldb::ReadOptions()));
  it->Seek(prefix);
  return it->Valid() && it->key().starts_with(prefix);
}

struct Window {
  double call_ms = 0, gone_ms = 0, max_stall_ms = 0, p99_ms = 0;
  size_t ops = 0;
};

// Runs `drop`, waits until no key is left under any of `prefixes` and the
// compactions queued meanwhile are done, and measures the writer in that
// window.
template <typename Drop>
Window Measure(DbImpl* engine, const std::vector<std::string>& prefixes,
               Drop drop, const TimedWriter& writer) {
  Window w;
  const int64_t start = NowNanos();
  drop();
  const int64_t returned = NowNanos();
  w.call_ms = (returned - start) / 1e6;
  while (true) {
    bool any = false;
    for (const auto& p : prefixes) any = any || AnyKey(engine, p);
    if (!any) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  engine->WaitForCompactions();
  const int64_t end = NowNanos();
  w.gone_ms = (end - start) / 1e6;
  // The writer's operation in progress at `end` is part of the window.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const WriterWindow ww = writer.Window(start, end);
  w.ops = ww.ops;
  w.max_stall_ms = ww.max_ms;
  w.p99_ms = ww.p99_ms;
  return w;
}

void Print(const char* what, const Window& w) {
  std::printf(
      "%-15s call %8.1f ms | keys gone+compacted %8.1f ms | writer max "
      "%7.1f ms, p99 %6.2f ms, %zu ops\n",
      what, w.call_ms, w.gone_ms, w.max_stall_ms, w.p99_ms, w.ops);
}

void Run(const Flags& f) {
  char tmpl[] = "/tmp/drop_stall_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) std::exit(1);
  const std::string dir = absl::StrCat(tmpl, "/db");
  Options options;
  options.ttl_monitor_enabled = false;
  auto opened = Database::Open(dir, options);
  Check(opened.status());
  std::unique_ptr<Database> db = std::move(*opened);
  DbImpl* engine = DatabaseInternal::engine(*db);
  Collection& big = db->collection("big");
  Check(big.CreateIndex(R"({"userId": 1})").status());
  Check(big.CreateIndex(R"({"group": 1})").status());
  std::string json;
  std::vector<DocArg> batch;
  std::vector<std::string> jsons;
  const int64_t load_start = NowNanos();
  for (int64_t i = 0; i < f.docs; i += 1000) {
    jsons.clear();
    for (int64_t j = i; j < std::min(f.docs, i + 1000); ++j) {
      MakeDoc(j, kNowMillis, f.doc_bytes, &json);
      jsons.push_back(json);
    }
    batch.assign(jsons.begin(), jsons.end());
    Check(big.InsertMany(batch));
  }
  engine->db()->CompactRange(nullptr, nullptr);
  std::printf("loaded %lld documents (3 indexes) in %.1f s\n",
              static_cast<long long>(f.docs), (NowNanos() - load_start) / 1e9);

  // The writer: one insert at a time into another collection.
  Collection& other = db->collection("other");
  std::string doc;
  TimedWriter writer([&](int64_t i) {
    MakeDoc(i, kNowMillis, 128, &doc);
    Check(other.InsertOne(doc).status());
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));

  const uint32_t id = engine->GetState("big")->info.id();
  uint32_t index_id = 0;
  for (const auto& idx : engine->GetState("big")->indexes) {
    if (idx->spec.name == "userId_1") index_id = idx->spec.id;
  }
  Print("dropIndex", Measure(
                         engine, {IndexPrefix(id, index_id)},
                         [&] { Check(big.DropIndex("userId_1")); }, writer));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Print("dropCollection",
        Measure(
            engine, {DocumentPrefix(id), CollectionIndexPrefix(id)},
            [&] { Check(db->DropCollection("big").status()); }, writer));
  writer.Stop();
  Check(db->Close());
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
    if (std::strncmp(a, "--docs=", 7) == 0) {
      f.docs = std::atoll(a + 7);
    } else if (std::strncmp(a, "--doc_bytes=", 12) == 0) {
      f.doc_bytes = std::atoi(a + 12);
    } else {
      std::fprintf(stderr,
                   "usage: drop_stall_bench [--docs=N] [--doc_bytes=N]\n");
      return 2;
    }
  }
  ttldb::bench::Run(f);
  return 0;
}
