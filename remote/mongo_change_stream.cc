#include "remote/mongo_change_stream.h"

#include <mongoc/mongoc.h>

#include <atomic>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/status.h"
#include "remote/bson_doc.h"
#include "remote/client_pool.h"
#include "remote/mongo_status.h"

namespace ttldb {
namespace remote {
namespace {

// 200 ms: the server-side wait of each getMore (maxAwaitTimeMS), so the
// longest a Next waits past its timeout when nothing comes, and the period
// of the getMores of an idle stream (5 a second) while a Next waits.
constexpr absl::Duration kMaxAwait = absl::Milliseconds(200);

class MongoChangeStream : public ChangeStream {
 public:
  MongoChangeStream(std::shared_ptr<ClientPool> pool, mongoc_client_t* client,
                    mongoc_change_stream_t* stream, std::string ns)
      : pool_(std::move(pool)),
        client_(client),
        stream_(stream),
        ns_(std::move(ns)) {}
  ~MongoChangeStream() override {
    if (stream_ != nullptr) mongoc_change_stream_destroy(stream_);
    if (client_ != nullptr) mongoc_client_pool_push(pool_->pool(), client_);
  }

  // The error the $changeStream aggregate got, if any (after creation).
  absl::Status Error() const {
    bson_error_t error;
    const bson_t* reply = nullptr;
    if (mongoc_change_stream_error_document(stream_, &error, &reply)) {
      return StatusFromMongoc(error, reply, ns_);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<Value>> Next(absl::Duration timeout) override {
    const absl::Time deadline = absl::Now() + timeout;
    while (true) {
      if (pool_->closed()) {
        return absl::FailedPreconditionError("database is closed");
      }
      const bson_t* doc = nullptr;
      if (mongoc_change_stream_next(stream_, &doc)) {
        ASSIGN_OR_RETURN(Value event, ToValue(doc));
        const Value* type = event.Get("operationType");
        if (type != nullptr && type->is_string() &&
            type->string_value() == "invalidate") {
          invalidated_ = true;
        }
        return std::optional<Value>(std::move(event));
      }
      RETURN_IF_ERROR(Error());
      if (interrupted_.load() || absl::Now() >= deadline) {
        return std::optional<Value>();
      }
    }
  }

  Value ResumeToken() const override {
    const bson_t* token = mongoc_change_stream_get_resume_token(stream_);
    if (token == nullptr) return Value::Null();
    absl::StatusOr<Value> v = ToValue(token);
    return v.ok() ? *std::move(v) : Value::Null();
  }

  bool Invalidated() const override { return invalidated_; }

  // A waiting Next returns after its getMore (within kMaxAwait); later
  // ones make one getMore each, so what is committed still comes.
  void Interrupt() override { interrupted_.store(true); }
  bool Interrupted() const override { return interrupted_.load(); }

 private:
  const std::shared_ptr<ClientPool> pool_;
  mongoc_client_t* const client_;
  mongoc_change_stream_t* const stream_;
  const std::string ns_;
  bool invalidated_ = false;
  std::atomic<bool> interrupted_{false};
};

}  // namespace

absl::StatusOr<std::unique_ptr<ChangeStream>> OpenMongoChangeStream(
    const std::shared_ptr<const RemoteContext>& context,
    const std::string& coll, const ChangeStreamOptions& options) {
  // MongoDB's $changeStream options, named as the embedded engine's
  // (ChangeStreamOptions mirrors document_source_change_stream.idl).
  Value::Object o = {Field("maxAwaitTimeMS",
                           Value::Int64(absl::ToInt64Milliseconds(kMaxAwait)))};
  if (options.resume_after.has_value()) {
    o.emplace_back("resumeAfter", *options.resume_after);
  }
  if (options.start_after.has_value()) {
    o.emplace_back("startAfter", *options.start_after);
  }
  if (options.start_at_operation_time.has_value()) {
    o.emplace_back("startAtOperationTime",
                   Value::Ts(*options.start_at_operation_time));
  }
  if (options.full_document != "default") {
    o.emplace_back("fullDocument", Value::String(options.full_document));
  }
  if (options.full_document_before_change != "off") {
    o.emplace_back("fullDocumentBeforeChange",
                   Value::String(options.full_document_before_change));
  }
  if (options.show_expanded_events) {
    o.emplace_back("showExpandedEvents", Value::Bool(true));
  }
  Value stages = options.pipeline;
  if (stages.is_null()) stages = Value::MakeArray({});
  if (!stages.is_array()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      "a change stream's pipeline must be an array");
  }
  ASSIGN_OR_RETURN(
      BsonDoc pipeline,
      BsonDoc::From(Value::MakeObject({Field("pipeline", std::move(stages))})));
  ASSIGN_OR_RETURN(BsonDoc opts,
                   BsonDoc::From(Value::MakeObject(std::move(o))));
  ASSIGN_OR_RETURN(PooledClient client, PooledClient::Pop(context->pool));
  mongoc_change_stream_t* stream;
  if (coll.empty()) {
    mongoc_database_t* db =
        mongoc_client_get_database(client.get(), context->db_name.c_str());
    stream = mongoc_database_watch(db, pipeline.get(), opts.get());
    mongoc_database_destroy(db);
  } else {
    mongoc_collection_t* c = mongoc_client_get_collection(
        client.get(), context->db_name.c_str(), coll.c_str());
    stream = mongoc_collection_watch(c, pipeline.get(), opts.get());
    mongoc_collection_destroy(c);
  }
  auto out = std::make_unique<MongoChangeStream>(
      context->pool, client.Release(), stream,
      coll.empty() ? context->db_name
                   : absl::StrCat(context->db_name, ".", coll));
  RETURN_IF_ERROR(out->Error());
  return std::unique_ptr<ChangeStream>(std::move(out));
}

}  // namespace remote
}  // namespace ttldb
