// Small helpers of the ttldb benchmarks: the document generator every engine
// shares, latency recording, a timed writer thread and the summary of its
// operations over a window (the stall benchmarks), medians, and process
// memory probes.
#ifndef TTLDB_TOOLS_BENCH_BENCH_UTIL_H_
#define TTLDB_TOOLS_BENCH_BENCH_UTIL_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace ttldb {
namespace bench {

// A benchmark whose setup fails measures nothing: prints
// "<program>: <what>" to standard error and exits with status 1.
[[noreturn]] void Die(const std::string& what);

// The value of `v`, or Die naming `what` and the status.
template <typename T>
T Check(absl::StatusOr<T> v, const char* what) {
  if (!v.ok()) Die(absl::StrCat(what, ": ", v.status().ToString()));
  return *std::move(v);
}

// Die naming `what` and the status unless `s` is OK.
inline void Check(const absl::Status& s, const char* what) {
  if (!s.ok()) Die(absl::StrCat(what, ": ", s.ToString()));
}

// Whether `arg` is "--<name>=<value>"; if so, *out = value, and Die unless
// it is a positive integer.
bool ParsePositiveFlag(const char* arg, const char* name, int64_t* out);

// The calling thread's CPU time in ns (CLOCK_THREAD_CPUTIME_ID): what the
// measuring aids (decode_cost, codec_cost) time, so the machine's load does
// not count.
int64_t ThreadCpuNanos();

// The TTL every workload uses: 1 h. Live documents are younger, expired
// ones are at least 2 h old.
inline constexpr int64_t kExpireAfterSeconds = 3600;
// "Now" for every engine: a fixed wall time (2027-01-15), injected into
// ttldb through a FakeClock, so hiding and sweeps see the same cutoff.
inline constexpr int64_t kNowMillis = 1'800'000'000'000;

inline int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Document i of the benchmark, in ttldb's storage JSON form (so that the
// raw-LevelDB limit stores exactly the bytes ttldb stores):
//   {"_id":"k000000000042","accessTime":{"$date":{"$numberLong":"..."}},
//    "userId":"user-0000042","group":4,"payload":"xxxx..."}
// padded with the payload to about `doc_bytes`. group = i / 10, so an
// equality on group matches 10 documents; userId is unique per document.
std::string DocId(int64_t i);
int64_t DocGroup(int64_t i);
std::string DocUser(int64_t i);
void MakeDoc(int64_t i, int64_t access_millis, int doc_bytes, std::string* out);
// Recovers i from the bytes of an id ("...k000000000042..."): -1 if absent.
int64_t ParseDocIndex(const char* data, size_t size);

// Per-operation latencies of one workload.
class Latencies {
 public:
  void Reserve(size_t n) { ns_.reserve(n); }
  void Add(int64_t ns) {
    ns_.push_back(ns);
    total_ns_ += ns;
  }
  size_t count() const { return ns_.size(); }
  int64_t total_ns() const { return total_ns_; }
  // Operations per second over the summed operation times.
  double OpsPerSecond() const;
  // The p-th percentile (0..100) in microseconds.
  double PercentileMicros(double p);

 private:
  std::vector<int64_t> ns_;
  int64_t total_ns_ = 0;
  bool sorted_ = false;
};

// The median (the upper one of an even count) and the maximum; 0 if empty.
double Median(std::vector<double> v);
double Max(const std::vector<double>& v);

// One timed operation: when it started and ended (NowNanos()).
struct TimedOp {
  int64_t start_ns, end_ns;
};

// What a writer saw during a window: the operations that overlap it.
struct WriterWindow {
  size_t ops = 0;
  // The longest operation, and the longest time within the window in which
  // no operation completed (window start to the first end, between two
  // ends, the last end to the window's end): the writer's stall.
  double max_ms = 0, max_gap_ms = 0;
  double p50_ms = 0, p99_ms = 0;
};

// Summarizes the operations of `ops` (in start order) that overlap
// [start_ns, end_ns].
WriterWindow SummarizeWindow(const TimedOp* ops, size_t n, int64_t start_ns,
                             int64_t end_ns);

// A thread that calls op(0), op(1), ... without pause until Stop(), timing
// each call. Entries below count() are final and may be read while it runs.
class TimedWriter {
 public:
  // Stops after `capacity` operations if not stopped before.
  explicit TimedWriter(std::function<void(int64_t)> op,
                       size_t capacity = 4'000'000);
  ~TimedWriter() { Stop(); }
  TimedWriter(const TimedWriter&) = delete;
  TimedWriter& operator=(const TimedWriter&) = delete;

  void Stop();
  size_t count() const { return count_.load(std::memory_order_acquire); }
  // The operations overlapping [start_ns, end_ns] among those completed.
  WriterWindow Window(int64_t start_ns, int64_t end_ns) const {
    return SummarizeWindow(ops_.data(), count(), start_ns, end_ns);
  }

 private:
  std::vector<TimedOp> ops_;
  std::atomic<size_t> count_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Peak resident set size of the process so far (VmHWM), in MiB.
double PeakRssMiB();
// Bytes currently allocated from malloc (arena + mmapped chunks): the heap,
// not LevelDB's mapped table files.
int64_t HeapBytes();

// Deterministic pseudo-random numbers (xorshift), the same sequence for
// every engine.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed * 2654435761u + 1) {}
  uint64_t Next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  int64_t Uniform(int64_t n) { return static_cast<int64_t>(Next() % n); }

 private:
  uint64_t s_;
};

}  // namespace bench
}  // namespace ttldb

#endif  // TTLDB_TOOLS_BENCH_BENCH_UTIL_H_
