// Index and TTL index specs: lines of "<key pattern JSON>\n<options JSON>"
// pairs (up to 4 indexes: expireAfterSeconds, partialFilterExpression,
// unique, sparse, hidden, collation and other junk), created on a real
// in-memory database over documents of many shapes. Checks:
//  - a refused spec has a message and changes neither the indexes nor the
//    documents;
//  - building over existing documents (collection c) and maintaining the
//    index on insert (collection d, same specs created while empty) accept
//    the same specs and give the same keys per index (Validate's
//    keysPerIndex), before and after updates, deletes and a TTL pass;
//  - Validate is clean after every step, and c and d keep the same
//    documents;
//  - a TTL pass far in the future deletes exactly what reads hide (the
//    stored count equals the visible count afterwards);
//  - listIndexes output is accepted again by createIndex (as MongoDB's
//    createIndexes accepts it) and gives the same listing.
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "base/status.h"
#include "fuzz/fuzz_db.h"

namespace {
using namespace ttldb;

std::string KeysPerIndex(Collection& c) {
  auto v = c.Validate();
  FUZZ_CHECK(v.ok(), v.status().ToString());
  const Value* k = v->Get("keysPerIndex");
  return k == nullptr ? "" : ToJson(*k);
}

void Writes(Collection& c) {
  // Each may fail (a unique index, a partial filter...) but not corrupt.
  for (const char* u :
       {R"({"$set": {"t": {"$date": "2027-01-15T07:30:00Z"}}})",
        R"({"$unset": {"b": 1}})", R"({"$set": {"a": [5, 6], "c.d": 9}})"}) {
    auto r = c.UpdateMany("{}", u);
    if (!r.ok()) CheckError(r.status());
  }
  auto d = c.DeleteOne(R"({"_id": 2})");
  if (!d.ok()) CheckError(d.status());
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<absl::string_view> lines = absl::StrSplit(in, '\n');
  if (lines.size() > 8) lines.resize(8);

  FakeClock clock(FuzzNow());
  auto db = OpenFuzzDb(&clock);
  Collection& c = db->collection("c");
  Collection& d = db->collection("d");
  InsertFuzzDocs(c);
  FUZZ_CHECK(d.CreateIndex(R"({"zz": 1})").ok(), "create d");
  FUZZ_CHECK(d.DropIndex("zz_1").ok(), "drop zz_1");
  bool comparable = true;
  std::set<int> insert_errors_due;
  for (size_t i = 0; i + 1 < lines.size() || i == 0; i += 2) {
    absl::string_view keys = lines[i];
    absl::string_view opts = i + 1 < lines.size() ? lines[i + 1] : "{}";
    const bool was_comparable = comparable;
    const std::string indexes_c = IndexesJson(c);
    // (A TTL index hides expired documents from reads: compare per step.)
    const std::string docs_before = DocsJson(c);
    const std::string indexes_d = IndexesJson(d);
    auto rc = c.CreateIndex(keys, opts);
    auto rd = d.CreateIndex(keys, opts);
    if (!rc.ok()) {
      CheckError(rc.status());
      FUZZ_CHECK(IndexesJson(c) == indexes_c, "a refused index changed c");
      FUZZ_CHECK(DocsJson(c) == docs_before, "a refused index changed docs");
      if (rd.ok()) {
        // Refused because of the documents (duplicates, parallel arrays):
        // inserting them into d must then fail the same way. Except a
        // duplicate key while c holds expired documents: a unique build
        // counts hidden documents (MongoDB's rule), while an insert removes
        // the hidden document it collides with (docs/ttl.md, "Hidden means
        // absent, for writes too", and its note on builds).
        comparable = false;
        auto stored = c.EstimatedDocumentCount();
        auto visible = c.CountDocuments();
        const bool holds_hidden =
            stored.ok() && visible.ok() && *stored != *visible;
        const bool hidden_duplicate =
            holds_hidden && ErrorCode(rc.status()) == kDuplicateKey;
        if (was_comparable && !hidden_duplicate) {
          insert_errors_due.insert(ErrorCode(rc.status()));
        }
      } else if (comparable) {
        FUZZ_CHECK(ErrorCode(rd.status()) == ErrorCode(rc.status()),
                   absl::StrCat(rc.status().ToString(), " vs ",
                                rd.status().ToString()));
      }
    } else if (comparable) {
      FUZZ_CHECK(rd.ok() && *rd == *rc,
                 absl::StrCat("built: ", *rc, "; empty: ",
                              rd.ok() ? *rd : rd.status().ToString()));
    }
    if (rc.ok()) {
      bool listed = false;
      for (const Value& spec : ListSpecs(c)) {
        const Value* name = spec.Get("name");
        listed |=
            name != nullptr && name->is_string() && name->string_value() == *rc;
      }
      FUZZ_CHECK(listed, absl::StrCat("index ", *rc, " is not listed"));
    }
    if (!rd.ok()) {
      CheckError(rd.status());
      FUZZ_CHECK(IndexesJson(d) == indexes_d, "a refused index changed d");
    }
    CheckValid(c, "after createIndex");
    if (i + 1 >= lines.size()) break;
  }
  // A document refused for another reason first (a parallel-array 171
  // before a duplicate key 11000) cannot show the error due: then the
  // due errors are not checked.
  bool masked = false;
  for (const std::string& doc : FuzzDocs()) {
    auto r = d.InsertOne(doc);
    if (!r.ok()) {
      CheckError(r.status());
      comparable = false;
      masked = masked || insert_errors_due.count(ErrorCode(r.status())) == 0;
      insert_errors_due.erase(ErrorCode(r.status()));
    }
  }
  FUZZ_CHECK(masked || insert_errors_due.empty(),
             absl::StrCat("an index refused over the documents accepted them "
                          "one by one: ",
                          *insert_errors_due.begin()));
  CheckValid(d, "after inserts");
  if (comparable) {
    FUZZ_CHECK(KeysPerIndex(c) == KeysPerIndex(d),
               absl::StrCat("built ", KeysPerIndex(c), " maintained ",
                            KeysPerIndex(d)));
  }
  Writes(c);
  Writes(d);
  CheckValid(c, "after writes");
  CheckValid(d, "after writes");
  clock.SetWall(FuzzNow() + absl::Hours(24 * 400));
  DatabaseInternal::RunTtlPass(*db, FuzzNow() + absl::Hours(24 * 400));
  for (Collection* x : {&c, &d}) {
    CheckValid(*x, "after a TTL pass");
    // The pass deleted exactly what reads hide as expired.
    auto stored = x->EstimatedDocumentCount();
    auto visible = x->CountDocuments();
    FUZZ_CHECK(stored.ok() && visible.ok() && *stored == *visible,
               absl::StrCat("after a pass: stored ", stored.ok() ? *stored : -1,
                            ", visible ", visible.ok() ? *visible : -1));
  }
  if (comparable) {
    FUZZ_CHECK(DocsJson(c) == DocsJson(d), "c and d differ");
    FUZZ_CHECK(KeysPerIndex(c) == KeysPerIndex(d), "keys differ at the end");
  }

  // listIndexes round trip.
  auto specs = c.ListIndexes();
  FUZZ_CHECK(specs.ok(), specs.status().ToString());
  Collection& e = db->collection("e");
  FUZZ_CHECK(db->CreateCollection("e").ok(), "create e");
  for (const Value& spec : *specs) {
    const Value* name = spec.Get("name");
    const Value* key = spec.Get("key");
    FUZZ_CHECK(name != nullptr && key != nullptr, ToJson(spec));
    if (name->is_string() && name->string_value() == "_id_") continue;
    Value options = spec;
    options.Remove("key");
    options.Remove("v");
    auto r = e.CreateIndex(*key, options);
    FUZZ_CHECK(r.ok(), absl::StrCat(ToJson(spec), " not accepted again: ",
                                    r.status().ToString()));
  }
  FUZZ_CHECK(IndexesJson(e) == IndexesJson(c),
             absl::StrCat("listIndexes round trip:\n", IndexesJson(c), "vs\n",
                          IndexesJson(e)));
  return 0;
}
