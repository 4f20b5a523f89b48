#include "ttldb/database.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/backend.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "storage/leveldb_status.h"

namespace ttldb {

Database::Database(std::unique_ptr<DbImpl> engine)
    : engine_(std::move(engine)) {}

Database::Database(std::unique_ptr<DatabaseBackend> backend)
    : backend_(std::move(backend)) {}

// engine/backend.cc: the registered opener of mongodb:// URIs.
absl::StatusOr<std::unique_ptr<DatabaseBackend>> OpenMongoBackend(
    absl::string_view uri, const Options& options);

Database::~Database() { Close().IgnoreError(); }

absl::StatusOr<std::unique_ptr<Database>> Database::Open(
    absl::string_view path, const Options& options) {
  if (IsMongoUri(path)) {
    ASSIGN_OR_RETURN(std::unique_ptr<DatabaseBackend> backend,
                     OpenMongoBackend(path, options));
    return std::unique_ptr<Database>(new Database(std::move(backend)));
  }
  return DatabaseInternal::Open(path, options, TestingOptions());
}

absl::StatusOr<std::unique_ptr<Database>> DatabaseInternal::Open(
    absl::string_view path, const Options& options,
    const TestingOptions& testing) {
  leveldb::Env* env =
      testing.env != nullptr ? testing.env : leveldb::Env::Default();
  ASSIGN_OR_RETURN(std::unique_ptr<DbImpl> engine,
                   DbImpl::Open(path, options, env));
  return std::unique_ptr<Database>(new Database(std::move(engine)));
}

absl::Status Database::Close() {
  if (backend_ != nullptr) return backend_->Close();
  return engine_->Close();
}

absl::Status Database::SyncLog() {
  if (backend_ != nullptr) return backend_->SyncLog();
  RETURN_IF_ERROR(engine_->CheckOpen());
  if (engine_->options().read_only) return absl::OkStatus();
  leveldb::WriteOptions sync;
  sync.sync = true;
  leveldb::WriteBatch empty;
  leveldb::Status s = engine_->db()->Write(sync, &empty);
  return storage::FromLevelDB(s, "fsync");
}

Collection& Database::collection(absl::string_view name) {
  if (backend_ != nullptr) return backend_->collection(name);
  return engine_->collection(name);
}

absl::Status Database::CreateCollection(absl::string_view name) {
  if (backend_ != nullptr) return backend_->CreateCollection(name, nullptr);
  return engine_->CreateCollection(name, /*must_not_exist=*/true);
}

absl::Status Database::CreateCollection(absl::string_view name,
                                        const ValidationOptions& validation) {
  if (backend_ != nullptr) return backend_->CreateCollection(name, &validation);
  return engine_->CreateCollection(name, /*must_not_exist=*/true, validation);
}

absl::StatusOr<std::vector<std::string>> Database::ListCollectionNames() {
  if (backend_ != nullptr) return backend_->ListCollectionNames();
  return engine_->ListCollectionNames();
}

std::map<std::string, std::string> Database::CatalogDamage() {
  if (backend_ != nullptr) return backend_->CatalogDamage();
  return engine_->CatalogDamage();
}

namespace {

absl::StatusOr<Value> PipelineArg(const DocArg& pipeline) {
  absl::StatusOr<Value> v = pipeline.ResolveAny();
  if (!v.ok()) {
    return MongoError(v.status().code(), ErrorCode(v.status()),
                      absl::StrCat("invalid pipeline: ", v.status().message()));
  }
  return v;
}

absl::Status NoViewsRemote() {
  return MongoError(absl::StatusCode::kUnimplemented, kCommandNotSupported,
                    "views are not supported through the MongoDB backend "
                    "yet: use the deployment's create command");
}

}  // namespace

absl::Status Database::CreateView(absl::string_view name,
                                  absl::string_view view_on,
                                  const DocArg& pipeline) {
  if (backend_ != nullptr) return NoViewsRemote();
  ASSIGN_OR_RETURN(Value p, PipelineArg(pipeline));
  return engine_->CreateView(name, view_on, p);
}

absl::Status Database::ModifyView(absl::string_view name,
                                  absl::string_view view_on,
                                  const DocArg& pipeline) {
  if (backend_ != nullptr) return NoViewsRemote();
  ASSIGN_OR_RETURN(Value p, PipelineArg(pipeline));
  return engine_->ModifyView(name, view_on, p);
}

absl::StatusOr<std::vector<ViewDefinition>> Database::ListViews() {
  if (backend_ != nullptr) return std::vector<ViewDefinition>();
  RETURN_IF_ERROR(engine_->CheckOpen());
  return engine_->ListViews();
}

absl::StatusOr<bool> Database::DropCollection(absl::string_view name) {
  if (backend_ != nullptr) return backend_->DropCollection(name);
  return engine_->DropCollection(name);
}

absl::Status Database::RenameCollection(absl::string_view from,
                                        absl::string_view to,
                                        bool drop_target) {
  if (backend_ != nullptr) {
    return backend_->RenameCollection(from, to, drop_target);
  }
  return engine_->RenameCollection(from, to, drop_target);
}

absl::Status Database::SetTtlMonitorSleep(absl::Duration sleep) {
  if (backend_ != nullptr) return backend_->SetTtlMonitorSleep(sleep);
  return engine_->monitor()->SetSleep(sleep);
}

absl::Status Database::SetTtlMonitorEnabled(bool enabled) {
  if (backend_ != nullptr) return backend_->SetTtlMonitorEnabled(enabled);
  engine_->monitor()->SetEnabled(enabled);
  return absl::OkStatus();
}

absl::Duration Database::ttl_monitor_sleep() const {
  if (backend_ != nullptr) return backend_->ttl_monitor_sleep();
  return engine_->monitor()->sleep();
}

bool Database::ttl_monitor_enabled() const {
  if (backend_ != nullptr) return backend_->ttl_monitor_enabled();
  return engine_->monitor()->enabled();
}

absl::Status Database::SetTtlBatchDocsMax(int64_t docs) {
  if (backend_ != nullptr) return backend_->SetTtlBatchDocsMax(docs);
  return engine_->monitor()->SetBatchDocsMax(docs);
}

absl::Status Database::SetTtlBatchTimeMax(absl::Duration time) {
  if (backend_ != nullptr) return backend_->SetTtlBatchTimeMax(time);
  return engine_->monitor()->SetBatchTimeMax(time);
}

absl::Status Database::SetTtlBatchDeletes(bool batch_deletes) {
  if (backend_ != nullptr) return backend_->SetTtlBatchDeletes(batch_deletes);
  engine_->monitor()->SetBatchDeletes(batch_deletes);
  return absl::OkStatus();
}

absl::Status Database::SetTtlSubPassTarget(absl::Duration target) {
  if (backend_ != nullptr) return backend_->SetTtlSubPassTarget(target);
  return engine_->monitor()->SetSubPassTarget(target);
}

int64_t Database::ttl_batch_docs_max() const {
  if (backend_ != nullptr) return backend_->ttl_batch_docs_max();
  return engine_->monitor()->batch_docs_max();
}

absl::Duration Database::ttl_batch_time_max() const {
  if (backend_ != nullptr) return backend_->ttl_batch_time_max();
  return engine_->monitor()->batch_time_max();
}

bool Database::ttl_batch_deletes() const {
  if (backend_ != nullptr) return backend_->ttl_batch_deletes();
  return engine_->monitor()->batch_deletes();
}

absl::Duration Database::ttl_sub_pass_target() const {
  if (backend_ != nullptr) return backend_->ttl_sub_pass_target();
  return engine_->monitor()->sub_pass_target();
}

TtlMetrics Database::GetTtlMetrics() {
  if (backend_ != nullptr) return backend_->GetTtlMetrics();
  return engine_->monitor()->metrics();
}

Value Database::ServerStatus() {
  if (backend_ != nullptr) return backend_->ServerStatus();
  TtlMetrics m = GetTtlMetrics();
  const absl::Time now = engine_->clock()->WallNow();
  Value::Object ttl = {
      Field("passes", Value::Int64(m.passes)),
      Field("subPasses", Value::Int64(m.sub_passes)),
      Field("deletedDocuments", Value::Int64(m.deleted_documents)),
      Field("deletedKeys", Value::Int64(m.deleted_keys)),
      Field("examinedKeys", Value::Int64(m.examined_keys)),
      Field("examinedDocuments", Value::Int64(m.examined_documents)),
      Field("durationMicros",
            Value::Int64(absl::ToInt64Microseconds(m.total_duration))),
      Field("invalidTTLIndexSkips", Value::Int64(m.invalid_ttl_index_skips)),
      Field("failedBatches", Value::Int64(m.failed_batches)),
      Field("deletedByWrites", Value::Int64(m.deleted_by_writes)),
      Field("lastPassMillis",
            Value::Int64(absl::ToInt64Milliseconds(m.last_pass_duration))),
  };
  if (m.oldest_expired_present.has_value()) {
    ttl.emplace_back(
        "oldestExpiredPresent",
        Value::Date(absl::ToUnixMillis(*m.oldest_expired_present)));
    ttl.emplace_back("lagMillis", Value::Int64(absl::ToInt64Milliseconds(
                                      now - *m.oldest_expired_present)));
  }
  return Value::MakeObject({
      Field("localTime", Value::Date(absl::ToUnixMillis(now))),
      Field("ttlMonitorEnabled", Value::Bool(ttl_monitor_enabled())),
      Field("ttlMonitorSleepSecs",
            Value::Int64(absl::ToInt64Seconds(ttl_monitor_sleep()))),
      Field("metrics", Value::MakeObject(
                           {Field("ttl", Value::MakeObject(std::move(ttl)))})),
      Field("ok", Value::Int32(1)),
  });
}

}  // namespace ttldb
