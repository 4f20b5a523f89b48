// The ttldb side of the differential test (diff.js): reads cases, one JSON
// object per line {"docs": [...], "pipeline": [...]}, runs each pipeline
// over a fresh collection of one temporary database holding `docs`, and
// prints one line per case: {"ok": [results]} or {"error": code,
// "message": "..."} (relaxed Extended JSON).
//
// usage: agg_run < cases.jsonl
#include <stdlib.h>

#include <filesystem>
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

int main() {
  using namespace ttldb;
  std::string tmpl = absl::StrCat(
      getenv("TEST_TMPDIR") != nullptr ? getenv("TEST_TMPDIR") : "/tmp",
      "/agg_run-XXXXXX");
  std::string dir = mkdtemp(tmpl.data());
  Options options;
  options.ttl_monitor_enabled = false;
  auto db = Database::Open(dir, options);
  if (!db.ok()) {
    std::cerr << db.status() << "\n";
    return 1;
  }
  std::string line;
  int n = 0;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    auto c = ParseDocument(line, StoredJsonParseOptions());
    Value out;
    if (!c.ok()) {
      out = Value::MakeObject(
          {Field("error", Value::Int32(-1)),
           Field("message", Value::String(c.status().ToString()))});
    } else {
      Collection& coll = (*db)->collection(absl::StrCat("c", n++));
      absl::Status s;
      for (const Value& d : c->Get("docs")->array_items()) {
        s = coll.InsertOne(d).status();
        if (!s.ok()) break;
      }
      absl::StatusOr<std::vector<Value>> docs = std::vector<Value>();
      if (!s.ok()) {
        docs = s;
      } else {
        auto cursor = coll.Aggregate(*c->Get("pipeline"));
        if (cursor.ok()) {
          docs = (*cursor)->ToVector();
        } else {
          docs = cursor.status();
        }
      }
      if (docs.ok()) {
        out = Value::MakeObject(
            {Field("ok", Value::MakeArray(std::move(*docs)))});
      } else {
        out = Value::MakeObject(
            {Field("error", Value::Int32(ErrorCode(docs.status()))),
             Field("message",
                   Value::String(std::string(docs.status().message())))});
      }
    }
    std::cout << ToJson(out) << "\n";
  }
  db->reset();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return 0;
}
