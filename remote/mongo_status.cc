#include "remote/mongo_status.h"

#include <mongoc/mongoc.h>

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "remote/bson_doc.h"
#include "ttldb/duplicate_key_error.h"

namespace ttldb {
namespace remote {
namespace {

int64_t IntField(const Value& doc, absl::string_view name) {
  const Value* v = doc.is_object() ? doc.Get(name) : nullptr;
  if (v == nullptr || !v->is_number()) return 0;
  return static_cast<int64_t>(v->AsDouble());
}

std::string StringField(const Value& doc, absl::string_view name) {
  const Value* v = doc.is_object() ? doc.Get(name) : nullptr;
  return v != nullptr && v->is_string() ? v->string_value() : std::string();
}

// The index name in "E11000 duplicate key error collection: test.c index:
// a_1 dup key: { a: 1 }" (MongoDB's and ttldb's wording).
std::string DupKeyIndexName(absl::string_view errmsg) {
  constexpr absl::string_view kIndex = " index: ";
  constexpr absl::string_view kDupKey = " dup key: ";
  size_t start = errmsg.find(kIndex);
  if (start == absl::string_view::npos) return "";
  start += kIndex.size();
  size_t end = errmsg.find(kDupKey, start);
  if (end == absl::string_view::npos) end = errmsg.size();
  return std::string(errmsg.substr(start, end - start));
}

}  // namespace

absl::StatusCode KindOfMongoCode(int code) {
  switch (code) {
    case kDuplicateKey:
    case kNamespaceExists:
    case kIndexOptionsConflict:
    case kIndexKeySpecsConflict:
      return absl::StatusCode::kAlreadyExists;
    case kNamespaceNotFound:
    case kIndexNotFound:
    case kCursorNotFound:
    case kUserNotFound:
      return absl::StatusCode::kNotFound;
    case kCommandNotSupported:
    case kNotImplemented:
      return absl::StatusCode::kUnimplemented;
    case kUnauthorized:
      return absl::StatusCode::kPermissionDenied;
    case kAuthenticationFailed:
      return absl::StatusCode::kUnauthenticated;
    case kMaxTimeMSExpired:
    case kNetworkTimeout:
      return absl::StatusCode::kDeadlineExceeded;
    case kShutdownInProgress:
    case kHostUnreachable:
      return absl::StatusCode::kUnavailable;
    case kInterrupted:
    case kInterruptedAtShutdown:
    case kIndexBuildAborted:
      return absl::StatusCode::kAborted;
    case kDataCorruptionDetected:
      return absl::StatusCode::kDataLoss;
    case kQueryExceededMemoryLimitNoDiskUseAllowed:
    case kExceededMemoryLimit:
    case kOutOfDiskSpace:
    case kTooManyFilesOpen:
      return absl::StatusCode::kResourceExhausted;
    case kCursorInUse:
    case kNotAReplicaSet:
      return absl::StatusCode::kFailedPrecondition;
    case kInternalError:
      return absl::StatusCode::kInternal;
    default:
      return absl::StatusCode::kInvalidArgument;
  }
}

absl::Status StatusFromErrorDocument(const Value& error, absl::string_view ns) {
  const int code = static_cast<int>(IntField(error, "code"));
  const std::string errmsg = StringField(error, "errmsg");
  if (code == kDuplicateKey) {
    DuplicateKeyInfo info;
    if (const Value* p = error.Get("keyPattern"); p != nullptr) {
      info.key_pattern = *p;
    }
    if (const Value* v = error.Get("keyValue"); v != nullptr) {
      info.key_value = *v;
    }
    if (info.key_pattern.is_object() && info.key_value.is_object() &&
        absl::StrContains(errmsg, "E11000 duplicate key error collection: ")) {
      return DuplicateKeyError(ns, DupKeyIndexName(errmsg), info);
    }
  }
  return MongoError(KindOfMongoCode(code), code,
                    errmsg.empty() ? "command failed" : errmsg);
}

absl::Status StatusFromMongoc(const bson_error_t& error, const bson_t* reply,
                              absl::string_view ns) {
  if (reply != nullptr && reply->len > 5) {
    absl::StatusOr<Value> r = ToValue(reply);
    if (r.ok() && r->is_object()) {
      const Value* errors = r->Get("writeErrors");
      if (errors != nullptr && errors->is_array() &&
          !errors->array_items().empty()) {
        return StatusFromErrorDocument(errors->array_items()[0], ns);
      }
      const Value* wce = r->Get("writeConcernError");
      if (wce != nullptr && wce->is_object()) {
        return StatusFromErrorDocument(*wce, ns);
      }
      // A command's own error reply {ok: 0, code, errmsg, keyPattern...}.
      if (IntField(*r, "code") != 0 && r->Get("errmsg") != nullptr) {
        return StatusFromErrorDocument(*r, ns);
      }
    }
  }
  switch (error.domain) {
    case MONGOC_ERROR_SERVER:
    case MONGOC_ERROR_WRITE_CONCERN:
      return MongoError(KindOfMongoCode(static_cast<int>(error.code)),
                        static_cast<int>(error.code), error.message);
    case MONGOC_ERROR_STREAM:
    case MONGOC_ERROR_SERVER_SELECTION: {
      const bool timeout = error.code == MONGOC_ERROR_STREAM_SOCKET &&
                           absl::StrContains(error.message, "timed out");
      const int code = timeout ? kNetworkTimeout : kHostUnreachable;
      return MongoError(KindOfMongoCode(code), code, error.message);
    }
    default:
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        error.message);
  }
}

}  // namespace remote
}  // namespace ttldb
