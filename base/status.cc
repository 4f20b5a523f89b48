#include "base/status.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace ttldb {
namespace {
constexpr char kCodeUrl[] = "ttldb.mongo_code";
}  // namespace

std::string MongoCodeName(int code) {
  switch (code) {
    case 0:
      return "OK";
#define TTLDB_MONGO_CODE_NAME_(name, code) \
  case code:                               \
    return #name;
      TTLDB_MONGO_ERROR_CODES(TTLDB_MONGO_CODE_NAME_)
#undef TTLDB_MONGO_CODE_NAME_
  }
  return absl::StrCat("Location", code);
}

absl::Status MongoError(absl::StatusCode kind, int mongo_code,
                        absl::string_view message) {
  absl::Status s(kind, message);
  s.SetPayload(kCodeUrl, absl::Cord(std::to_string(mongo_code)));
  return s;
}

absl::Status MongoInvalidArgument(int mongo_code, absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument, mongo_code, message);
}

int ErrorCode(const absl::Status& status) {
  auto payload = status.GetPayload(kCodeUrl);
  if (!payload.has_value()) return 0;
  int code = 0;
  if (!absl::SimpleAtoi(std::string(*payload), &code)) return 0;
  return code;
}

}  // namespace ttldb
