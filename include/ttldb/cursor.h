// A stream of documents: the results of Collection::Find and Aggregate, and
// the input and output of each stage of a pipeline.
#ifndef TTLDB_CURSOR_H_
#define TTLDB_CURSOR_H_

#include <optional>

#include "absl/status/statusor.h"
#include "ttldb/value.h"

namespace ttldb {

// Yields matching documents one at a time from a consistent snapshot taken
// when Find was called: writes made afterwards are not seen. Documents are
// read lazily, so a cursor over a large collection holds O(1) documents in
// memory (except when a sort cannot use an index: then the matching
// documents are sorted in memory). Not thread-safe (one thread at a time
// per cursor; different cursors run concurrently).
//
// A cursor may outlive Database::Close and the Database itself: Close ends
// every live cursor (it releases its snapshot, waiting for a Next in
// progress on another thread), and Next then fails with FailedPrecondition
// "database is closed".
class Cursor {
 public:
  virtual ~Cursor() = default;
  // The next document, std::nullopt at the end, or an error (I/O,
  // corruption). After an error or the end, Next keeps returning the same.
  virtual absl::StatusOr<std::optional<Value>> Next() = 0;

  // Reads every remaining document.
  absl::StatusOr<std::vector<Value>> ToVector();
};

}  // namespace ttldb

#endif  // TTLDB_CURSOR_H_
