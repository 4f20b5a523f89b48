#include "remote/mongo_database.h"

#include <mongoc/mongoc.h>

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "remote/bson_doc.h"
#include "remote/mongo_change_stream.h"
#include "remote/mongo_status.h"
#include "remote/reply.h"

namespace ttldb {
namespace remote {
namespace {

Value StripCommandReply(Value reply) {
  if (!reply.is_object()) return reply;
  reply.Remove("$clusterTime");
  reply.Remove("operationTime");
  return reply;
}

int64_t IntAt(const Value* v) {
  return v != nullptr && v->is_number() ? static_cast<int64_t>(v->AsDouble())
                                        : 0;
}

}  // namespace

absl::StatusOr<std::unique_ptr<DatabaseBackend>> MongoDatabase::Open(
    absl::string_view uri, const Options& options) {
  // The extras that cannot be mapped (docs/migrating.md).
  const std::string where = "a MongoDB deployment (ttldb's //remote backend)";
  if (options.expiry_listener) {
    return BackendUnsupported(
        "Options::expiry_listener (use a change stream on the collection: "
        "TTL deletions are delete events)",
        where);
  }
  if (options.ttl_max_deletes_per_second != 0) {
    return BackendUnsupported("Options::ttl_max_deletes_per_second", where);
  }
  if (options.in_memory) {
    return BackendUnsupported("Options::in_memory", where);
  }
  if (options.read_only) {
    return BackendUnsupported(
        "Options::read_only (use a user with the read role)", where);
  }
  ASSIGN_OR_RETURN(std::shared_ptr<ClientPool> pool, ClientPool::Create(uri));
  auto context = std::make_shared<RemoteContext>();
  context->pool = pool;
  context->db_name =
      pool->uri_database().empty() ? options.db_name : pool->uri_database();
  context->hide_expired = options.hide_expired;
  context->touch_min_interval = options.touch_min_interval;
  context->clock = options.clock;
  std::unique_ptr<MongoDatabase> db(new MongoDatabase(context, options));
  // Fails fast (serverSelectionTimeoutMS, 30 s by default) when the
  // deployment cannot be reached, as Open fails on a bad directory.
  RETURN_IF_ERROR(
      db->Command("admin", Value::MakeObject({Field("ping", Value::Int32(1))}))
          .status());
  return std::unique_ptr<DatabaseBackend>(std::move(db));
}

MongoDatabase::MongoDatabase(std::shared_ptr<const RemoteContext> context,
                             const Options& options)
    : context_(std::move(context)),
      ttl_monitor_sleep_(options.ttl_monitor_sleep),
      ttl_monitor_enabled_(options.ttl_monitor_enabled),
      ttl_batch_docs_max_(options.ttl_batch_docs_max),
      ttl_batch_time_max_(options.ttl_batch_time_max),
      ttl_batch_deletes_(options.ttl_batch_deletes),
      ttl_sub_pass_target_(options.ttl_sub_pass_target) {}

absl::StatusOr<Value> MongoDatabase::Command(absl::string_view db,
                                             const Value& command) {
  ASSIGN_OR_RETURN(BsonDoc cmd, BsonDoc::From(command));
  ASSIGN_OR_RETURN(PooledClient client, PooledClient::Pop(context_->pool));
  Reply reply;
  bson_error_t error;
  const std::string db_name(db);
  if (!mongoc_client_command_with_opts(client.get(), db_name.c_str(), cmd.get(),
                                       nullptr, nullptr, reply.out(), &error)) {
    return StatusFromMongoc(error, reply.get(), context_->db_name);
  }
  ASSIGN_OR_RETURN(Value v, ToValue(reply.get()));
  return StripCommandReply(std::move(v));
}

absl::Status MongoDatabase::Close() {
  context_->pool->Close();
  return absl::OkStatus();
}

MongoCollection* MongoDatabase::backend(absl::string_view name) {
  collection(name);
  MutexLock lock(&mu_);
  return handles_.find(name)->second.backend.get();
}

Collection& MongoDatabase::collection(absl::string_view name) {
  MutexLock lock(&mu_);
  auto it = handles_.find(name);
  if (it == handles_.end()) {
    Handle h;
    h.backend = std::make_unique<MongoCollection>(context_, std::string(name));
    h.collection =
        std::make_unique<Collection>(h.backend.get(), std::string(name));
    it = handles_.emplace(std::string(name), std::move(h)).first;
  }
  return *it->second.collection;
}

absl::Status MongoDatabase::CreateCollection(
    absl::string_view name, const ValidationOptions* validation) {
  RETURN_IF_ERROR(ValidateCollectionName(name));
  // MongoDB 7.0+ answers ok to a create of an existing collection with the
  // same options; the public API promises 48 NamespaceExists, as the
  // engine's (doc_validation.cc) words it.
  ASSIGN_OR_RETURN(std::vector<std::string> names, ListCollectionNames());
  if (std::find(names.begin(), names.end(), name) != names.end()) {
    return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                      absl::StrCat("Collection ", name, " already exists."));
  }
  Value::Object cmd = {Field("create", Value::String(std::string(name)))};
  if (validation != nullptr) {
    if (!validation->validator.is_null()) {
      cmd.emplace_back("validator", validation->validator);
    }
    if (!validation->validation_level.empty()) {
      cmd.emplace_back("validationLevel",
                       Value::String(validation->validation_level));
    }
    if (!validation->validation_action.empty()) {
      cmd.emplace_back("validationAction",
                       Value::String(validation->validation_action));
    }
    // A capped collection: MongoDB's own create options.
    if (validation->capped_size.has_value()) {
      cmd.emplace_back("capped", Value::Bool(true));
      cmd.emplace_back("size", Value::Int64(*validation->capped_size));
    }
    if (validation->capped_max.has_value()) {
      cmd.emplace_back("max", Value::Int64(*validation->capped_max));
    }
    // The collection's default collation: MongoDB's own create option.
    if (!validation->collation.is_null()) {
      cmd.emplace_back("collation", validation->collation);
    }
  }
  return Command(context_->db_name, Value::MakeObject(std::move(cmd))).status();
}

absl::StatusOr<std::vector<std::string>> MongoDatabase::ListCollectionNames() {
  ASSIGN_OR_RETURN(
      Value r,
      Command(context_->db_name,
              Value::MakeObject({Field("listCollections", Value::Int32(1)),
                                 Field("nameOnly", Value::Bool(true))})));
  std::vector<std::string> names;
  const Value* cursor = r.Get("cursor");
  const Value* batch = cursor != nullptr && cursor->is_object()
                           ? cursor->Get("firstBatch")
                           : nullptr;
  if (batch != nullptr && batch->is_array()) {
    for (const Value& c : batch->array_items()) {
      const Value* n = c.is_object() ? c.Get("name") : nullptr;
      // MongoDB's own collections (system.views, system.profile...) are
      // not the application's, as the engine's list has none.
      if (n != nullptr && n->is_string() &&
          !absl::StartsWith(n->string_value(), "system.")) {
        names.push_back(n->string_value());
      }
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<bool> MongoDatabase::DropCollection(absl::string_view name) {
  RETURN_IF_ERROR(ValidateCollectionName(name));
  ASSIGN_OR_RETURN(std::vector<std::string> names, ListCollectionNames());
  const bool existed =
      std::find(names.begin(), names.end(), name) != names.end();
  backend(name)->InvalidateTtlRules();
  if (!existed) return false;
  absl::StatusOr<Value> r = Command(
      context_->db_name,
      Value::MakeObject({Field("drop", Value::String(std::string(name)))}));
  // MongoDB before 7.0 answers 26 for a collection dropped meanwhile.
  if (!r.ok() && ErrorCode(r.status()) != kNamespaceNotFound) {
    return r.status();
  }
  return r.ok();
}

absl::Status MongoDatabase::RenameCollection(absl::string_view from,
                                             absl::string_view to,
                                             bool drop_target) {
  RETURN_IF_ERROR(ValidateCollectionName(to));
  backend(from)->InvalidateTtlRules();
  backend(to)->InvalidateTtlRules();
  return Command(
             "admin",
             Value::MakeObject(
                 {Field("renameCollection", Value::String(absl::StrCat(
                                                context_->db_name, ".", from))),
                  Field("to", Value::String(
                                  absl::StrCat(context_->db_name, ".", to))),
                  Field("dropTarget", Value::Bool(drop_target))}))
      .status();
}

absl::StatusOr<Value> MongoDatabase::Stats(int64_t scale,
                                           absl::string_view db_name) {
  (void)db_name;  // the deployment names its database itself
  return Command(context_->db_name,
                 Value::MakeObject({Field("dbStats", Value::Int32(1)),
                                    Field("scale", Value::Int64(scale))}));
}

absl::StatusOr<std::unique_ptr<ChangeStream>> MongoDatabase::Watch(
    const ChangeStreamOptions& options) {
  return OpenMongoChangeStream(context_, "", options);
}

absl::Status MongoDatabase::SyncLog() {
  return Command("admin", Value::MakeObject({Field("fsync", Value::Int32(1))}))
      .status();
}

absl::Status MongoDatabase::SetParameter(absl::string_view name, Value value) {
  return Command("admin", Value::MakeObject(
                              {Field("setParameter", Value::Int32(1)),
                               Field(std::string(name), std::move(value))}))
      .status();
}

absl::Status MongoDatabase::SetTtlMonitorSleep(absl::Duration sleep) {
  RETURN_IF_ERROR(SetParameter("ttlMonitorSleepSecs",
                               Value::Int64(absl::ToInt64Seconds(sleep))));
  MutexLock lock(&params_mu_);
  ttl_monitor_sleep_ = sleep;
  return absl::OkStatus();
}

absl::Status MongoDatabase::SetTtlMonitorEnabled(bool enabled) {
  RETURN_IF_ERROR(SetParameter("ttlMonitorEnabled", Value::Bool(enabled)));
  MutexLock lock(&params_mu_);
  ttl_monitor_enabled_ = enabled;
  return absl::OkStatus();
}

absl::Status MongoDatabase::SetTtlBatchDocsMax(int64_t docs) {
  RETURN_IF_ERROR(SetParameter("ttlIndexDeleteTargetDocs", Value::Int64(docs)));
  MutexLock lock(&params_mu_);
  ttl_batch_docs_max_ = docs;
  return absl::OkStatus();
}

absl::Status MongoDatabase::SetTtlBatchTimeMax(absl::Duration time) {
  RETURN_IF_ERROR(SetParameter("ttlIndexDeleteTargetTimeMS",
                               Value::Int64(absl::ToInt64Milliseconds(time))));
  MutexLock lock(&params_mu_);
  ttl_batch_time_max_ = time;
  return absl::OkStatus();
}

absl::Status MongoDatabase::SetTtlBatchDeletes(bool batch_deletes) {
  RETURN_IF_ERROR(
      SetParameter("ttlMonitorBatchDeletes", Value::Bool(batch_deletes)));
  MutexLock lock(&params_mu_);
  ttl_batch_deletes_ = batch_deletes;
  return absl::OkStatus();
}

absl::Status MongoDatabase::SetTtlSubPassTarget(absl::Duration target) {
  RETURN_IF_ERROR(SetParameter("ttlMonitorSubPassTargetSecs",
                               Value::Int64(absl::ToInt64Seconds(target))));
  MutexLock lock(&params_mu_);
  ttl_sub_pass_target_ = target;
  return absl::OkStatus();
}

absl::Duration MongoDatabase::ttl_monitor_sleep() const {
  MutexLock lock(&params_mu_);
  return ttl_monitor_sleep_;
}
bool MongoDatabase::ttl_monitor_enabled() const {
  MutexLock lock(&params_mu_);
  return ttl_monitor_enabled_;
}
int64_t MongoDatabase::ttl_batch_docs_max() const {
  MutexLock lock(&params_mu_);
  return ttl_batch_docs_max_;
}
absl::Duration MongoDatabase::ttl_batch_time_max() const {
  MutexLock lock(&params_mu_);
  return ttl_batch_time_max_;
}
bool MongoDatabase::ttl_batch_deletes() const {
  MutexLock lock(&params_mu_);
  return ttl_batch_deletes_;
}
absl::Duration MongoDatabase::ttl_sub_pass_target() const {
  MutexLock lock(&params_mu_);
  return ttl_sub_pass_target_;
}

TtlMetrics MongoDatabase::GetTtlMetrics() {
  // serverStatus' metrics.ttl: {passes, subPasses, deletedDocuments}, what
  // MongoDB counts; the rest stays 0.
  TtlMetrics m;
  absl::StatusOr<Value> status = Command(
      "admin", Value::MakeObject({Field("serverStatus", Value::Int32(1))}));
  if (!status.ok()) return m;
  const Value* metrics = status->Get("metrics");
  const Value* ttl = metrics != nullptr && metrics->is_object()
                         ? metrics->Get("ttl")
                         : nullptr;
  if (ttl == nullptr || !ttl->is_object()) return m;
  m.passes = IntAt(ttl->Get("passes"));
  m.sub_passes = IntAt(ttl->Get("subPasses"));
  m.deleted_documents = IntAt(ttl->Get("deletedDocuments"));
  return m;
}

Value MongoDatabase::ServerStatus() {
  absl::StatusOr<Value> status = Command(
      "admin", Value::MakeObject({Field("serverStatus", Value::Int32(1))}));
  if (status.ok()) return *status;
  return Value::MakeObject(
      {Field("ok", Value::Int32(0)),
       Field("errmsg", Value::String(std::string(status.status().message()))),
       Field("code", Value::Int32(ErrorCode(status.status())))});
}

}  // namespace remote
}  // namespace ttldb
