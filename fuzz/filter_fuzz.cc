// Filter parsing and matching: "<filter JSON>\n<document JSON>". Never
// crashes; a parsed filter matches any document without error, and asking
// for MatchDetails does not change the verdict.
#include "fuzz/fuzz_util.h"
#include "query/filter.h"
#include "ttldb/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  auto [filter_json, doc_json] = SplitInput(data, size);
  auto filter_doc = ParseDocument(filter_json);
  if (!filter_doc.ok()) return 0;
  auto filter = Filter::Parse(*filter_doc);
  if (!filter.ok()) {
    FUZZ_CHECK(!filter.status().message().empty(), "error without a message");
    return 0;
  }
  auto doc = ParseDocument(doc_json);
  if (!doc.ok()) return 0;
  const bool once = filter->Matches(*doc);
  FUZZ_CHECK(filter->Matches(*doc) == once, "matching is not deterministic");
  MatchDetails details;
  FUZZ_CHECK(filter->Matches(*doc, &details) == once,
             "matching with details gives another verdict");
  return 0;
}
