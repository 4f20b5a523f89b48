#include "ttldb/document_validation_error.h"

#include <string>

#include "absl/strings/cord.h"
#include "base/status.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// The payload: errInfo in the lossless storage JSON.
constexpr char kErrInfoUrl[] = "ttldb.document_validation_err_info";

}  // namespace

absl::Status DocumentValidationError(const Value& err_info) {
  absl::Status s =
      MongoError(absl::StatusCode::kInvalidArgument, kDocumentValidationFailure,
                 "Document failed validation");
  s.SetPayload(kErrInfoUrl, absl::Cord(ToJson(err_info, JsonFormat::kStorage)));
  return s;
}

std::optional<Value> GetDocumentValidationErrInfo(const absl::Status& status) {
  auto payload = status.GetPayload(kErrInfoUrl);
  if (!payload.has_value()) return std::nullopt;
  absl::StatusOr<Value> parsed =
      ParseDocument(std::string(*payload), StoredJsonParseOptions());
  if (!parsed.ok()) return std::nullopt;
  return *std::move(parsed);
}

}  // namespace ttldb
