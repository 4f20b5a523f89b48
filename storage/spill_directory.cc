#include "storage/spill_directory.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {

absl::StatusOr<std::string> SpillDirectory(const std::string& db_path,
                                           bool in_memory) {
  if (in_memory) {
    return MongoError(absl::StatusCode::kResourceExhausted,
                      kQueryExceededMemoryLimitNoDiskUseAllowed,
                      "allowDiskUse cannot spill: the database is in memory "
                      "(Options::in_memory)");
  }
  std::string dir = db_path + "/_tmp";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::InternalError(absl::StrCat(
        "cannot create the temporary directory ", dir, ": ", ec.message()));
  }
  return dir;
}

void RemoveSpillDirectory(const std::string& db_path) {
  std::error_code ec;
  std::filesystem::remove_all(db_path + "/_tmp", ec);
}

}  // namespace ttldb
