// agg_bench: issue 16's aggregation benchmark. "Hits per page" over an
// eventLog: $match on a date range + $group by page, on ttldb
// (Collection::Aggregate, with and without an index on the date) beside
// SQLite's GROUP BY over json_extract (with and without an expression
// index) in the same run, on the same documents. Reports the median time
// of each query and the peak resident memory it added (VmHWM after
// resetting it through /proc/self/clear_refs).
//
// usage: agg_bench [--docs N] [--pages P] [--runs R] [--dir DIR]
// Results: docs/benchmarks-history.md ("Aggregation: hits per page"); the
// latest figures in docs/BENCHMARKS.md.
#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// 2027-01-15T00:00:00Z: the day the events span.
constexpr int64_t kDayStartMs = 1'799'971'200'000;
constexpr int64_t kDayMs = 24 * 3600 * 1000;

int64_t ArgInt(int argc, char** argv, const char* name, int64_t dflt) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == name) return std::atoll(argv[i + 1]);
  }
  return dflt;
}
std::string ArgStr(int argc, char** argv, const char* name, std::string d) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == name) return argv[i + 1];
  }
  return d;
}

// Resets the peak RSS (Linux: "5" to clear_refs) and reads it back (KiB).
void ResetPeak() { std::ofstream("/proc/self/clear_refs") << "5"; }
int64_t PeakKiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::atoll(line.c_str() + 6);
  }
  return -1;
}
int64_t RssKiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6);
  }
  return -1;
}

struct Measure {
  double median_ms;
  int64_t peak_extra_kib;
  int64_t groups;
};

Measure Time(int runs, const std::function<int64_t()>& query) {
  std::vector<double> ms;
  int64_t groups = 0, peak = 0;
  for (int r = 0; r < runs; ++r) {
    ResetPeak();
    int64_t before = RssKiB();
    auto t0 = std::chrono::steady_clock::now();
    groups = query();
    auto t1 = std::chrono::steady_clock::now();
    peak = std::max(peak, PeakKiB() - before);
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], peak, groups};
}

void Check(int rc, sqlite3* db, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    std::cerr << what << ": " << sqlite3_errmsg(db) << "\n";
    std::exit(1);
  }
}

