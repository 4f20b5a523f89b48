// Database's operations on one database of a MongoDB deployment, through a
// libmongoc client pool: what Database::Open("mongodb://...") returns when
// //remote:remote is linked. Internal to //remote.
#ifndef TTLDB_REMOTE_MONGO_DATABASE_H_
#define TTLDB_REMOTE_MONGO_DATABASE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "base/mutex.h"
#include "engine/backend.h"
#include "remote/mongo_collection.h"
#include "remote/remote_context.h"

namespace ttldb {
namespace remote {

class MongoDatabase : public DatabaseBackend {
 public:
  // Parses the URI, makes the pool and pings the deployment. Refuses, with
  // Unimplemented (115) naming the extra, the Options that have no MongoDB
  // counterpart: expiry_listener, ttl_max_deletes_per_second, in_memory,
  // read_only. The monitor's tuning options (ttl_monitor_*, ttl_batch_*)
  // are the deployment's server parameters: not set at Open (that needs
  // privileges a service rarely has); the Set* calls set them.
  static absl::StatusOr<std::unique_ptr<DatabaseBackend>> Open(
      absl::string_view uri, const Options& options);

  std::string Where() const override { return context_->Where(); }

  absl::Status Close() override;
  Collection& collection(absl::string_view name) override;
  absl::Status CreateCollection(absl::string_view name,
                                const ValidationOptions* validation) override;
  absl::StatusOr<std::vector<std::string>> ListCollectionNames() override;
  absl::StatusOr<bool> DropCollection(absl::string_view name) override;
  absl::Status RenameCollection(absl::string_view from, absl::string_view to,
                                bool drop_target) override;
  absl::StatusOr<Value> Stats(int64_t scale,
                              absl::string_view db_name) override;
  absl::Status SyncLog() override;
  // MongoDB's db.watch() (remote/mongo_change_stream.h).
  absl::StatusOr<std::unique_ptr<ChangeStream>> Watch(
      const ChangeStreamOptions& options) override;

  absl::Status SetTtlMonitorSleep(absl::Duration sleep) override;
  absl::Status SetTtlMonitorEnabled(bool enabled) override;
  absl::Duration ttl_monitor_sleep() const override;
  bool ttl_monitor_enabled() const override;
  absl::Status SetTtlBatchDocsMax(int64_t docs) override;
  absl::Status SetTtlBatchTimeMax(absl::Duration time) override;
  absl::Status SetTtlBatchDeletes(bool batch_deletes) override;
  absl::Status SetTtlSubPassTarget(absl::Duration target) override;
  int64_t ttl_batch_docs_max() const override;
  absl::Duration ttl_batch_time_max() const override;
  bool ttl_batch_deletes() const override;
  absl::Duration ttl_sub_pass_target() const override;
  TtlMetrics GetTtlMetrics() override;
  Value ServerStatus() override;

 private:
  explicit MongoDatabase(std::shared_ptr<const RemoteContext> context,
                         const Options& options);
  // A command on `db` ("admin" for the server's), reply as it came.
  absl::StatusOr<Value> Command(absl::string_view db, const Value& command);
  absl::Status SetParameter(absl::string_view name, Value value);
  MongoCollection* backend(absl::string_view name);

  const std::shared_ptr<const RemoteContext> context_;

  struct Handle {
    std::unique_ptr<MongoCollection> backend;
    std::unique_ptr<Collection> collection;
  };
  Mutex mu_;
  std::map<std::string, Handle, std::less<>> handles_ ABSL_GUARDED_BY(mu_);
  // The TTL parameters as last set through this Database (Options' values
  // until then): MongoDB's getParameter needs privileges, and these
  // accessors cannot fail.
  mutable Mutex params_mu_;
  absl::Duration ttl_monitor_sleep_ ABSL_GUARDED_BY(params_mu_);
  bool ttl_monitor_enabled_ ABSL_GUARDED_BY(params_mu_);
  int64_t ttl_batch_docs_max_ ABSL_GUARDED_BY(params_mu_);
  absl::Duration ttl_batch_time_max_ ABSL_GUARDED_BY(params_mu_);
  bool ttl_batch_deletes_ ABSL_GUARDED_BY(params_mu_);
  absl::Duration ttl_sub_pass_target_ ABSL_GUARDED_BY(params_mu_);
};

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_MONGO_DATABASE_H_
