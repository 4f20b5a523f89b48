// Spill files: runs of documents that a blocking stage ($sort, $group)
// writes under allowDiskUse when it outgrows its memory bound, and reads
// back once, in order, to merge them.
//
// A file lives in DatabaseAccess::TempDir() (inside the database directory,
// <db>/_tmp/...) and is removed when its SpillFile is destroyed; the engine
// removes the whole temporary area at Close and at the next Open, so files
// left by a crash do not survive. Format: one document per line in ttldb's
// storage JSON (document/json.h JsonFormat::kStorage), which round-trips
// every value exactly.
#ifndef TTLDB_PIPELINE_SPILL_H_
#define TTLDB_PIPELINE_SPILL_H_

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "document/value.h"
#include "pipeline/stage.h"

namespace ttldb {
namespace agg {

class SpillFile {
 public:
  // A new empty file for writing.
  static absl::StatusOr<std::unique_ptr<SpillFile>> Create(RunContext* ctx);
  ~SpillFile();

  absl::Status Write(const Value& doc);
  // Ends writing; Read then returns the documents in the order written.
  absl::Status FinishWriting();
  absl::StatusOr<std::optional<Value>> Read();

 private:
  explicit SpillFile(std::string path, std::FILE* f)
      : path_(std::move(path)), file_(f) {}
  std::string path_;
  std::FILE* file_;
  std::string line_;
};

// The errors of a blocking stage over its memory bound without
// allowDiskUse: 292 QueryExceededMemoryLimitNoDiskUseAllowed, worded as
// MongoDB 8.0's sorter and $group.
absl::Status SortMemoryLimitError(size_t max_bytes);
absl::Status GroupMemoryLimitError();

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_PIPELINE_SPILL_H_
