// Aggregation pipelines, every stage and expression (issue 28, "Tests and
// fuzzing"): "<pipeline JSON>" runs as Collection::Aggregate over a fixed
// collection of many shapes, with a second collection for $lookup,
// $graphLookup and $unionWith, a 1 MiB bound on each blocking stage and a
// 2-second time limit (the server's maxTimeMS), so neither a quadratic
// stage nor a doubling expression can outlast libFuzzer's -timeout or its
// -rss_limit_mb: the bounds a client meets over the wire
// (tests/clients/agg_bounds.test.mjs). Properties:
//  - it never crashes, aborts or allocates without bound;
//  - an error has a message;
//  - every document it returns fits a BSON document (16 MiB, 10334 past
//    it: src/mongo/bson/bsonobj.cpp);
//  - $out / $merge leave every collection they wrote valid (documents and
//    index entries agree), and a failed pipeline leaves the source intact.
#include <memory>
#include <string>

#include "absl/time/time.h"
#include "base/op_deadline.h"
#include "document/bson.h"
#include "fuzz/fuzz_db.h"
#include "fuzz/fuzz_util.h"
#include "ttldb/clock.h"
#include "ttldb/json.h"

namespace {

// 16 MiB plus the 16 KiB of room MongoDB allows a document in flight
// (BSONObjMaxInternalSize).
constexpr size_t kMaxReturnedBytes = (16 << 20) + (16 << 10);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  auto pipeline = ParseValue(in);
  if (!pipeline.ok() || !pipeline->is_array()) return 0;

  FakeClock clock(FuzzNow());
  std::unique_ptr<Database> db = OpenFuzzDb(&clock);
  Collection& c = db->collection("c");
  Collection& other = db->collection("other");
  FUZZ_CHECK(c.CreateIndex(R"({"a": 1})").ok(), "index a");
  FUZZ_CHECK(other.CreateIndex(R"({"b": 1})", R"({"sparse": true})").ok(),
             "index b");
  InsertFuzzDocs(c);
  InsertFuzzDocs(other);
  auto count_before = c.CountDocuments();
  FUZZ_CHECK(count_before.ok(), count_before.status().ToString());

  AggregateOptions options;
  options.max_memory_bytes = 1 << 20;
  bool failed = false;
  {
    ScopedOpDeadline deadline(Clock::Real(),
                              Clock::Real()->SteadyNow() + absl::Seconds(2));
    auto cursor = c.Aggregate(ToJson(*pipeline), options);
    if (!cursor.ok()) {
      FUZZ_CHECK(!cursor.status().message().empty(), "error without a message");
      failed = true;
    } else {
      for (;;) {
        auto next = (*cursor)->Next();
        if (!next.ok()) {
          FUZZ_CHECK(!next.status().message().empty(),
                     "error without a message");
          failed = true;
          break;
        }
        if (!next->has_value()) break;
        FUZZ_CHECK(BsonDocumentSize(**next) <= kMaxReturnedBytes,
                   absl::StrCat("a returned document of ",
                                BsonDocumentSize(**next), " bytes"));
      }
    }
  }
  auto names = db->ListCollectionNames();
  FUZZ_CHECK(names.ok(), names.status().ToString());
  for (const std::string& name : *names) {
    CheckValid(db->collection(name),
               absl::StrCat("after the pipeline, ", name));
  }
  if (failed) {
    // A failed pipeline never wrote into its own source ($out into "c"
    // replaces it only once the whole result is there).
    auto count_after = c.CountDocuments();
    FUZZ_CHECK(count_after.ok(), count_after.status().ToString());
    FUZZ_CHECK(*count_after == *count_before,
               absl::StrCat("a failed pipeline changed its source: ",
                            *count_before, " -> ", *count_after));
  }
  return 0;
}
