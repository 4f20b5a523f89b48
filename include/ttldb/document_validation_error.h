// MongoDB's document validation error (code 121 DocumentValidationFailure)
// with its extra information, as src/mongo/db/matcher/doc_validation_error.h
// has it since MongoDB 5.0: the message "Document failed validation", and
// errInfo {failingDocumentId: <_id>, details: {operatorName, ...}}, which
// the command layer adds to the write error (or the command's error reply)
// as the field errInfo, after code and before errmsg.
#ifndef TTLDB_DOCUMENT_VALIDATION_ERROR_H_
#define TTLDB_DOCUMENT_VALIDATION_ERROR_H_

#include <optional>

#include "absl/status/status.h"
#include "ttldb/value.h"

namespace ttldb {

// InvalidArgument with MongoDB code 121 and errInfo `err_info`.
absl::Status DocumentValidationError(const Value& err_info);

// The errInfo a status made by DocumentValidationError carries, or nullopt.
std::optional<Value> GetDocumentValidationErrInfo(const absl::Status& status);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_VALIDATION_ERROR_H_
