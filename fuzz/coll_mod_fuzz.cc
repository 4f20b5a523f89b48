// collMod: each input line is a collMod command ({collMod: "c", index:
// {name | keyPattern, expireAfterSeconds, hidden, maxLifetimeSeconds,
// rejectExpired}} or junk), applied in order to a collection with a TTL
// index, plain, compound and partial indexes over documents of many shapes.
// Checks:
//  - a refused command has a message and changes neither the indexes nor
//    the documents; an accepted one leaves Validate clean and its changes
//    listed;
//  - the listIndexes output stays accepted by createIndex (round trip);
//  - a TTL pass far in the future then deletes exactly what reads hide:
//    afterwards the stored count equals the visible count, and Validate is
//    clean.
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "base/status.h"
#include "fuzz/fuzz_db.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<absl::string_view> lines = absl::StrSplit(in, '\n');
  if (lines.size() > 8) lines.resize(8);

  FakeClock clock(FuzzNow());
  auto db = OpenFuzzDb(&clock);
  Collection& c = db->collection("c");
  InsertFuzzDocs(c);
  FUZZ_CHECK(
      c.CreateIndex(R"({"t": 1})", R"({"expireAfterSeconds": 3600})").ok(),
      "ttl index");
  FUZZ_CHECK(c.CreateIndex(R"({"a": 1})").ok(), "a_1");
  FUZZ_CHECK(c.CreateIndex(R"({"b": 1, "u": -1})").ok(), "b_1_u_-1");
  FUZZ_CHECK(c.CreateIndex(R"({"c.d": 1})",
                           R"({"partialFilterExpression": {"a": {"$gt": 0}}})")
                 .ok(),
             "c.d_1");
  FUZZ_CHECK(c.CreateIndex(R"({"u": 1})", R"({"sparse": true})").ok(), "u_1");

  for (absl::string_view line : lines) {
    auto cmd = ParseDocument(line);
    if (!cmd.ok()) continue;
    const std::string indexes = IndexesJson(c);
    const std::string docs = DocsJson(c);
    auto r = c.CollMod(*cmd);
    if (!r.ok()) {
      CheckError(r.status());
      FUZZ_CHECK(IndexesJson(c) == indexes,
                 absl::StrCat("a refused collMod changed the indexes: ",
                              r.status().ToString()));
      FUZZ_CHECK(DocsJson(c) == docs, "a refused collMod changed documents");
      continue;
    }
    FUZZ_CHECK(r->is_object(), ToJson(*r));
    // A changed lifetime changes which documents reads hide (docs/ttl.md:
    // expireAfterSeconds 0 hides a document dated now at once); any other
    // collMod leaves the visible documents as they were.
    const Value* changed = cmd->Get("index");
    const bool lifetime_changed =
        changed != nullptr && changed->is_object() &&
        (changed->Get("expireAfterSeconds") != nullptr ||
         changed->Get("maxLifetimeSeconds") != nullptr);
    if (!lifetime_changed) {
      FUZZ_CHECK(DocsJson(c) == docs, "collMod changed documents");
    }
    CheckValid(c, "after collMod");
    // A changed expireAfterSeconds is listed.
    const Value* index = cmd->Get("index");
    const Value* name = index != nullptr ? index->Get("name") : nullptr;
    const Value* expire = r->Get("expireAfterSeconds_new");
    if (expire != nullptr && name != nullptr && name->is_string()) {
      bool found = false;
      for (const Value& spec : ListSpecs(c)) {
        const Value* n = spec.Get("name");
        const Value* e = spec.Get("expireAfterSeconds");
        if (n == nullptr || !n->is_string() ||
            n->string_value() != name->string_value()) {
          continue;
        }
        FUZZ_CHECK(e != nullptr && e->AsDouble() == expire->AsDouble(),
                   absl::StrCat(ToJson(spec), " after ", ToJson(*r)));
        found = true;
      }
      FUZZ_CHECK(found, "the changed index is not listed");
    }
  }

  // listIndexes round trip.
  Collection& e = db->collection("e");
  FUZZ_CHECK(db->CreateCollection("e").ok(), "create e");
  for (const Value& spec : ListSpecs(c)) {
    const Value* name = spec.Get("name");
    if (name->is_string() && name->string_value() == "_id_") continue;
    Value options = spec;
    options.Remove("key");
    options.Remove("v");
    auto r = e.CreateIndex(*spec.Get("key"), options);
    FUZZ_CHECK(r.ok(), absl::StrCat(ToJson(spec), " not accepted again: ",
                                    r.status().ToString()));
  }
  FUZZ_CHECK(IndexesJson(e) == IndexesJson(c), "listIndexes round trip");

  // New writes go through the modified indexes; a far-future pass deletes
  // exactly the documents reads hide.
  for (const std::string& doc : FuzzDocs()) {
    Value v = *ParseDocument(doc);
    v.Set("_id", Value::String(absl::StrCat("new-", ToJson(*v.Get("_id")))));
    auto r = c.InsertOne(v);
    if (!r.ok()) CheckError(r.status());
  }
  CheckValid(c, "after inserts");
  for (absl::Duration ahead :
       {absl::Seconds(0), absl::Hours(2), absl::Hours(24 * 400)}) {
    clock.SetWall(FuzzNow() + ahead);
    DatabaseInternal::RunTtlPass(*db, FuzzNow() + ahead);
    CheckValid(c, "after a TTL pass");
    auto stored = c.EstimatedDocumentCount();
    auto visible = c.CountDocuments();
    FUZZ_CHECK(stored.ok() && visible.ok() && *stored == *visible,
               absl::StrCat("after a pass at +", absl::FormatDuration(ahead),
                            ": stored ", stored.ok() ? *stored : -1,
                            ", visible ", visible.ok() ? *visible : -1));
  }
  return 0;
}
