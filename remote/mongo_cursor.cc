#include "remote/mongo_cursor.h"

#include <mongoc/mongoc.h>

#include <utility>

#include "remote/bson_doc.h"
#include "remote/mongo_status.h"

namespace ttldb {
namespace remote {

MongoCursor::MongoCursor(std::shared_ptr<ClientPool> pool,
                         mongoc_client_t* client, mongoc_cursor_t* cursor,
                         std::string ns)
    : pool_(std::move(pool)),
      client_(client),
      cursor_(cursor),
      ns_(std::move(ns)) {}

MongoCursor::~MongoCursor() { Release(); }

void MongoCursor::Release() {
  if (cursor_ != nullptr) {
    mongoc_cursor_destroy(cursor_);  // kills the server's cursor if open
    cursor_ = nullptr;
  }
  if (client_ != nullptr) {
    mongoc_client_pool_push(pool_->pool(), client_);
    client_ = nullptr;
  }
}

absl::Status MongoCursor::Prime() {
  absl::StatusOr<std::optional<Value>> first = Next();
  if (!first.ok()) return first.status();
  primed_ = std::move(*first);
  return absl::OkStatus();
}

absl::StatusOr<std::optional<Value>> MongoCursor::Next() {
  if (!done_ && pool_->closed()) {
    done_ = true;
    primed_.reset();
    final_status_ = absl::FailedPreconditionError("database is closed");
    Release();
  }
  if (primed_.has_value()) {
    std::optional<Value> doc = std::move(primed_);
    primed_.reset();
    return doc;
  }
  if (done_) {
    if (!final_status_.ok()) return final_status_;
    return std::optional<Value>();
  }
  const bson_t* doc = nullptr;
  if (mongoc_cursor_next(cursor_, &doc)) {
    absl::StatusOr<Value> v = ToValue(doc);
    if (!v.ok()) {
      done_ = true;
      final_status_ = v.status();
      Release();
      return final_status_;
    }
    return std::optional<Value>(std::move(*v));
  }
  bson_error_t error;
  const bson_t* reply = nullptr;
  done_ = true;
  if (mongoc_cursor_error_document(cursor_, &error, &reply)) {
    final_status_ = StatusFromMongoc(error, reply, ns_);
  }
  Release();
  if (!final_status_.ok()) return final_status_;
  return std::optional<Value>();
}

}  // namespace remote
}  // namespace ttldb
