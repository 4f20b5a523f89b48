#include "commands/op_stats.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "commands/operation_registry.h"

namespace ttldb {
namespace commands {
namespace {

// The lower bound, in microseconds, of MongoDB's bucket `i`.
int64_t BucketLowerBound(int i) {
  if (i == 0) return 0;
  if (i <= 11) return int64_t{1} << i;  // 2 .. 2048
  if (i < 31) {
    // [2^11, 2^21): each power of two split at its midpoint.
    const int log2 = 11 + (i - 11) / 2;
    return (i - 11) % 2 == 0 ? int64_t{1} << log2 : int64_t{3} << (log2 - 1);
  }
  return int64_t{1} << (i - 10);  // 2^21 ..
}

// MongoDB's OperationLatencyHistogram::_getBucket.
int BucketOf(int64_t micros) {
  if (micros <= 0) return 0;
  const int log2 = 63 - __builtin_clzll(static_cast<uint64_t>(micros));
  if (log2 < 11) return log2;
  if (log2 < 21) {
    int extra = log2 - 11;
    if (micros >= (int64_t{3} << (log2 - 1))) ++extra;
    return log2 + extra;
  }
  return std::min(log2 + 10, LatencyHistogram::kBuckets - 1);
}

}  // namespace

void LatencyHistogram::Record(int64_t micros) {
  if (micros < 0) micros = 0;
  ++buckets_[BucketOf(micros)];
  ++ops_;
  sum_micros_ += micros;
}

Value LatencyHistogram::ToValue(bool histograms) const {
  Value::Object out;
  if (histograms) {
    Value::Array h;
    for (int i = 0; i < kBuckets; ++i) {
      if (buckets_[i] == 0) continue;
      h.push_back(
          Value::MakeObject({Field("micros", Value::Int64(BucketLowerBound(i))),
                             Field("count", Value::Int64(buckets_[i]))}));
    }
    out.emplace_back("histogram", Value::MakeArray(std::move(h)));
  }
  out.emplace_back("latency", Value::Int64(sum_micros_));
  out.emplace_back("ops", Value::Int64(ops_));
  return Value::MakeObject(std::move(out));
}

void OperationLatencies::Record(OpKind kind, int64_t micros) {
  switch (kind) {
    case OpKind::kRead:
      reads.Record(micros);
      break;
    case OpKind::kWrite:
      writes.Record(micros);
      break;
    case OpKind::kCommand:
      commands.Record(micros);
      break;
  }
}

Value OperationLatencies::ToValue(bool histograms) const {
  return Value::MakeObject({
      Field("reads", reads.ToValue(histograms)),
      Field("writes", writes.ToValue(histograms)),
      Field("commands", commands.ToValue(histograms)),
      Field("transactions", transactions.ToValue(histograms)),
  });
}

OpKind OpStats::KindOf(absl::string_view command, bool* collection_scoped) {
  *collection_scoped = true;
  if (command == "find" || command == "getMore" || command == "aggregate" ||
      command == "count" || command == "distinct") {
    return OpKind::kRead;
  }
  if (command == "insert" || command == "update" || command == "delete" ||
      command == "findAndModify") {
    return OpKind::kWrite;
  }
  *collection_scoped = command == "createIndexes" || command == "dropIndexes" ||
                       command == "listIndexes" || command == "collStats" ||
                       command == "collMod" || command == "validate" ||
                       command == "create" || command == "killCursors";
  return OpKind::kCommand;
}

void TopCounters::Record(absl::string_view command, OpKind kind,
                         int64_t micros) {
  if (micros < 0) micros = 0;
  total.Add(micros);
  if (kind == OpKind::kWrite) write_lock.Add(micros);
  if (kind == OpKind::kRead) read_lock.Add(micros);
  const absl::string_view op = LogicalOp(command);
  if (op == "query") {
    queries.Add(micros);
  } else if (op == "getmore") {
    getmore.Add(micros);
  } else if (op == "insert") {
    insert.Add(micros);
  } else if (op == "update") {
    update.Add(micros);
  } else if (op == "remove") {
    remove.Add(micros);
  } else {
    commands.Add(micros);
  }
}

Value TopCounters::ToValue() const {
  auto usage = [](const Usage& u) {
    return Value::MakeObject({Field("time", Value::Int64(u.time)),
                              Field("count", Value::Int64(u.count))});
  };
  return Value::MakeObject({
      Field("total", usage(total)),
      Field("readLock", usage(read_lock)),
      Field("writeLock", usage(write_lock)),
      Field("queries", usage(queries)),
      Field("getmore", usage(getmore)),
      Field("insert", usage(insert)),
      Field("update", usage(update)),
      Field("remove", usage(remove)),
      Field("commands", usage(commands)),
  });
}

void OpStats::RecordLatency(absl::string_view ns, absl::string_view command,
                            OpKind kind, int64_t micros) {
  MutexLock lock(&mu_);
  global_.Record(kind, micros);
  if (ns.empty()) return;
  auto it = by_ns_.find(ns);
  if (it == by_ns_.end()) {
    if (by_ns_.size() >= kMaxNamespaces) return;
    it = by_ns_.emplace(std::string(ns), NamespaceStats()).first;
  }
  it->second.latencies.Record(kind, micros);
  it->second.top.Record(command, kind, micros);
}

Value OpStats::GlobalLatencies() const {
  MutexLock lock(&mu_);
  return global_.ToValue(/*histograms=*/false);
}

Value OpStats::CollectionLatencies(absl::string_view ns,
                                   bool histograms) const {
  MutexLock lock(&mu_);
  auto it = by_ns_.find(ns);
  if (it == by_ns_.end()) return OperationLatencies().ToValue(histograms);
  return it->second.latencies.ToValue(histograms);
}

Value OpStats::Top() const {
  std::vector<std::pair<std::string, Value>> entries;
  {
    MutexLock lock(&mu_);
    entries.reserve(by_ns_.size());
    for (const auto& [ns, stats] : by_ns_) {
      entries.emplace_back(ns, stats.top.ToValue());
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  Value::Object totals;
  totals.reserve(entries.size() + 1);
  totals.emplace_back("note", Value::String("all times in microseconds"));
  for (auto& [ns, v] : entries) totals.emplace_back(ns, std::move(v));
  return Value::MakeObject(std::move(totals));
}

void OpStats::ForgetNamespace(absl::string_view ns) {
  MutexLock lock(&mu_);
  by_ns_.erase(std::string(ns));
}

void OpStats::ForgetDatabase(absl::string_view db) {
  const std::string prefix = absl::StrCat(db, ".");
  MutexLock lock(&mu_);
  absl::erase_if(by_ns_, [&](const auto& entry) {
    return absl::StartsWith(entry.first, prefix);
  });
}

void OpStats::CountCommand(absl::string_view command, const Value& cmd) {
  // The statements of a write batch (write_ops_exec.cpp counts each).
  auto statements = [&cmd](const char* field) -> int64_t {
    const Value* v = cmd.Get(field);
    return v != nullptr && v->is_array()
               ? static_cast<int64_t>(v->array_items().size())
               : 0;
  };
  if (command == "insert") {
    insert_ += statements("documents");
  } else if (command == "update") {
    update_ += statements("updates");
  } else if (command == "delete") {
    delete_ += statements("deletes");
  } else if (command == "find") {
    ++query_;
  } else if (command == "getMore") {
    ++getmore_;
  } else if (command == "bulkWrite") {
    // Each of its ops counts as its kind ({insert: i, document}, {update:
    // i, ...}, {delete: i, ...}), and the command once.
    ++command_;
    const Value* ops = cmd.Get("ops");
    if (ops == nullptr || !ops->is_array()) return;
    for (const Value& op : ops->array_items()) {
      if (!op.is_object() || op.object_fields().empty()) continue;
      const std::string& kind = op.object_fields()[0].first;
      if (kind == "insert") ++insert_;
      if (kind == "update") ++update_;
      if (kind == "delete") ++delete_;
    }
  } else {
    ++command_;
  }
}

Value OpStats::OpCounters() const {
  return Value::MakeObject({
      Field("insert", Value::Int64(insert_.load())),
      Field("query", Value::Int64(query_.load())),
      Field("update", Value::Int64(update_.load())),
      Field("delete", Value::Int64(delete_.load())),
      Field("getmore", Value::Int64(getmore_.load())),
      Field("command", Value::Int64(command_.load())),
  });
}

}  // namespace commands
}  // namespace ttldb
