// find with fuzzed sort and projection specs: "<sort JSON>\n<projection
// JSON>\n[<filter JSON>]\n[<skip> <limit>]" over a small fixed collection
// with indexes (so plans differ). Checks, whenever the find succeeds:
//  - the documents come in the sort's order (SortSpec's comparison);
//  - the projected results are, one by one, the projection applied to the
//    unprojected results (a projection parse error fails the find);
//  - a collection scan ($natural hint) returns the same documents with the
//    same sort keys as the planner's choice;
//  - skip and limit return the matching slice (a top-k sort gives the same
//    sort keys as the full sort).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "fuzz/fuzz_db.h"
#include "query/filter.h"
#include "query/projection.h"
#include "query/sort.h"

namespace {
using namespace ttldb;

Collection& FixedCollection() {
  static FakeClock* clock = new FakeClock(FuzzNow());
  static Database* db = OpenFuzzDb(clock).release();
  static Collection* c = [] {
    Collection* c = &db->collection("c");
    InsertFuzzDocs(*c);
    for (const char* k : {R"({"a": 1})", R"({"b": -1, "u": 1})",
                          R"({"c.d": 1})", R"({"t": -1})"}) {
      FUZZ_CHECK(c->CreateIndex(k).ok(), k);
    }
    return c;
  }();
  return *c;
}

absl::StatusOr<std::vector<Value>> Run(Collection& c, const Value& filter,
                                       const FindOptions& options) {
  auto cursor = c.Find(filter, options);
  if (!cursor.ok()) return cursor.status();
  std::vector<Value> out;
  while (true) {
    auto next = (*cursor)->Next();
    if (!next.ok()) return next.status();
    if (!next->has_value()) return out;
    out.push_back(**std::move(next));
    FUZZ_CHECK(out.size() <= 100, "more documents than stored");
  }
}

std::string Json(const Value& v) { return ToJson(v, JsonFormat::kStorage); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<absl::string_view> lines = absl::StrSplit(in, '\n');
  while (lines.size() < 4) lines.push_back("");
  auto sort = ParseDocument(lines[0].empty() ? "{}" : lines[0]);
  auto projection = ParseDocument(lines[1].empty() ? "{}" : lines[1]);
  auto filter = ParseDocument(lines[2].empty() ? "{}" : lines[2]);
  if (!sort.ok() || !projection.ok() || !filter.ok()) return 0;
  int64_t skip = 0, limit = 0;
  std::vector<absl::string_view> nums =
      absl::StrSplit(lines[3], ' ', absl::SkipEmpty());
  if (nums.size() >= 1 && absl::SimpleAtoi(nums[0], &skip)) skip %= 12;
  if (nums.size() >= 2 && absl::SimpleAtoi(nums[1], &limit)) limit %= 12;
  skip = std::max<int64_t>(skip, 0);
  limit = std::max<int64_t>(limit, 0);

  Collection& c = FixedCollection();
  auto parsed_filter = Filter::Parse(*filter);
  auto parsed_sort = SortSpec::Parse(*sort);

  FindOptions sorted;
  sorted.sort = *sort;
  auto full = Run(c, *filter, sorted);
  FindOptions natural = sorted;
  // The scan in the sort's $natural direction, if it names one (MongoDB
  // refuses a $natural hint against a $natural sort the other way).
  const Value* natural_sort = sort->Get("$natural");
  const bool backward = natural_sort != nullptr && natural_sort->is_number() &&
                        natural_sort->AsDouble() < 0;
  natural.hint_keys =
      *ParseDocument(backward ? R"({"$natural": -1})" : R"({"$natural": 1})");
  auto scan = Run(c, *filter, natural);
  if (!full.ok()) {
    CheckError(full.status());
    FUZZ_CHECK(!scan.ok(), absl::StrCat("only the planned find failed: ",
                                        full.status().ToString()));
    return 0;
  }
  FUZZ_CHECK(parsed_filter.ok() && parsed_sort.ok(), "accepted a bad spec");
  FUZZ_CHECK(scan.ok(),
             absl::StrCat("only the scan failed: ", scan.status().ToString()));

  // Sorted, and the same sort keys and documents from both plans.
  std::vector<SortSpec::Key> keys;
  for (const Value& d : *full) {
    auto k = parsed_sort->KeyOf(d);
    FUZZ_CHECK(k.ok(), k.status().ToString());
    keys.push_back(*std::move(k));
  }
  for (size_t i = 1; i < keys.size(); ++i) {
    FUZZ_CHECK(parsed_sort->CompareKeys(keys[i - 1], keys[i]) <= 0,
               absl::StrCat("out of order: ", Json((*full)[i - 1]), " before ",
                            Json((*full)[i])));
  }
  FUZZ_CHECK(scan->size() == full->size(), "the scan found other documents");
  std::vector<std::string> a, b;
  for (size_t i = 0; i < full->size(); ++i) {
    auto k = parsed_sort->KeyOf((*scan)[i]);
    FUZZ_CHECK(k.ok() && parsed_sort->CompareKeys(*k, keys[i]) == 0,
               absl::StrCat("scan and plan disagree at ", i, ": ",
                            Json((*scan)[i]), " vs ", Json((*full)[i])));
    a.push_back(Json((*full)[i]));
    b.push_back(Json((*scan)[i]));
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  FUZZ_CHECK(a == b, "the scan returned other documents");

  // The projection, applied by find and by hand.
  FindOptions projected = sorted;
  projected.projection = *projection;
  auto proj = Run(c, *filter, projected);
  auto parsed_projection = Projection::Parse(*projection, &*parsed_filter);
  if (!parsed_projection.ok()) {
    FUZZ_CHECK(!proj.ok(), "find accepted a projection Parse refuses");
  }
  if (!proj.ok()) {
    CheckError(proj.status());
    return 0;
  }
  FUZZ_CHECK(parsed_projection.ok(), "find accepted a bad projection");
  FUZZ_CHECK(proj->size() == full->size(), "projection changed the count");
  for (size_t i = 0; i < full->size(); ++i) {
    auto p = parsed_projection->Apply((*full)[i]);
    FUZZ_CHECK(p.ok() && Json(*p) == Json((*proj)[i]),
               absl::StrCat("find projected ", Json((*full)[i]), " to ",
                            Json((*proj)[i]), ", Apply to ",
                            p.ok() ? Json(*p) : p.status().ToString()));
  }

  // skip + limit: the slice, with the full sort's keys.
  FindOptions sliced = sorted;
  sliced.skip = skip;
  sliced.limit = limit;
  auto part = Run(c, *filter, sliced);
  FUZZ_CHECK(part.ok(), part.status().ToString());
  const int64_t n = static_cast<int64_t>(full->size());
  const int64_t want =
      std::max<int64_t>(0, limit == 0 ? n - skip : std::min(limit, n - skip));
  FUZZ_CHECK(static_cast<int64_t>(part->size()) == want,
             absl::StrCat("skip ", skip, " limit ", limit, " of ", n, ": ",
                          part->size()));
  for (size_t i = 0; i < part->size(); ++i) {
    auto k = parsed_sort->KeyOf((*part)[i]);
    FUZZ_CHECK(k.ok() && parsed_sort->CompareKeys(*k, keys[skip + i]) == 0,
               absl::StrCat("slice differs at ", i, ": ", Json((*part)[i])));
  }
  projected.skip = skip;
  projected.limit = limit;
  auto proj_part = Run(c, *filter, projected);
  FUZZ_CHECK(proj_part.ok() && proj_part->size() == part->size(),
             "projected slice");
  return 0;
}
