#include "pipeline/spill.h"

#include <atomic>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/json.h"

namespace ttldb {
namespace agg {

absl::StatusOr<std::unique_ptr<SpillFile>> SpillFile::Create(RunContext* ctx) {
  ASSIGN_OR_RETURN(std::string dir, ctx->db->TempDir());
  static std::atomic<uint64_t> next_file{0};
  ++ctx->spill_files;
  std::string path =
      absl::StrCat(dir, "/spill-", next_file.fetch_add(1), ".jsonl");
  std::FILE* f = std::fopen(path.c_str(), "w+b");
  if (f == nullptr) {
    return absl::InternalError(absl::StrCat("cannot create spill file ", path,
                                            ": ", std::strerror(errno)));
  }
  return std::unique_ptr<SpillFile>(new SpillFile(path, f));
}

SpillFile::~SpillFile() {
  if (file_ != nullptr) std::fclose(file_);
  std::remove(path_.c_str());
}

absl::Status SpillFile::Write(const Value& doc) {
  std::string line = ToJson(doc, JsonFormat::kStorage);
  line.push_back('\n');
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size()) {
    return absl::InternalError(absl::StrCat("cannot write spill file ", path_,
                                            ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

absl::Status SpillFile::FinishWriting() {
  if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0) {
    return absl::InternalError(absl::StrCat("cannot rewind spill file ", path_,
                                            ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<Value>> SpillFile::Read() {
  line_.clear();
  int c;
  while ((c = std::fgetc(file_)) != EOF && c != '\n') {
    line_.push_back(static_cast<char>(c));
  }
  if (line_.empty()) {
    if (std::ferror(file_)) {
      return absl::InternalError(
          absl::StrCat("cannot read spill file ", path_));
    }
    return std::optional<Value>();
  }
  ASSIGN_OR_RETURN(Value v, ParseDocument(line_, StoredJsonParseOptions()));
  return std::optional<Value>(std::move(v));
}

absl::Status SortMemoryLimitError(size_t max_bytes) {
  return MongoError(
      absl::StatusCode::kResourceExhausted,
      kQueryExceededMemoryLimitNoDiskUseAllowed,
      absl::StrCat("PlanExecutor error during aggregation :: caused by :: "
                   "Sort exceeded memory limit of ",
                   max_bytes,
                   " bytes, but did not opt in to external sorting."));
}

absl::Status GroupMemoryLimitError() {
  return MongoError(
      absl::StatusCode::kResourceExhausted,
      kQueryExceededMemoryLimitNoDiskUseAllowed,
      "PlanExecutor error during aggregation :: caused by :: Exceeded memory "
      "limit for $group, but didn't allow external spilling; pass "
      "allowDiskUse:true to opt in");
}

}  // namespace agg
}  // namespace ttldb
