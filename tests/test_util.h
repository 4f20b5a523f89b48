// Test helpers: a temporary directory removed at the end of the test, and
// the Extended JSON of a date.
#ifndef TTLDB_TESTS_TEST_UTIL_H_
#define TTLDB_TESTS_TEST_UTIL_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"

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

// 2027-01-15T08:00:00Z: the tests' usual "now".
inline const absl::Time kTestStart = absl::FromUnixSeconds(1'800'000'000);

// {"$date": {"$numberLong": "<ms>"}}: `t` as a document field's JSON.
inline std::string DateJson(absl::Time t) {
  return absl::StrCat(R"({"$date": {"$numberLong": ")", absl::ToUnixMillis(t),
                      R"("}})");
}

}  // namespace ttldb

#endif  // TTLDB_TESTS_TEST_UTIL_H_
