// Extended JSON parsing: never crashes; whatever parses serializes in the
// storage form and re-parses to an equal value with the same serialization.
// A document the parser calls already in the storage form
// (ParseDocumentNotingForm, what an insert stores without serializing) is
// byte for byte its serialization, identical to ParseDocument's, and
// storable.
#include "document/compare.h"
#include "document/storable.h"
#include "fuzz/fuzz_util.h"
#include "ttldb/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  bool storage_form = true;
  auto doc = ParseDocumentNotingForm(in, &storage_form);
  auto plain = ParseDocument(in);
  FUZZ_CHECK(doc.ok() == plain.ok(), "ParseDocumentNotingForm disagrees");
  if (!doc.ok()) {
    FUZZ_CHECK(!storage_form, "storage form on error");
    FUZZ_CHECK(doc.status() == plain.status(), "another error");
  } else {
    FUZZ_CHECK(IdenticalValues(*doc, *plain), "another document");
    if (storage_form) {
      FUZZ_CHECK(ToJson(*doc, JsonFormat::kStorage) == in,
                 "storage form: " + ToJson(*doc, JsonFormat::kStorage));
      FUZZ_CHECK(CheckStorable(*doc).ok(), "storage form not storable");
    }
  }
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
