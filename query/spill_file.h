// Spill files: runs of documents that a blocking operation (the sort of a
// find or of $sort, $group) writes when it outgrows its memory bound under
// allowDiskUse, and reads back once, in order, to merge them.
//
// A file lives in the directory its creator names (the engine's temporary
// area, <db>/_tmp, engine/db_impl.h SpillDirectory) and is removed when its
// SpillFile is destroyed; the engine removes the whole area at Close and at
// the next Open, so files left by a crash do not survive. Format: one
// document per line in ttldb's storage JSON (ttldb/json.h
// JsonFormat::kStorage), which round-trips every value exactly.
#ifndef TTLDB_QUERY_SPILL_FILE_H_
#define TTLDB_QUERY_SPILL_FILE_H_

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

class SpillFile {
 public:
  // A new empty file for writing in `dir`, which must exist.
  static absl::StatusOr<std::unique_ptr<SpillFile>> Create(
      absl::string_view dir);
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;
  ~SpillFile();

  absl::Status Write(const Value& doc);
  // Ends writing; Read then returns the documents in the order written.
  absl::Status FinishWriting();
  absl::StatusOr<std::optional<Value>> Read();

 private:
  SpillFile(std::string path, std::FILE* f)
      : path_(std::move(path)), file_(f) {}
  std::string path_;
  std::FILE* file_;
  std::string line_;
};

}  // namespace ttldb

#endif  // TTLDB_QUERY_SPILL_FILE_H_
