// What the command layer counts about the operations it runs, for
// serverStatus (opcounters, opLatencies, globalLock.activeClients) and
// $collStats' latencyStats and the top command: MongoDB's OpCounters
// (src/mongo/db/stats/counters.h), OperationLatencyHistogram
// (src/mongo/db/stats/operation_latency_histogram.cpp) and Top's
// per-collection usage (src/mongo/db/stats/top.cpp). Internal to
// commands/; kept in memory, from zero at each start, as MongoDB's.
//
// Thread-safe.
#ifndef TTLDB_COMMANDS_OP_STATS_H_
#define TTLDB_COMMANDS_OP_STATS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "base/mutex.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// MongoDB's Command::ReadWriteType: how an operation's latency is filed.
enum class OpKind { kRead, kWrite, kCommand };

// Latencies of one kind of operation: count, sum and MongoDB's buckets.
class LatencyHistogram {
 public:
  // 51: MongoDB's kMaxBuckets (powers of two, halved between 2^11 and
  // 2^21 microseconds).
  static constexpr int kBuckets = 51;
  void Record(int64_t micros);
  // {[histogram: [{micros, count}, ...] (non-empty buckets),] latency, ops}.
  Value ToValue(bool histograms) const;

 private:
  std::array<int64_t, kBuckets> buckets_{};
  int64_t ops_ = 0;
  int64_t sum_micros_ = 0;
};

// reads, writes, commands (and transactions, always empty: ttldb has none).
struct OperationLatencies {
  LatencyHistogram reads, writes, commands, transactions;
  void Record(OpKind kind, int64_t micros);
  Value ToValue(bool histograms) const;
};

// Top's usage of one collection: time (microseconds) and count of every
// operation on it (total), by the lock it held (readLock for reads,
// writeLock for writes; ttldb's other commands, which take no collection
// lock, count in neither), and by logical operation (queries: find;
// getmore; insert; update; remove; commands: every other command,
// aggregate and findAndModify included, as LogicalOp opCommand).
struct TopCounters {
  struct Usage {
    int64_t time = 0;
    int64_t count = 0;
    void Add(int64_t micros) {
      time += micros;
      ++count;
    }
  };
  Usage total, read_lock, write_lock, queries, getmore, insert, update, remove,
      commands;
  void Record(absl::string_view command, OpKind kind, int64_t micros);
  // {total: {time, count}, readLock, writeLock, queries, getmore, insert,
  //  update, remove, commands} (Top::appendStatsEntry).
  Value ToValue() const;
};

class OpStats {
 public:
  // 100,000: the namespaces whose latencies are kept; beyond it new ones
  // are not tracked (a client creating collections without end cannot
  // grow this without bound).
  static constexpr size_t kMaxNamespaces = 100000;

  // How a command's time is filed: reads (find, getMore, aggregate,
  // count, distinct), writes (insert, update, delete, findAndModify),
  // commands (the rest). `collection_scoped`: whether it runs on one
  // collection, so that its latency is that collection's too.
  static OpKind KindOf(absl::string_view command, bool* collection_scoped);

  // `command` ran for `micros`; `ns` ("db.coll") is empty for one that
  // does not run on a collection.
  void RecordLatency(absl::string_view ns, absl::string_view command,
                     OpKind kind, int64_t micros);
  // serverStatus.opLatencies.
  Value GlobalLatencies() const;
  // $collStats' latencyStats of `ns` (zeros if nothing ran on it).
  Value CollectionLatencies(absl::string_view ns, bool histograms) const;
  // The top command's totals: {note: "all times in microseconds",
  // "<db>.<coll>": TopCounters, ...} in namespace order.
  Value Top() const;
  // drop / dropDatabase: the collection's (every collection of `db`'s)
  // latencies go, as MongoDB's Top forgets a dropped collection.
  void ForgetNamespace(absl::string_view ns);
  void ForgetDatabase(absl::string_view db);

  // serverStatus.opcounters: inserts, updates and deletes count documents /
  // statements, queries count finds, getmores getMores, command every
  // other command.
  void CountCommand(absl::string_view command, const Value& cmd);
  Value OpCounters() const;

  // Commands running now, by kind (globalLock.activeClients).
  std::atomic<int64_t> active_readers{0};
  std::atomic<int64_t> active_writers{0};

 private:
  std::atomic<int64_t> insert_{0}, query_{0}, update_{0}, delete_{0},
      getmore_{0}, command_{0};

  mutable Mutex mu_;
  OperationLatencies global_ ABSL_GUARDED_BY(mu_);
  struct NamespaceStats {
    OperationLatencies latencies;
    TopCounters top;
  };
  absl::flat_hash_map<std::string, NamespaceStats> by_ns_ ABSL_GUARDED_BY(mu_);
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_OP_STATS_H_
