// The in-memory ("blocking") sort of a find whose sort no index provides.
#ifndef TTLDB_QUERY_BLOCKING_SORT_H_
#define TTLDB_QUERY_BLOCKING_SORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "document/value.h"
#include "query/sort.h"

namespace ttldb {

// A sort key's share of a sort's memory, as MongoDB's SortExecutor counts
// it: each element as a BSON element with an empty name (type byte, NUL,
// value), in a BSON object. The pipeline's $sort counts the same way.
size_t SortKeyBytes(const SortSpec::Key& key);

// Pulls every document from `next` (until it returns nullopt or an error)
// and returns those at positions [skip, skip + limit) of their order by
// `sort` (limit 0: no limit). Ties keep the order `next` gave them in (a
// stable sort), so the answer is exactly the full sort's slice.
//
// Memory, as MongoDB's SortExecutor counts it (exec/sort_executor.cpp):
// each document kept costs its BSON size plus its sort key's. With a limit,
// only the best skip + limit documents are kept (a bounded heap, MongoDB's
// top-k sort); without one, all of them. When the kept documents exceed
// `max_bytes`, the sort fails with 292 QueryExceededMemoryLimitNoDiskUse-
// Allowed "Executor error during find command :: caused by :: Sort exceeded
// memory limit of <max_bytes> bytes, but did not opt in to external
// sorting." There is no spilling to disk (allowDiskUse). A parallel-arrays
// sort key is the error of SortSpec::KeyOf.
absl::StatusOr<std::vector<Value>> BlockingSort(
    const SortSpec& sort, int64_t skip, int64_t limit, size_t max_bytes,
    absl::FunctionRef<absl::StatusOr<std::optional<Value>>()> next);

}  // namespace ttldb

#endif  // TTLDB_QUERY_BLOCKING_SORT_H_
