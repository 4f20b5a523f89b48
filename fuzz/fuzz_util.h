// Helpers shared by the libFuzzer targets (built by scripts/fuzz.sh).
#ifndef TTLDB_FUZZ_FUZZ_UTIL_H_
#define TTLDB_FUZZ_FUZZ_UTIL_H_

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace ttldb {

// Splits the input at its first newline: two JSON texts for two-input
// targets (filter + document, update + document, value + value).
inline std::pair<absl::string_view, absl::string_view> SplitInput(
    const uint8_t* data, size_t size) {
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  size_t nl = in.find('\n');
  if (nl == absl::string_view::npos) return {in, absl::string_view()};
  return {in.substr(0, nl), in.substr(nl + 1)};
}

// A property violation: print and abort so libFuzzer records the input.
#define FUZZ_CHECK(cond, msg)                               \
  do {                                                      \
    if (!(cond)) {                                          \
      fprintf(stderr, "FUZZ_CHECK failed: %s: %s\n", #cond, \
              std::string(msg).c_str());                    \
      abort();                                              \
    }                                                       \
  } while (0)

}  // namespace ttldb

#endif  // TTLDB_FUZZ_FUZZ_UTIL_H_
