#include "query/blocking_sort.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"

namespace ttldb {
namespace {

struct Entry {
  std::unique_ptr<Value> doc;  // heap-allocated: the key points into it
  SortSpec::Key key;
  uint64_t seq = 0;  // arrival order: the tie-breaker
  size_t bytes = 0;
};

absl::Status MemoryLimitError(size_t max_bytes) {
  return MongoError(
      absl::StatusCode::kResourceExhausted,
      kQueryExceededMemoryLimitNoDiskUseAllowed,
      absl::StrCat("Executor error during find command :: caused by :: Sort "
                   "exceeded memory limit of ",
                   max_bytes,
                   " bytes, but did not opt in to external sorting."));
}

}  // namespace

size_t SortKeyBytes(const SortSpec::Key& key) {
  size_t n = 4 + 1;
  for (const KeyElement& e : key.elements) {
    n += 2;
    if (e.kind == KeyElement::Kind::kValue) n += BsonValueSize(*e.value);
  }
  return n;
}

absl::StatusOr<std::vector<Value>> BlockingSort(
    const SortSpec& sort, int64_t skip, int64_t limit, size_t max_bytes,
    absl::FunctionRef<absl::StatusOr<std::optional<Value>>()> next) {
  // How many documents to keep: skip + limit, or all without a limit.
  uint64_t keep = std::numeric_limits<uint64_t>::max();
  if (limit > 0) {
    keep = static_cast<uint64_t>(skip) + static_cast<uint64_t>(limit);
  }
  // (key, seq) order: a strict total order that is the stable sort's.
  auto before = [&sort](const Entry& a, const Entry& b) {
    int c = sort.CompareKeys(a.key, b.key);
    if (c != 0) return c < 0;
    return a.seq < b.seq;
  };
  // With a limit, `kept` is a max-heap under `before`: its front is the
  // worst document kept, the first to go when a better one arrives.
  std::vector<Entry> kept;
  size_t bytes = 0;
  uint64_t seq = 0;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, next());
    if (!doc.has_value()) break;
    Entry e;
    e.doc = std::make_unique<Value>(std::move(*doc));
    ASSIGN_OR_RETURN(e.key, sort.KeyOf(*e.doc));
    e.seq = seq++;
    if (kept.size() >= keep) {
      // Full: the newcomer replaces the worst only if it sorts before it
      // (a tie loses: it arrived later).
      if (!before(e, kept.front())) continue;
      std::pop_heap(kept.begin(), kept.end(), before);
      bytes -= kept.back().bytes;
      kept.pop_back();
    }
    e.bytes = BsonValueSize(*e.doc) + SortKeyBytes(e.key);
    bytes += e.bytes;
    if (bytes > max_bytes) return MemoryLimitError(max_bytes);
    kept.push_back(std::move(e));
    if (limit > 0) std::push_heap(kept.begin(), kept.end(), before);
  }
  if (limit > 0) {
    std::sort_heap(kept.begin(), kept.end(), before);
  } else {
    std::sort(kept.begin(), kept.end(), before);
  }
  std::vector<Value> out;
  for (uint64_t i = static_cast<uint64_t>(skip); i < kept.size(); ++i) {
    out.push_back(std::move(*kept[i].doc));
  }
  return out;
}

}  // namespace ttldb
