// Expiry without hiccups through the wire (issue 29 item 5): what
// tools/bench/expiry_stall_bench measures in-process, against a running
// `ttldb serve` started with its TTL monitor off
// (--setParameter ttlMonitorEnabled=false; scripts/wire_expiry_bench.sh
// starts one). Debian's libmongoc, one connection for the foreground and
// one for the control.
//
// Fills `bench.expiry` with --expired documents whose accessTime is 2 h
// ago and --live documents touched now (a TTL index on accessTime, 1 h,
// and a unique index on userId). The foreground alternates
// updateOne({_id}, {$set: {accessTime: now}}) and findOne({_id}) of a
// random live document. Windows: --seconds alone ("before"); from the
// setParameter that turns the monitor on (ttlMonitorSleepSecs 1) until
// serverStatus' metrics.ttl.deletedDocuments has grown by --expired
// ("pass"); --seconds alone right after ("after"). Prints, per window and
// operation, ops/s and p50 / p99 / p99.9 / max in us, and the p99 ratios.
//
//   wire_expiry_bench --uri=mongodb://127.0.0.1:PORT [--expired=1000000]
//                     [--live=100000] [--seconds=5]
#include <mongoc/mongoc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
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
  int expired = 1'000'000;
  int live = 100'000;
  double seconds = 5;
};

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Id(char kind, int i) {
  char buf[32];
  snprintf(buf, sizeof buf, "%c%09d", kind, i);
  return buf;
}

// About 256 B, as wire_bench's and bench_util.cc's documents.
bson_t* MakeDoc(const std::string& id, int user, int64_t access_millis) {
  bson_t* doc = bson_new();
  BSON_APPEND_UTF8(doc, "_id", id.c_str());
  BSON_APPEND_DATE_TIME(doc, "accessTime", access_millis);
  char name[32];
  snprintf(name, sizeof name, "user-%09d", user);
  BSON_APPEND_UTF8(doc, "userId", name);
  BSON_APPEND_INT32(doc, "group", user % 1000);
  static const std::string payload(150, 'x');
  BSON_APPEND_UTF8(doc, "payload", payload.c_str());
  return doc;
}

[[noreturn]] void Die(const char* what, const bson_error_t& error) {
  fprintf(stderr, "wire_expiry_bench: %s: %s\n", what, error.message);
  exit(1);
}

void Command(mongoc_client_t* client, const char* db, bson_t* cmd,
             const char* what, bson_t* reply = nullptr) {
  bson_error_t error;
  bson_t ignored;
  const bool ok = mongoc_client_command_simple(
      client, db, cmd, nullptr, reply != nullptr ? reply : &ignored, &error);
  if (reply == nullptr) bson_destroy(&ignored);
  bson_destroy(cmd);
  if (!ok) Die(what, error);
}

void Setup(mongoc_client_t* client, const Flags& f) {
  mongoc_collection_t* coll =
      mongoc_client_get_collection(client, "bench", "expiry");
  bson_error_t error;
  mongoc_collection_drop(coll, &error);  // absent is fine
  Command(client, "bench",
          BCON_NEW("createIndexes", BCON_UTF8("expiry"), "indexes", "[", "{",
                   "key", "{", "accessTime", BCON_INT32(1), "}", "name",
                   BCON_UTF8("accessTime_1"), "expireAfterSeconds",
                   BCON_INT32(3600), "}", "{", "key", "{", "userId",
                   BCON_INT32(1), "}", "name", BCON_UTF8("userId_1"), "unique",
                   BCON_BOOL(true), "}", "]"),
          "createIndexes");
  const int64_t now = NowMillis();
  const int total = f.expired + f.live;
  for (int i = 0; i < total; i += 1000) {
    std::vector<bson_t*> docs;
    for (int k = i; k < std::min(total, i + 1000); ++k) {
      docs.push_back(k < f.expired
                         ? MakeDoc(Id('e', k), k, now - 2 * 3600 * 1000)
                         : MakeDoc(Id('l', k - f.expired), k, now));
    }
    if (!mongoc_collection_insert_many(coll,
                                       const_cast<const bson_t**>(docs.data()),
                                       docs.size(), nullptr, nullptr, &error)) {
      Die("insertMany", error);
    }
    for (bson_t* d : docs) bson_destroy(d);
  }
  mongoc_collection_destroy(coll);
}

