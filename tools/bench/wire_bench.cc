// wire_bench: writers and readers over many connections against a running
// `ttldb serve` (issue 29 item 1), with a client that costs little next to
// the server: Debian's libmongoc, one client (one connection) per thread,
// each thread issuing one operation at a time for a fixed time.
//
//   wire_bench --uri=mongodb://127.0.0.1:PORT [--conns=1,4,16]
//              [--seconds=3] [--ops=ping,insert,touch,find] [--docs=10000]
//              [--j=0|1]
//
// Before the runs it drops and fills `bench.wire` with --docs documents of
// about 256 B (tools/bench/bench_util.cc's shape, a TTL index on
// accessTime). Per operation and connection count it prints one line:
// operations per second (all threads' operations over the run's time) and
// the p50 and p99 latency in us of one round trip. Operations:
//   ping    {ping: 1} (the floor: a round trip that touches no data)
//   insert  insertOne of a new document (ids unique per thread and run)
//   touch   updateOne({_id}, {$set: {accessTime: now}}), random _id
//   find    findOne({_id}), random _id
// --j=1 asks every write for {writeConcern: {j: true}} (a synced commit).
#include <mongoc/mongoc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Flags {
  std::string uri = "mongodb://127.0.0.1:27017";
  std::vector<int> conns = {1, 4, 16};
  double seconds = 3;
  std::vector<std::string> ops = {"ping", "insert", "touch", "find"};
  int docs = 10000;
  bool j = false;
};

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

bool ParseFlags(int argc, char** argv, Flags* f) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&](const char* name) -> const char* {
      size_t n = strlen(name);
      if (a.compare(0, n, name) == 0 && a.size() > n && a[n] == '=') {
        return argv[i] + n + 1;
      }
      return nullptr;
    };
    if (const char* v = val("--uri")) {
      f->uri = v;
    } else if (const char* v = val("--conns")) {
      f->conns.clear();
      for (const std::string& c : Split(v)) f->conns.push_back(atoi(c.c_str()));
    } else if (const char* v = val("--seconds")) {
      f->seconds = atof(v);
    } else if (const char* v = val("--ops")) {
      f->ops = Split(v);
    } else if (const char* v = val("--docs")) {
      f->docs = atoi(v);
    } else if (const char* v = val("--j")) {
      f->j = atoi(v) != 0;
    } else {
      fprintf(stderr, "unknown flag %s\n", a.c_str());
      return false;
    }
  }
  return true;
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Id(int i) {
  char buf[32];
  snprintf(buf, sizeof buf, "k%09d", i);
  return buf;
}

// About 256 B, as bench_util.cc's MakeDoc.
bson_t* MakeDoc(const std::string& id, int i) {
  bson_t* doc = bson_new();
  BSON_APPEND_UTF8(doc, "_id", id.c_str());
  BSON_APPEND_DATE_TIME(doc, "accessTime", NowMillis());
  char user[32];
  snprintf(user, sizeof user, "user-%07d", i);
  BSON_APPEND_UTF8(doc, "userId", user);
  BSON_APPEND_INT32(doc, "group", i % 1000);
  static const std::string payload(150, 'x');
  BSON_APPEND_UTF8(doc, "payload", payload.c_str());
  return doc;
}

bool Check(bool ok, const bson_error_t& error, const char* what) {
  if (!ok) fprintf(stderr, "%s: %s\n", what, error.message);
  return ok;
}

bool Setup(const Flags& f) {
  mongoc_client_t* client = mongoc_client_new(f.uri.c_str());
  if (client == nullptr) return false;
  mongoc_collection_t* coll =
      mongoc_client_get_collection(client, "bench", "wire");
  bson_error_t error;
  mongoc_collection_drop(coll, &error);  // absent is fine
  bson_t* cmd = BCON_NEW("createIndexes", BCON_UTF8("wire"), "indexes", "[",
                         "{", "key", "{", "accessTime", BCON_INT32(1), "}",
                         "name", BCON_UTF8("accessTime_1"),
                         "expireAfterSeconds", BCON_INT32(3600), "}", "]");
  bool ok = Check(mongoc_client_command_simple(client, "bench", cmd, nullptr,
                                               nullptr, &error),
                  error, "createIndexes");
  bson_destroy(cmd);
  const int kBatch = 1000;
  for (int i = 0; ok && i < f.docs; i += kBatch) {
    std::vector<bson_t*> docs;
    for (int k = i; k < std::min(f.docs, i + kBatch); ++k) {
      docs.push_back(MakeDoc(Id(k), k));
    }
    ok = Check(mongoc_collection_insert_many(
                   coll, const_cast<const bson_t**>(docs.data()), docs.size(),
                   nullptr, nullptr, &error),
               error, "insertMany");
    for (bson_t* d : docs) bson_destroy(d);
  }
  mongoc_collection_destroy(coll);
  mongoc_client_destroy(client);
  return ok;
}

struct ThreadResult {
  std::vector<uint32_t> ns;  // one per operation
  int64_t errors = 0;
};