int Main(int argc, char** argv) {
  const int64_t n = ArgInt(argc, argv, "--docs", 1'000'000);
  const int64_t pages = ArgInt(argc, argv, "--pages", 1000);
  const int runs = static_cast<int>(ArgInt(argc, argv, "--runs", 3));
  std::string dir = ArgStr(argc, argv, "--dir", "");
  bool own_dir = dir.empty();
  if (own_dir) {
    std::string tmpl = "/tmp/agg_bench-XXXXXX";
    dir = mkdtemp(tmpl.data());
  }
  std::filesystem::create_directories(dir);

  // The same events for both: page by a skewed draw (a few hot pages), a
  // time spread over one day.
  std::mt19937_64 rng(42);
  std::vector<std::string> json(n);
  std::vector<std::pair<std::string, int64_t>> rows(n);
  for (int64_t i = 0; i < n; ++i) {
    double u = std::uniform_real_distribution<double>(0, 1)(rng);
    int64_t page = static_cast<int64_t>(std::pow(u, 3) * pages);
    int64_t ts = kDayStartMs + static_cast<int64_t>(rng() % kDayMs);
    std::string p = absl::StrCat("/page/", page);
    json[i] = absl::StrCat(R"({"_id":)", i, R"(,"page":")", p,
                           R"(","ts":{"$date":{"$numberLong":")", ts,
                           R"("}},"user":"u)", rng() % 10000, R"(","bytes":)",
                           rng() % 100000, "}");
    rows[i] = {
        absl::StrCat(R"({"page":")", p, R"(","ts":)", ts, R"(,"user":"u)",
                     rng() % 10000, R"(","bytes":)", rng() % 100000, "}"),
        ts};
  }
  // The query window: the last hour of the day.
  constexpr int64_t from = kDayStartMs + 23 * 3600 * 1000;
  constexpr int64_t to = kDayStartMs + kDayMs;

  // ---- ttldb ----
  Options options;
  options.ttl_monitor_enabled = false;
  auto db = Database::Open(dir + "/ttldb", options);
  if (!db.ok()) {
    std::cerr << db.status() << "\n";
    return 1;
  }
  Collection& events = (*db)->collection("eventLog");
  auto t0 = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < n; i += 1000) {
    std::vector<DocArg> batch;
    for (int64_t j = i; j < std::min(n, i + 1000); ++j) {
      batch.emplace_back(json[j]);
    }
    absl::Status s = events.InsertMany(batch);
    if (!s.ok()) {
      std::cerr << s << "\n";
      return 1;
    }
  }
  double load_ttldb =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  std::string hour =
      absl::StrCat(R"([{"$match":{"ts":{"$gte":{"$date":{"$numberLong":")",
                   from, R"("}},"$lt":{"$date":{"$numberLong":")", to,
                   R"("}}}}},{"$group":{"_id":"$page","hits":{"$sum":1}}}])");
  std::string day = R"([{"$group":{"_id":"$page","hits":{"$sum":1}}}])";
  auto run_ttldb = [&](const std::string& pipeline) {
    return [&events, pipeline]() -> int64_t {
      auto c = events.Aggregate(pipeline);
      if (!c.ok()) {
        std::cerr << c.status() << "\n";
        std::exit(1);
      }
      int64_t groups = 0;
      while (true) {
        auto d = (*c)->Next();
        if (!d.ok()) {
          std::cerr << d.status() << "\n";
          std::exit(1);
        }
        if (!d->has_value()) break;
        ++groups;
      }
      return groups;
    };
  };
  Measure t_hour_scan = Time(runs, run_ttldb(hour));
  Measure t_day = Time(runs, run_ttldb(day));
  if (!events.CreateIndex(R"({"ts":1})").ok()) return 1;
  Measure t_hour_index = Time(runs, run_ttldb(hour));

  // ---- SQLite ----
  sqlite3* sql = nullptr;
  Check(sqlite3_open((dir + "/bench.sqlite").c_str(), &sql), sql, "open");
  Check(sqlite3_exec(sql, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr),
        sql, "wal");
  Check(
      sqlite3_exec(sql, "PRAGMA synchronous=NORMAL", nullptr, nullptr, nullptr),
      sql, "sync");
  Check(sqlite3_exec(sql,
                     "CREATE TABLE events (id INTEGER PRIMARY KEY, doc "
                     "TEXT)",
                     nullptr, nullptr, nullptr),
        sql, "create");
  t0 = std::chrono::steady_clock::now();
  sqlite3_stmt* ins = nullptr;
  Check(sqlite3_prepare_v2(sql, "INSERT INTO events VALUES (?1, ?2)", -1, &ins,
                           nullptr),
        sql, "prepare");
  for (int64_t i = 0; i < n; i += 1000) {
    sqlite3_exec(sql, "BEGIN", nullptr, nullptr, nullptr);
    for (int64_t j = i; j < std::min(n, i + 1000); ++j) {
      sqlite3_bind_int64(ins, 1, j);
      sqlite3_bind_text(ins, 2, rows[j].first.data(), rows[j].first.size(),
                        SQLITE_STATIC);
      Check(sqlite3_step(ins), sql, "insert");
      sqlite3_reset(ins);
    }
    sqlite3_exec(sql, "COMMIT", nullptr, nullptr, nullptr);
  }
  sqlite3_finalize(ins);
  double load_sqlite =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  auto run_sql = [&](const char* text, bool window) {
    return [sql, text, window]() -> int64_t {
      sqlite3_stmt* st = nullptr;
      Check(sqlite3_prepare_v2(sql, text, -1, &st, nullptr), sql, "prepare");
      if (window) {
        sqlite3_bind_int64(st, 1, from);
        sqlite3_bind_int64(st, 2, to);
      }
      int64_t groups = 0;
      int rc;
      while ((rc = sqlite3_step(st)) == SQLITE_ROW) ++groups;
      Check(rc, sql, "step");
      sqlite3_finalize(st);
      return groups;
    };
  };
  const char* q_hour =
      "SELECT json_extract(doc, '$.page'), count(*) FROM events WHERE "
      "json_extract(doc, '$.ts') >= ?1 AND json_extract(doc, '$.ts') < ?2 "
      "GROUP BY 1";
  const char* q_day =
      "SELECT json_extract(doc, '$.page'), count(*) FROM events GROUP BY 1";
  Measure s_hour_scan = Time(runs, run_sql(q_hour, true));
  Measure s_day = Time(runs, run_sql(q_day, false));
  Check(sqlite3_exec(sql,
                     "CREATE INDEX events_ts ON events(json_extract(doc, "
                     "'$.ts'))",
                     nullptr, nullptr, nullptr),
        sql, "index");
  Measure s_hour_index = Time(runs, run_sql(q_hour, true));
  sqlite3_close(sql);

  std::printf(
      "agg_bench: %lld eventLog documents, %lld pages, median of %d "
      "runs\n",
      static_cast<long long>(n), static_cast<long long>(pages), runs);
  std::printf(
      "load: ttldb %.1f s (InsertMany, 1000 per call), sqlite %.1f s "
      "(1000 per transaction)\n",
      load_ttldb, load_sqlite);
  std::printf("%-44s %10s %10s %8s %7s\n", "query", "ttldb ms", "sqlite ms",
              "ratio", "groups");
  auto row = [](const char* name, const Measure& t, const Measure& s) {
    std::printf("%-44s %10.1f %10.1f %8.2f %7lld\n", name, t.median_ms,
                s.median_ms, t.median_ms / s.median_ms,
                static_cast<long long>(t.groups));
    if (t.groups != s.groups) {
      std::printf("  MISMATCH: sqlite found %lld groups\n",
                  static_cast<long long>(s.groups));
    }
  };
  row("last hour, $match+$group, no index", t_hour_scan, s_hour_scan);
  row("last hour, $match+$group, index on ts", t_hour_index, s_hour_index);
  row("whole day, $group only", t_day, s_day);
  std::printf(
      "peak memory added (KiB): ttldb hour/scan %lld, hour/index "
      "%lld, day %lld; sqlite hour/scan %lld, hour/index %lld, day "
      "%lld\n",
      (long long)t_hour_scan.peak_extra_kib,
      (long long)t_hour_index.peak_extra_kib, (long long)t_day.peak_extra_kib,
      (long long)s_hour_scan.peak_extra_kib,
      (long long)s_hour_index.peak_extra_kib, (long long)s_day.peak_extra_kib);
  db->reset();
  if (own_dir) std::filesystem::remove_all(dir);
  return 0;
}

}  // namespace
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::Main(argc, argv); }
