// The touch text path (engine/touch_text.h) against the general path:
// "<document JSON>\n<field>\n<index key JSON>[\n<index key JSON>...]".
// Two in-memory databases without a document cache get the same indexes
// (a first key spec with "ttl" in it becomes a TTL index of an hour) and
// the document; then Touch(field) and UpdateOne({$set: {field: <date>}})
// run on each, the text path on one and off on the other. The results
// (counts or errors) and every LevelDB key and value must be the same.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_split.h"
#include "engine/db_impl.h"
#include "engine/touch_text.h"
#include "fuzz/fuzz_db.h"
#include "leveldb/db.h"

namespace ttldb {
namespace {

std::unique_ptr<Database> OpenUncached(FakeClock* clock) {
  static int n = 0;
  Options options;
  options.in_memory = true;
  options.clock = clock;
  options.ttl_monitor_enabled = false;
  options.doc_cache_bytes = 0;  // every touch reads the stored text
  auto db = Database::Open(absl::StrCat("/fuzz-touch-", ++n), options);
  FUZZ_CHECK(db.ok(), db.status().ToString());
  return *std::move(db);
}

std::string Dump(Database& db) {
  std::string out;
  std::unique_ptr<leveldb::Iterator> it(
      DatabaseInternal::engine(db)->db()->NewIterator(leveldb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    // Escaped: the keys hold NULs, which would cut a failure's message.
    absl::StrAppend(&out, absl::CHexEscape(it->key().ToString()), "=",
                    absl::CHexEscape(it->value().ToString()), "\n");
  }
  return out;
}

std::string Describe(const absl::StatusOr<UpdateResult>& r) {
  if (!r.ok()) {
    // The payloads by name (ToString lists them in no fixed order).
    std::string out = absl::StrCat(absl::StatusCodeToString(r.status().code()),
                                   ": ", r.status().message());
    for (const char* url : {"ttldb.mongo_code", "ttldb.duplicate_key_info"}) {
      if (auto p = r.status().GetPayload(url)) {
        absl::StrAppend(&out, " [", url, "=", std::string(*p), "]");
      }
    }
    return out;
  }
  return absl::StrCat(r->matched_count, "/", r->modified_count);
}

}  // namespace
}  // namespace ttldb

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb;
  const std::vector<std::string> lines = absl::StrSplit(
      absl::string_view(reinterpret_cast<const char*>(data), size), '\n');
  if (lines.size() < 2 || lines.size() > 6) return 0;
  auto doc = ParseDocument(lines[0]);
  if (!doc.ok()) return 0;
  const Value* id = doc->Get("_id");
  if (id == nullptr) return 0;
  FakeClock clock(FuzzNow());
  std::unique_ptr<Database> dbs[2] = {OpenUncached(&clock),
                                      OpenUncached(&clock)};
  std::string results[2];
  for (int k = 0; k < 2; ++k) {
    Collection& c = dbs[k]->collection("c");
    for (size_t i = 2; i < lines.size(); ++i) {
      const bool ttl = i == 2 && lines[i].find("ttl") != std::string::npos;
      std::string keys = lines[i];
      if (ttl) keys = keys.substr(0, keys.find("ttl"));
      auto r =
          c.CreateIndex(keys, ttl ? R"({"expireAfterSeconds": 3600})" : "{}");
      absl::StrAppend(&results[k], r.ok() ? "i" : "x");
    }
    auto r = c.InsertOne(*doc);
    absl::StrAppend(&results[k], r.ok() ? "+" : "-");
  }
  FUZZ_CHECK(results[0] == results[1], results[0] + " vs " + results[1]);
  const Value filter = Value::MakeObject({Field("_id", *id)});
  const std::string& field = lines[1];
  for (int step = 0; step < 3; ++step) {
    for (int k = 0; k < 2; ++k) {
      SetStoredTextSetEnabledForTesting(k == 0);
      Collection& c = dbs[k]->collection("c");
      absl::StatusOr<UpdateResult> r;
      if (step == 1) {
        const Value set = Value::MakeObject({Field(
            "$set", Value::MakeObject({Field(
                        field, Value::Date(absl::ToUnixMillis(clock.WallNow()) -
                                           5))}))});
        r = c.UpdateOne(filter, set);
      } else {
        r = c.Touch(filter, field);
      }
      results[k] = Describe(r);
    }
    SetStoredTextSetEnabledForTesting(true);
    FUZZ_CHECK(results[0] == results[1], results[0] + " vs " + results[1]);
    const std::string a = Dump(*dbs[0]), b = Dump(*dbs[1]);
    FUZZ_CHECK(a == b, a + "\nvs\n" + b);
    clock.Advance(absl::Milliseconds(3));
  }
  CheckValid(dbs[0]->collection("c"), "after the touches");
  return 0;
}
