// A temporary directory removed at the end of a test (like tests/test_util.h,
// which is private to //tests).
#ifndef TTLDB_TESTS_RELIABILITY_TEMP_DIR_H_
#define TTLDB_TESTS_RELIABILITY_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"

namespace ttldb {

class TempDir {
 public:
  TempDir() {
    const char* base = getenv("TEST_TMPDIR");
    std::string tmpl =
        absl::StrCat(base != nullptr ? base : "/tmp", "/ttldb-XXXXXX");
    char* made = mkdtemp(tmpl.data());
    path_ = made != nullptr ? made : tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace ttldb

#endif  // TTLDB_TESTS_RELIABILITY_TEMP_DIR_H_
