// Test helpers: a temporary directory removed at the end of the test.
#ifndef TTLDB_TESTS_TEST_UTIL_H_
#define TTLDB_TESTS_TEST_UTIL_H_

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

#endif  // TTLDB_TESTS_TEST_UTIL_H_
