// A Cursor over documents held in memory: a blocking sort's prepared
// results, an empty find, a pipeline over given documents ($facet's
// sub-pipelines, $documents, an update pipeline's one document). Internal
// to ttldb.
#ifndef TTLDB_DOCUMENT_VECTOR_CURSOR_H_
#define TTLDB_DOCUMENT_VECTOR_CURSOR_H_

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "ttldb/cursor.h"
#include "ttldb/value.h"

namespace ttldb {

class VectorCursor : public Cursor {
 public:
  explicit VectorCursor(std::vector<Value> docs) : docs_(std::move(docs)) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    if (next_ >= docs_.size()) return std::optional<Value>();
    return std::optional<Value>(std::move(docs_[next_++]));
  }

 private:
  std::vector<Value> docs_;
  size_t next_ = 0;
};

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_VECTOR_CURSOR_H_
