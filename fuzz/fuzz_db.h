// Helpers for the fuzz targets that run against a real database: an
// in-memory ttldb (Options::in_memory, no files) with an injected clock and
// no monitor thread, a small fixed collection, and the checks every such
// target makes (Validate clean, index specs that round-trip).
#ifndef TTLDB_FUZZ_FUZZ_DB_H_
#define TTLDB_FUZZ_FUZZ_DB_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "fuzz/fuzz_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {

// 2027-01-15T08:00:00Z: the fuzzed databases' "now".
inline absl::Time FuzzNow() { return absl::FromUnixSeconds(1800000000); }

// An in-memory database, the TTL monitor off (passes are run explicitly).
inline std::unique_ptr<Database> OpenFuzzDb(FakeClock* clock) {
  static int n = 0;
  Options options;
  options.in_memory = true;
  options.clock = clock;
  options.ttl_monitor_enabled = false;
  auto db = Database::Open(absl::StrCat("/fuzz-db-", ++n), options);
  FUZZ_CHECK(db.ok(), db.status().ToString());
  return *std::move(db);
}

// Documents of many shapes: dates (past, future, in arrays), numbers of
// each type, strings, nested objects and arrays, missing fields, null.
inline const std::vector<std::string>& FuzzDocs() {
  static const auto* docs = new std::vector<std::string>{
      R"({"_id": 1, "a": 1, "b": "x", "t": {"$date": "2027-01-15T07:00:00Z"}})",
      R"({"_id": 2, "a": 2.5, "b": "y", "t": {"$date": "2027-01-15T09:00:00Z"}, "c": {"d": 1}})",
      R"({"_id": 3, "a": [3, 1, 2], "b": ["x", "z"], "t": [{"$date": "2026-01-01T00:00:00Z"}, {"$date": "2028-01-01T00:00:00Z"}]})",
      R"({"_id": 4, "a": null, "c": {"d": [1, {"e": 2}]}, "t": "not a date"})",
      R"({"_id": 5, "b": "Z", "a": {"$numberLong": "9007199254740993"}, "c": [{"d": 2}, {"d": 0}]})",
      R"({"_id": 6, "a": {"$numberDecimal": "1.5"}, "t": {"$date": "1969-12-31T23:59:59Z"}, "u": true})",
      R"({"_id": "s", "a": -1, "b": "", "c": [], "t": {"$date": "2027-01-15T08:00:00Z"}})",
      R"({"_id": {"o": 1}, "a": [], "b": {"$oid": "0123456789abcdef01234567"}, "t": {"$timestamp": {"t": 1, "i": 2}}})",
  };
  return *docs;
}

inline void InsertFuzzDocs(Collection& c) {
  for (const std::string& d : FuzzDocs()) {
    auto r = c.InsertOne(d);
    // A unique index created before may refuse a document; nothing else.
    FUZZ_CHECK(r.ok() || r.status().code() == absl::StatusCode::kAlreadyExists,
               r.status().ToString());
  }
}

// Validate must find every document's entries and nothing else.
inline void CheckValid(Collection& c, absl::string_view when) {
  auto v = c.Validate();
  FUZZ_CHECK(v.ok(), absl::StrCat(when, ": ", v.status().ToString()));
  const Value* valid = v->Get("valid");
  FUZZ_CHECK(valid != nullptr && valid->type() == ValueType::kBool &&
                 valid->bool_value(),
             absl::StrCat(when, ": ", ToJson(*v)));
}

// listIndexes, which must succeed.
inline std::vector<Value> ListSpecs(Collection& c) {
  auto specs = c.ListIndexes();
  FUZZ_CHECK(specs.ok(), specs.status().ToString());
  return *std::move(specs);
}

// The listIndexes output as one string (to compare before and after).
inline std::string IndexesJson(Collection& c) {
  auto specs = c.ListIndexes();
  FUZZ_CHECK(specs.ok(), specs.status().ToString());
  std::string out;
  for (const Value& s : *specs) absl::StrAppend(&out, ToJson(s), "\n");
  return out;
}

// Every document's storage JSON in _id order (to compare before and after).
inline std::string DocsJson(Collection& c) {
  FindOptions options;
  options.sort = *ParseDocument(R"({"_id": 1})");
  auto cursor = c.Find("{}", options);
  FUZZ_CHECK(cursor.ok(), cursor.status().ToString());
  std::string out;
  while (true) {
    auto next = (*cursor)->Next();
    FUZZ_CHECK(next.ok(), next.status().ToString());
    if (!next->has_value()) break;
    absl::StrAppend(&out, ToJson(**next, JsonFormat::kStorage), "\n");
  }
  return out;
}

// A failed call must say what is wrong.
inline void CheckError(const absl::Status& s) {
  FUZZ_CHECK(!s.message().empty(), s.ToString());
  FUZZ_CHECK(s.code() != absl::StatusCode::kInternal &&
                 s.code() != absl::StatusCode::kDataLoss &&
                 s.code() != absl::StatusCode::kUnknown,
             s.ToString());
}

}  // namespace ttldb

#endif  // TTLDB_FUZZ_FUZZ_DB_H_
