// Update parsing and application: "<update JSON>\n<document JSON>". Never
// crashes; a failed Apply leaves the document unchanged; a successful one
// produces a document that serializes and re-parses. A top-level
// "arrayFilters" field of the update line is passed as the arrayFilters
// option; "$" resolves to position 0. An update line that is an array is a
// pipeline-style update (pipeline/update_pipeline.h), run without constants.
#include <vector>

#include "document/compare.h"
#include "document/storable.h"
#include "fuzz/fuzz_util.h"
#include "pipeline/update_pipeline.h"
#include "query/update.h"
#include "ttldb/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  auto [update_json, doc_json] = SplitInput(data, size);
  auto update_doc = ParseValue(update_json);
  if (!update_doc.ok()) return 0;
  absl::StatusOr<Update> update = absl::UnknownError("unset");
  if (update_doc->is_array()) {
    auto t = agg::ParseUpdatePipeline(*update_doc, Value(), Value(),
                                      1'800'000'000'000);
    if (t.ok()) {
      update = Update::FromTransform(*std::move(t));
    } else {
      update = t.status();
    }
  } else {
    if (!update_doc->is_object()) return 0;
    std::vector<Value> array_filters;
    if (const Value* af = update_doc->Get("arrayFilters");
        af != nullptr && af->is_array()) {
      array_filters = af->array_items();
      update_doc->Remove("arrayFilters");
    }
    update = Update::Parse(*update_doc, array_filters);
  }
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
  // An update may build what the storage form cannot hold: a pipeline's
  // {$date: "x"} through $literal, or an operator's nested Extended JSON
  // keyword beside other fields ({$set: {"a.$[i].$date": 1}}, found by this
  // target in CI). The engine's write path refuses such a document with
  // CheckStorable's message before writing (engine/write_path.cc), so the
  // round trip below is the property of a storable result only.
  if (absl::Status storable = CheckStorable(updated); !storable.ok()) {
    FUZZ_CHECK(!storable.message().empty(), "unstorable without a message");
    return 0;
  }
  const std::string out = ToJson(updated, JsonFormat::kStorage);
  auto again = ParseValue(out, ParseOptions{1 << 30, 1 << 20});
  FUZZ_CHECK(again.ok(), out + " -> " + std::string(again.status().message()));
  FUZZ_CHECK(CompareValues(updated, *again) == 0, out);
  return 0;
}
