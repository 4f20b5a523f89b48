// The one sort of documents that no index provides: a find's sort and the
// pipeline's $sort (with or without a following $limit) both run it. It
// keeps what MongoDB's sorter keeps (src/mongo/db/exec/sort_executor.cpp,
// src/mongo/db/sorter/sorter.h): every document under a memory bound, or
// only the best skip + limit of them (a top-k heap); past the bound it
// fails with 292, or under allowDiskUse writes sorted runs to spill files
// (query/spill_file.h) and merges them.
#ifndef TTLDB_QUERY_SORTER_H_
#define TTLDB_QUERY_SORTER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "query/sort.h"
#include "query/spill_file.h"
#include "ttldb/value.h"

namespace ttldb {

// A sort key's share of a sort's memory, as MongoDB's SortExecutor counts
// it: each element as a BSON element with an empty name (type byte, NUL,
// value), in a BSON object.
size_t SortKeyBytes(const SortSpec::Key& key);

// 292 QueryExceededMemoryLimitNoDiskUseAllowed as MongoDB 8.0 words it:
// "<context> :: caused by :: Sort exceeded memory limit of <max_bytes>
// bytes, but did not opt in to external sorting.", where the context is
// "Executor error during find command" or "PlanExecutor error during
// aggregation".
absl::Status SortMemoryLimitError(absl::string_view context, size_t max_bytes);

struct SorterOptions {
  // The slice of the sorted order returned: positions [skip, skip + limit)
  // (limit 0: to the end).
  int64_t skip = 0;
  int64_t limit = 0;
  // The bound on the documents kept in memory, each counted as its BSON
  // size plus its sort key's (MongoDB's count). Must be > 0.
  size_t max_memory_bytes = 100 << 20;
  // Past the bound: spill a sorted run to a file in the directory
  // spill_directory() returns (called once per run; its error fails the
  // sort), or, when it is empty, fail with SortMemoryLimitError(
  // error_context, max_memory_bytes).
  std::function<absl::StatusOr<std::string>()> spill_directory;
  std::string error_context = "Executor error during find command";
};

// Add every document, then Next until nullopt. The order is stable: ties
// keep the order of Add, so the answer is exactly the full sort's slice,
// whether it was kept in memory, as a top-k heap, or spilled. A document
// whose sort key is invalid (parallel arrays) fails Add with
// SortSpec::KeyOf's error. Not thread-safe.
class Sorter {
 public:
  // `sort` must outlive the Sorter.
  Sorter(const SortSpec* sort, SorterOptions options);
  Sorter(const Sorter&) = delete;
  Sorter& operator=(const Sorter&) = delete;
  ~Sorter();

  absl::Status Add(Value doc);
  // The next document of the slice in order, nullopt at the end. The first
  // call ends the input: Add may not follow.
  absl::StatusOr<std::optional<Value>> Next();

  // How many runs were spilled to files so far.
  int spills() const { return static_cast<int>(runs_.size()); }

 private:
  struct Entry {
    std::unique_ptr<Value> doc;  // heap-allocated: the key points into it
    SortSpec::Key key;
    uint64_t seq = 0;  // arrival order: the tie-breaker
    size_t bytes = 0;
  };
  struct Run {
    std::unique_ptr<SpillFile> file;
    std::unique_ptr<Value> doc;  // the run's current document, or null
    SortSpec::Key key;
  };

  bool Before(const Entry& a, const Entry& b) const;
  absl::Status Spill();
  absl::Status Advance(Run* run);
  absl::Status Finish();
  // The next document of the whole order, before skip and limit.
  absl::StatusOr<std::optional<Value>> NextInOrder();

  const SortSpec* sort_;
  SorterOptions options_;
  // How many documents the slice needs: skip + limit, or all.
  uint64_t keep_;
  // The documents in memory. With a limit, a max-heap under Before (its
  // front is the worst one kept); after Finish, sorted.
  std::vector<Entry> entries_;
  size_t bytes_ = 0;
  uint64_t seq_ = 0;
  std::vector<Run> runs_;  // in the order spilled
  bool finished_ = false;
  size_t pos_ = 0;         // the next of entries_ to merge
  uint64_t produced_ = 0;  // documents of the order passed, skipped or not
};

}  // namespace ttldb

#endif  // TTLDB_QUERY_SORTER_H_