void RunThread(const Flags& f, const std::string& op, int thread, int run,
               std::atomic<int>* ready, std::atomic<bool>* go,
               Clock::time_point* deadline, ThreadResult* out) {
  mongoc_client_t* client = mongoc_client_new(f.uri.c_str());
  mongoc_collection_t* coll =
      mongoc_client_get_collection(client, "bench", "wire");
  bson_t* ping = BCON_NEW("ping", BCON_INT32(1));
  bson_t write_opts = BSON_INITIALIZER;
  if (f.j) {
    mongoc_write_concern_t* wc = mongoc_write_concern_new();
    mongoc_write_concern_set_journal(wc, true);
    mongoc_write_concern_append(wc, &write_opts);
    mongoc_write_concern_destroy(wc);
  }
  bson_t find_opts = BSON_INITIALIZER;
  BSON_APPEND_INT64(&find_opts, "limit", 1);
  bson_error_t error;
  // Connect before the clock starts.
  mongoc_client_command_simple(client, "admin", ping, nullptr, nullptr, &error);
  std::mt19937_64 rng(thread * 7919 + run);
  out->ns.reserve(1 << 16);
  ready->fetch_add(1);
  while (!go->load()) std::this_thread::yield();
  int n = 0;
  for (;;) {
    const Clock::time_point start = Clock::now();
    if (start >= *deadline) break;
    bool ok = true;
    if (op == "ping") {
      ok = mongoc_client_command_simple(client, "admin", ping, nullptr, nullptr,
                                        &error);
    } else if (op == "insert") {
      char id[48];
      snprintf(id, sizeof id, "r%d-t%d-%d", run, thread, n);
      bson_t* doc = MakeDoc(id, n);
      ok =
          mongoc_collection_insert_one(coll, doc, &write_opts, nullptr, &error);
      bson_destroy(doc);
    } else if (op == "touch") {
      const std::string id = Id(static_cast<int>(rng() % f.docs));
      bson_t* sel = BCON_NEW("_id", BCON_UTF8(id.c_str()));
      bson_t* upd =
          BCON_NEW("$set", "{", "accessTime", BCON_DATE_TIME(NowMillis()), "}");
      ok = mongoc_collection_update_one(coll, sel, upd, &write_opts, nullptr,
                                        &error);
      bson_destroy(sel);
      bson_destroy(upd);
    } else if (op == "find") {
      const std::string id = Id(static_cast<int>(rng() % f.docs));
      bson_t* sel = BCON_NEW("_id", BCON_UTF8(id.c_str()));
      mongoc_cursor_t* cursor =
          mongoc_collection_find_with_opts(coll, sel, &find_opts, nullptr);
      const bson_t* doc;
      ok = mongoc_cursor_next(cursor, &doc);
      if (!ok) ok = !mongoc_cursor_error(cursor, &error);
      mongoc_cursor_destroy(cursor);
      bson_destroy(sel);
    }
    const Clock::time_point end = Clock::now();
    if (!ok) {
      if (out->errors++ < 3)
        fprintf(stderr, "%s: %s\n", op.c_str(), error.message);
    }
    out->ns.push_back(static_cast<uint32_t>(std::min<int64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(end - start)
            .count(),
        UINT32_MAX)));
    ++n;
  }
  bson_destroy(&find_opts);
  bson_destroy(&write_opts);
  bson_destroy(ping);
  mongoc_collection_destroy(coll);
  mongoc_client_destroy(client);
}

}  // namespace

int main(int argc, char** argv) {
  Flags f;
  if (!ParseFlags(argc, argv, &f)) return 2;
  mongoc_init();
  if (!Setup(f)) {
    fprintf(stderr, "setup failed (is `ttldb serve` listening at %s?)\n",
            f.uri.c_str());
    return 1;
  }
  printf("| operation | connections | ops/s | p50 us | p99 us | errors |\n");
  printf("|---|---|---|---|---|---|\n");
  int run = 0;
  int failed = 0;
  for (const std::string& op : f.ops) {
    for (int conns : f.conns) {
      ++run;
      std::vector<ThreadResult> results(conns);
      std::vector<std::thread> threads;
      std::atomic<int> ready{0};
      std::atomic<bool> go{false};
      Clock::time_point deadline = Clock::time_point::max();
      for (int t = 0; t < conns; ++t) {
        threads.emplace_back(RunThread, std::cref(f), std::cref(op), t, run,
                             &ready, &go, &deadline, &results[t]);
      }
      while (ready.load() < conns)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      const Clock::time_point start = Clock::now();
      deadline = start + std::chrono::microseconds(
                             static_cast<int64_t>(f.seconds * 1e6));
      go.store(true);
      for (std::thread& t : threads) t.join();
      const double elapsed =
          std::chrono::duration<double>(Clock::now() - start).count();
      std::vector<uint32_t> all;
      int64_t errors = 0;
      for (ThreadResult& r : results) {
        all.insert(all.end(), r.ns.begin(), r.ns.end());
        errors += r.errors;
      }
      std::sort(all.begin(), all.end());
      auto pct = [&](double p) {
        if (all.empty()) return 0.0;
        return all[std::min(all.size() - 1,
                            static_cast<size_t>(p * all.size()))] /
               1000.0;
      };
      printf("| %s | %d | %.0f | %.1f | %.1f | %" PRId64 " |\n", op.c_str(),
             conns, all.size() / elapsed, pct(0.50), pct(0.99), errors);
      fflush(stdout);
      if (errors > 0) failed = 1;
    }
  }
  mongoc_cleanup();
  return failed;
}
