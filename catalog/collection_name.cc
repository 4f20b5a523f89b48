// ttldb/collection_name.h: the names a collection may have, a rule of the
// catalog (MongoDB's src/mongo/db/namespace_string.cpp
// NamespaceString::validCollectionName, with ttldb's additions).
#include "ttldb/collection_name.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/storable.h"

namespace ttldb {

absl::Status ValidateCollectionName(absl::string_view name) {
  auto bad = [&](absl::string_view why) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidNamespace,
        absl::StrCat("Invalid collection name '", name, "': ", why));
  };
  if (name.empty()) return bad("collection names cannot be empty");
  if (name.size() > 120) return bad("longer than 120 bytes");
  if (name.find('$') != absl::string_view::npos)
    return bad("collection names cannot contain '$'");
  if (name.find('\0') != absl::string_view::npos)
    return bad("collection names cannot contain the null character");
  if (name[0] == '.') return bad("collection names cannot start with '.'");
  // system.profile: the server's profiler writes it (commands/profiler.h);
  // system.users: the server's users (commands/user_store.h).
  if (absl::StartsWith(name, "system.") && name != "system.profile" &&
      name != "system.users")
    return bad("the 'system.' prefix is reserved");
  for (char c : name) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
      return bad(
          "collection names cannot contain quotes, backslashes or "
          "control characters");
  }
  if (!IsValidUtf8(name)) return bad("not valid UTF-8");
  return absl::OkStatus();
}

}  // namespace ttldb