// serverStatus' metrics.ttl.deletedDocuments.
int64_t DeletedByTtl(mongoc_client_t* client) {
  bson_t reply;
  Command(client, "admin", BCON_NEW("serverStatus", BCON_INT32(1)),
          "serverStatus", &reply);
  bson_iter_t it, found;
  int64_t n = -1;
  if (bson_iter_init(&it, &reply) &&
      bson_iter_find_descendant(&it, "metrics.ttl.deletedDocuments", &found)) {
    n = bson_iter_as_int64(&found);
  }
  bson_destroy(&reply);
  if (n < 0) {
    fprintf(stderr, "serverStatus has no metrics.ttl.deletedDocuments\n");
    exit(1);
  }
  return n;
}

struct Window {
  std::vector<int64_t> touch, find;
  double seconds = 0;
};

// The foreground on `client` until `stop` (or for `seconds` when > 0).
void Foreground(mongoc_client_t* client, const Flags& f, std::mt19937_64* rng,
                const std::atomic<bool>& stop, double seconds, Window* w) {
  mongoc_collection_t* coll =
      mongoc_client_get_collection(client, "bench", "expiry");
  bson_t find_opts = BSON_INITIALIZER;
  BSON_APPEND_INT64(&find_opts, "limit", 1);
  const Clock::time_point start = Clock::now();
  const Clock::time_point end =
      start + std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
  for (int64_t n = 0;; ++n) {
    const Clock::time_point t0 = Clock::now();
    if (seconds > 0 ? t0 >= end : stop.load()) break;
    const std::string id = Id('l', static_cast<int>((*rng)() % f.live));
    bson_t* sel = BCON_NEW("_id", BCON_UTF8(id.c_str()));
    bson_error_t error;
    if (n % 2 == 0) {
      bson_t* upd =
          BCON_NEW("$set", "{", "accessTime", BCON_DATE_TIME(NowMillis()), "}");
      bson_t reply;
      if (!mongoc_collection_update_one(coll, sel, upd, nullptr, &reply,
                                        &error)) {
        Die("updateOne", error);
      }
      bson_iter_t it;
      if (!bson_iter_init_find(&it, &reply, "matchedCount") ||
          bson_iter_as_int64(&it) != 1) {
        fprintf(stderr, "updateOne missed a live document\n");
        exit(1);
      }
      bson_destroy(&reply);
      bson_destroy(upd);
      w->touch.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(
                             Clock::now() - t0)
                             .count());
    } else {
      mongoc_cursor_t* cursor =
          mongoc_collection_find_with_opts(coll, sel, &find_opts, nullptr);
      const bson_t* doc;
      if (!mongoc_cursor_next(cursor, &doc)) {
        if (mongoc_cursor_error(cursor, &error)) Die("findOne", error);
        fprintf(stderr, "findOne missed a live document\n");
        exit(1);
      }
      mongoc_cursor_destroy(cursor);
      w->find.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(
                            Clock::now() - t0)
                            .count());
    }
    bson_destroy(sel);
  }
  w->seconds = std::chrono::duration<double>(Clock::now() - start).count();
  bson_destroy(&find_opts);
  mongoc_collection_destroy(coll);
}

double Percentile(std::vector<int64_t>* v, double p) {
  if (v->empty()) return 0;
  std::sort(v->begin(), v->end());
  const size_t i =
      std::min(v->size() - 1, static_cast<size_t>(p / 100 * v->size()));
  return (*v)[i] / 1000.0;
}

