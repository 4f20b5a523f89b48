// Key encoding: "<value JSON>\n<value JSON>". decode(encode(x)) compares
// equal to x, in both directions, and the bytewise order of two encodings
// is the order of the values (reversed for descending).
#include "document/compare.h"
#include "fuzz/fuzz_util.h"
#include "index/key_codec.h"
#include "ttldb/json.h"

namespace {
int Sign(int x) { return (x > 0) - (x < 0); }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  auto [a_json, b_json] = SplitInput(data, size);
  auto a = ParseValue(a_json);
  auto b = ParseValue(b_json);
  if (!a.ok() || !b.ok()) return 0;
  for (bool descending : {false, true}) {
    const std::string ea = EncodeKeyValue(*a, descending);
    const std::string eb = EncodeKeyValue(*b, descending);
    absl::string_view rest = ea;
    auto decoded = DecodeKeyValue(&rest, descending);
    FUZZ_CHECK(decoded.ok(),
               ToJson(*a) + ": " + std::string(decoded.status().message()));
    FUZZ_CHECK(rest.empty(), ToJson(*a) + ": trailing bytes");
    FUZZ_CHECK(CompareValues(*decoded, *a) == 0,
               ToJson(*a) + " decoded as " + ToJson(*decoded));
    const int by_value = Sign(CompareValues(*a, *b));
    const int by_bytes = Sign(ea.compare(eb));
    FUZZ_CHECK(by_bytes == (descending ? -by_value : by_value),
               ToJson(*a) + " vs " + ToJson(*b));
  }
  return 0;
}
