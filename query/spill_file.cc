#include "query/spill_file.h"

#include <atomic>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "ttldb/json.h"

namespace ttldb {

absl::StatusOr<std::unique_ptr<SpillFile>> SpillFile::Create(
    absl::string_view dir) {
  static std::atomic<uint64_t> next_file{0};
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

}  // namespace ttldb