void Print(const char* window, const char* op, std::vector<int64_t>* v,
           double seconds) {
  printf(
      "%-7s %-6s %9zu ops %8.0f ops/s  p50 %7.1f  p99 %8.1f  p99.9 %8.1f  "
      "max %9.1f us\n",
      window, op, v->size(), v->size() / seconds, Percentile(v, 50),
      Percentile(v, 99), Percentile(v, 99.9), Percentile(v, 100));
}

}  // namespace

int main(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (strncmp(a, "--uri=", 6) == 0) {
      f.uri = a + 6;
    } else if (strncmp(a, "--expired=", 10) == 0) {
      f.expired = atoi(a + 10);
    } else if (strncmp(a, "--live=", 7) == 0) {
      f.live = atoi(a + 7);
    } else if (strncmp(a, "--seconds=", 10) == 0) {
      f.seconds = atof(a + 10);
    } else {
      fprintf(stderr,
              "usage: wire_expiry_bench [--uri=URI] [--expired=N] "
              "[--live=N] [--seconds=S]\n");
      return 2;
    }
  }
  if (f.expired < 1 || f.live < 1 || !(f.seconds > 0)) {
    fprintf(stderr, "wire_expiry_bench: --expired, --live and --seconds > 0\n");
    return 2;
  }
  mongoc_init();
  mongoc_client_t* fg = mongoc_client_new(f.uri.c_str());
  mongoc_client_t* control = mongoc_client_new(f.uri.c_str());
  if (fg == nullptr || control == nullptr) {
    fprintf(stderr, "wire_expiry_bench: bad --uri %s\n", f.uri.c_str());
    return 2;
  }
  const Clock::time_point load_start = Clock::now();
  Setup(control, f);
  printf("loaded %d expired + %d live documents in %.1f s\n", f.expired, f.live,
         std::chrono::duration<double>(Clock::now() - load_start).count());
  const int64_t deleted0 = DeletedByTtl(control);

  std::mt19937_64 rng(1);
  std::atomic<bool> stop{false};
  Window before, during, after;
  Foreground(fg, f, &rng, stop, f.seconds, &before);

  double pass_seconds = 0;
  std::thread poller([&] {
    const Clock::time_point t0 = Clock::now();
    // One parameter per setParameter, as mongod takes them.
    Command(control, "admin",
            BCON_NEW("setParameter", BCON_INT32(1), "ttlMonitorSleepSecs",
                     BCON_INT32(1)),
            "setParameter ttlMonitorSleepSecs");
    Command(control, "admin",
            BCON_NEW("setParameter", BCON_INT32(1), "ttlMonitorEnabled",
                     BCON_BOOL(true)),
            "setParameter ttlMonitorEnabled");
    while (DeletedByTtl(control) - deleted0 < f.expired) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pass_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    stop.store(true);
  });
  Foreground(fg, f, &rng, stop, 0, &during);
  poller.join();
  Foreground(fg, f, &rng, stop, f.seconds, &after);

  printf(
      "pass: %d documents deleted by the monitor in %.2f s = %.0f docs/s "
      "(from the setParameter that enabled it)\n",
      f.expired, pass_seconds, f.expired / pass_seconds);
  const double touch_before = Percentile(&before.touch, 99);
  const double find_before = Percentile(&before.find, 99);
  const double touch_during = Percentile(&during.touch, 99);
  const double find_during = Percentile(&during.find, 99);
  Print("before", "touch", &before.touch, before.seconds);
  Print("before", "find", &before.find, before.seconds);
  Print("pass", "touch", &during.touch, during.seconds);
  Print("pass", "find", &during.find, during.seconds);
  Print("after", "touch", &after.touch, after.seconds);
  Print("after", "find", &after.find, after.seconds);
  printf("p99 during the pass / before: touch %.2fx, find %.2fx\n",
         touch_during / touch_before, find_during / find_before);
  mongoc_client_destroy(fg);
  mongoc_client_destroy(control);
  mongoc_cleanup();
  return 0;
}
