// Update parsing and application: "<update JSON>\n<document JSON>". Never
// crashes; a failed Apply leaves the document unchanged; a successful one
// produces a document that serializes and re-parses. A top-level
// "arrayFilters" field of the update line is passed as the arrayFilters
// option; "$" resolves to position 0.
#include <vector>

#include "document/compare.h"
#include "document/json.h"
#include "fuzz/fuzz_util.h"
#include "query/update.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  auto [update_json, doc_json] = SplitInput(data, size);
  auto update_doc = ParseDocument(update_json);
  if (!update_doc.ok()) return 0;
  std::vector<Value> array_filters;
  if (const Value* af = update_doc->Get("arrayFilters");
      af != nullptr && af->is_array()) {
    array_filters = af->array_items();
    update_doc->Remove("arrayFilters");
  }
  auto update = Update::Parse(*update_doc, array_filters);
  if (!update.ok()) {
    FUZZ_CHECK(!update.status().message().empty(), "error without a message");
    return 0;
  }
  auto doc = ParseDocument(doc_json);
  if (!doc.ok()) return 0;
  Value updated = *doc;
  bool modified = false;
  absl::Status s =
      update->Apply(&updated, 1'800'000'000'000, false, &modified, size_t{0});
  if (!s.ok()) {
    FUZZ_CHECK(!s.message().empty(), "error without a message");
    FUZZ_CHECK(CompareValues(updated, *doc) == 0, "a failed Apply changed it");
    return 0;
  }
  const std::string out = ToJson(updated, JsonFormat::kStorage);
  auto again = ParseValue(out, ParseOptions{1 << 30, 1 << 20});
  FUZZ_CHECK(again.ok(), out + " -> " + std::string(again.status().message()));
  FUZZ_CHECK(CompareValues(updated, *again) == 0, out);
  return 0;
}
