// `ttldb import` input: lines of Extended JSON (or one JSON array) read by
// ImportDocuments into a collection with a TTL index, a partial TTL index
// and a unique index, on a real in-memory database. Checks:
//  - the counts it reports are what is stored, an error names the line or
//    document, and the batch size changes neither the outcome nor the data;
//  - Validate is clean;
//  - what export writes imports again, entirely (nothing it wrote is
//    refused or skipped as expired), into the same export.
#include <regex>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "fuzz/fuzz_db.h"
#include "tools/import_export.h"

namespace {
using namespace ttldb;

Collection& Prepare(Database* db, absl::string_view name) {
  Collection& c = db->collection(name);
  FUZZ_CHECK(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 3600})").ok(),
      "ttl");
  FUZZ_CHECK(c.CreateIndex(R"({"p": 1})",
                           R"({"expireAfterSeconds": 0,
                               "partialFilterExpression": {"k": "x"}})")
                 .ok(),
             "partial ttl");
  FUZZ_CHECK(
      c.CreateIndex(R"({"u": 1})", R"({"unique": true, "sparse": true})").ok(),
      "unique");
  return c;
}

std::string MaskIds(const std::string& s) {
  static const std::regex oid(R"("\$oid":"[0-9a-f]{24}")");
  return std::regex_replace(s, oid, "\"$$oid\":0");
}

struct Imported {
  absl::Status status;
  ImportResult result;
};

Imported Import(Database* db, absl::string_view coll, const std::string& text,
                size_t batch) {
  std::istringstream in(text);
  ImportOptions options;
  options.now = FuzzNow();
  options.batch_size = batch;
  Imported out;
  out.status = ImportDocuments(db, coll, &in, options, &out.result);
  return out;
}

std::string Export(Database* db, absl::string_view coll, int64_t* n) {
  std::ostringstream out;
  auto count = ExportDocuments(db, coll, {}, &out);
  FUZZ_CHECK(count.ok(), count.status().ToString());
  *n = *count;
  return out.str();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  FakeClock clock(FuzzNow());
  auto db = OpenFuzzDb(&clock);
  auto db2 = OpenFuzzDb(&clock);  // same names, so the errors compare
  Collection& a = Prepare(db.get(), "a");
  Collection& b = Prepare(db2.get(), "a");
  Imported one = Import(db.get(), "a", text, 1);
  Imported many = Import(db2.get(), "a", text, 1000);

  for (const Imported* r : {&one, &many}) {
    if (!r->status.ok()) {
      CheckError(r->status);
      const auto msg = r->status.message();
      FUZZ_CHECK(absl::StartsWith(msg, "line ") ||
                     absl::StartsWith(msg, "document ") ||
                     absl::StartsWith(msg, "JSON array"),
                 r->status.ToString());
    }
  }
  FUZZ_CHECK(
      one.status == many.status,
      absl::StrCat("batch size changed the outcome: ", one.status.ToString(),
                   " / ", many.status.ToString()));
  FUZZ_CHECK(one.result.imported == many.result.imported &&
                 one.result.skipped == many.result.skipped,
             "batch size changed the counts");
  auto stored = a.EstimatedDocumentCount();
  FUZZ_CHECK(stored.ok() && *stored == one.result.imported,
             absl::StrCat("imported ", one.result.imported, ", stored ",
                          stored.ok() ? *stored : -1));
  CheckValid(a, "after import");
  CheckValid(b, "after import");
  int64_t na = 0, nb = 0;
  const std::string exported = Export(db.get(), "a", &na);
  // (A document without _id gets a fresh ObjectId in each.)
  FUZZ_CHECK(
      MaskIds(exported) == MaskIds(Export(db2.get(), "a", &nb)) && na == nb,
      "batch size changed the data");
  auto visible = a.CountDocuments();
  FUZZ_CHECK(visible.ok() && *visible == na, "export count");

  // Export, import again.
  Prepare(db.get(), "c");
  Imported again = Import(db.get(), "c", exported, 1000);
  FUZZ_CHECK(again.status.ok(),
             absl::StrCat("export not importable: ", again.status.ToString()));
  FUZZ_CHECK(again.result.imported == na && again.result.skipped == 0,
             absl::StrCat("re-import: ", again.result.Summary()));
  int64_t nc = 0;
  FUZZ_CHECK(Export(db.get(), "c", &nc) == exported,
             "export of the re-import differs");
  return 0;
}
