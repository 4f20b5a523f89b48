#include "tools/bench/bench_util.h"

#include <errno.h>  // program_invocation_short_name
#include <malloc.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace ttldb {
namespace bench {

void Die(const std::string& what) {
  fprintf(stderr, "%s: %s\n", program_invocation_short_name, what.c_str());
  fflush(stderr);
  std::exit(1);
}

bool ParsePositiveFlag(const char* arg, const char* name, int64_t* out) {
  const std::string prefix = absl::StrCat("--", name, "=");
  if (std::string(arg).rfind(prefix, 0) != 0) return false;
  if (!absl::SimpleAtoi(arg + prefix.size(), out) || *out <= 0) {
    Die(absl::StrCat("bad value in ", arg, " (a positive integer)"));
  }
  return true;
}

std::string DocId(int64_t i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "k%012lld", static_cast<long long>(i));
  return buf;
}

int64_t DocGroup(int64_t i) { return i / 10; }

std::string DocUser(int64_t i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "user-%07lld", static_cast<long long>(i));
  return buf;
}

void MakeDoc(int64_t i, int64_t access_millis, int doc_bytes,
             std::string* out) {
  char head[256];
  int n =
      snprintf(head, sizeof(head),
               "{\"_id\":\"k%012lld\",\"accessTime\":{\"$date\":{"
               "\"$numberLong\":\"%lld\"}},\"userId\":\"user-%07lld\","
               "\"group\":%lld,\"payload\":\"",
               static_cast<long long>(i), static_cast<long long>(access_millis),
               static_cast<long long>(i), static_cast<long long>(DocGroup(i)));
  out->assign(head, n);
  const int pad = std::max<int>(8, doc_bytes - n - 2);
  // A payload that varies per document (compresses like real text, not
  // like a run of one byte).
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789 ";
  uint64_t s = static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull + 1;
  for (int k = 0; k < pad; ++k) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    out->push_back(kAlphabet[s % (sizeof(kAlphabet) - 1)]);
  }
  out->append("\"}");
}

int64_t ParseDocIndex(const char* data, size_t size) {
  for (size_t p = 0; p + 13 <= size; ++p) {
    if (data[p] != 'k') continue;
    int64_t v = 0;
    bool ok = true;
    for (size_t q = p + 1; q < p + 13; ++q) {
      if (data[q] < '0' || data[q] > '9') {
        ok = false;
        break;
      }
      v = v * 10 + (data[q] - '0');
    }
    if (ok) return v;
  }
  return -1;
}

double Latencies::OpsPerSecond() const {
  if (total_ns_ <= 0) return 0;
  return static_cast<double>(ns_.size()) * 1e9 / total_ns_;
}

double Latencies::PercentileMicros(double p) {
  if (ns_.empty()) return 0;
  if (!sorted_) {
    std::sort(ns_.begin(), ns_.end());
    sorted_ = true;
  }
  size_t idx = static_cast<size_t>(p / 100.0 * (ns_.size() - 1) + 0.5);
  return ns_[std::min(idx, ns_.size() - 1)] / 1000.0;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Max(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

WriterWindow SummarizeWindow(const TimedOp* ops, size_t n, int64_t start_ns,
                             int64_t end_ns) {
  WriterWindow w;
  std::vector<double> lat;
  int64_t last_end = start_ns;
  for (size_t i = 0; i < n; ++i) {
    const TimedOp& op = ops[i];
    if (op.end_ns < start_ns) continue;
    if (op.start_ns > end_ns) break;
    lat.push_back((op.end_ns - op.start_ns) / 1e6);
    w.max_gap_ms =
        std::max(w.max_gap_ms, (std::min(op.end_ns, end_ns) - last_end) / 1e6);
    last_end = std::max(last_end, std::min(op.end_ns, end_ns));
  }
  w.max_gap_ms = std::max(w.max_gap_ms, (end_ns - last_end) / 1e6);
  w.ops = lat.size();
  if (lat.empty()) return w;
  std::sort(lat.begin(), lat.end());
  w.max_ms = lat.back();
  w.p50_ms = lat[lat.size() / 2];
  w.p99_ms = lat[std::min(lat.size() - 1, lat.size() * 99 / 100)];
  return w;
}

TimedWriter::TimedWriter(std::function<void(int64_t)> op, size_t capacity)
    : ops_(capacity) {
  thread_ = std::thread([this, op = std::move(op)] {
    for (size_t n = 0;
         n < ops_.size() && !stop_.load(std::memory_order_relaxed); ++n) {
      const int64_t start = NowNanos();
      op(static_cast<int64_t>(n));
      ops_[n] = {start, NowNanos()};
      count_.store(n + 1, std::memory_order_release);
    }
  });
}

void TimedWriter::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

double PeakRssMiB() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      return std::atof(line.c_str() + 6) / 1024.0;
    }
  }
  return 0;
}

int64_t HeapBytes() {
  struct mallinfo2 mi = mallinfo2();
  return static_cast<int64_t>(mi.uordblks + mi.hblkhd);
}

int64_t ThreadCpuNanos() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

}  // namespace bench
}  // namespace ttldb
