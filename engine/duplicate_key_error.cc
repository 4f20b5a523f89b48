#include "ttldb/duplicate_key_error.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// The payload: {keyPattern, keyValue} in the lossless storage JSON.
constexpr char kDupKeyUrl[] = "ttldb.duplicate_key_info";

// "{ a: 1, b: "x" }": MongoDB prints the dup key with unquoted field names.
std::string DupKeyText(const Value& key_value) {
  std::string out = "{ ";
  bool first = true;
  for (const auto& [field, v] : key_value.object_fields()) {
    if (!first) out += ", ";
    first = false;
    absl::StrAppend(&out, field, ": ", ToJson(v));
  }
  return out + " }";
}

}  // namespace

absl::Status DuplicateKeyError(absl::string_view ns,
                               absl::string_view index_name,
                               const DuplicateKeyInfo& info,
                               absl::string_view prefix) {
  absl::Status s = MongoError(
      absl::StatusCode::kAlreadyExists, kDuplicateKey,
      absl::StrCat(prefix, "E11000 duplicate key error collection: ", ns,
                   " index: ", index_name,
                   " dup key: ", DupKeyText(info.key_value)));
  Value payload = Value::MakeObject(
      {{"keyPattern", info.key_pattern}, {"keyValue", info.key_value}});
  s.SetPayload(kDupKeyUrl, absl::Cord(ToJson(payload, JsonFormat::kStorage)));
  return s;
}

std::optional<DuplicateKeyInfo> GetDuplicateKeyInfo(
    const absl::Status& status) {
  auto payload = status.GetPayload(kDupKeyUrl);
  if (!payload.has_value()) return std::nullopt;
  absl::StatusOr<Value> parsed =
      ParseDocument(std::string(*payload), StoredJsonParseOptions());
  if (!parsed.ok()) return std::nullopt;
  const Value* pattern = parsed->Get("keyPattern");
  const Value* value = parsed->Get("keyValue");
  if (pattern == nullptr || value == nullptr) return std::nullopt;
  return DuplicateKeyInfo{*pattern, *value};
}

}  // namespace ttldb
