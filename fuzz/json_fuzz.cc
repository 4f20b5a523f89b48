// Extended JSON parsing: never crashes; whatever parses serializes in the
// storage form and re-parses to an equal value with the same serialization.
#include "document/compare.h"
#include "document/json.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  auto v = ParseValue(in);
  if (!v.ok()) {
    FUZZ_CHECK(!v.status().message().empty(), "error without a message");
    return 0;
  }
  const std::string stored = ToJson(*v, JsonFormat::kStorage);
  auto again = ParseValue(stored);
  FUZZ_CHECK(again.ok(),
             stored + " -> " + std::string(again.status().message()));
  FUZZ_CHECK(CompareValues(*v, *again) == 0, stored);
  FUZZ_CHECK(ToJson(*again, JsonFormat::kStorage) == stored, stored);
  // The other forms must serialize without crashing.
  (void)ToJson(*v, JsonFormat::kRelaxed);
  (void)ToJson(*v, JsonFormat::kCanonical);
  return 0;
}
