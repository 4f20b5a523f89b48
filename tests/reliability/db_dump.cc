#include "tests/reliability/db_dump.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "ttldb/json.h"

namespace ttldb {

absl::StatusOr<std::string> DumpDatabase(Database& db) {
  std::string out;
  ASSIGN_OR_RETURN(std::vector<std::string> names, db.ListCollectionNames());
  for (const std::string& name : names) {
    Collection& c = db.collection(name);
    absl::StrAppend(&out, "collection ", name, "\n");
    ASSIGN_OR_RETURN(std::vector<Value> indexes, c.ListIndexes());
    for (const Value& index : indexes) {
      absl::StrAppend(&out, "  index ", ToJson(index, JsonFormat::kCanonical),
                      "\n");
    }
    FindOptions options;
    options.sort = Value::MakeObject({Field("_id", Value::Int32(1))});
    ASSIGN_OR_RETURN(auto cursor, c.Find("{}", options));
    ASSIGN_OR_RETURN(std::vector<Value> docs, cursor->ToVector());
    for (const Value& doc : docs) {
      absl::StrAppend(&out, "  ", ToJson(doc, JsonFormat::kCanonical), "\n");
    }
  }
  return out;
}

absl::Status ValidateAll(Database& db) {
  ASSIGN_OR_RETURN(std::vector<std::string> names, db.ListCollectionNames());
  for (const std::string& name : names) {
    ASSIGN_OR_RETURN(Value report, db.collection(name).Validate());
    const Value* valid = report.Get("valid");
    if (valid == nullptr || valid->type() != ValueType::kBool ||
        !valid->bool_value()) {
      return absl::InternalError(
          absl::StrCat("collection ", name, " is invalid: ", ToJson(report)));
    }
  }
  return absl::OkStatus();
}

}  // namespace ttldb
